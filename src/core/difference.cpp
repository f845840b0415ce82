#include "core/difference.hpp"

#include <cmath>
#include <cstring>

namespace embdemo {
namespace {

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

std::optional<Difference> difference_at(const Matrix& weight, const TokenIds& ids,
                                        const Matrix& lookup, const Matrix& product,
                                        std::size_t i, std::size_t j) {
    if (same_bits(lookup.at(i, j), product.at(i, j))) return std::nullopt;
    Difference difference;
    difference.position = i;
    difference.column = j;
    difference.id = ids[i];
    difference.lookup_value = lookup.at(i, j);
    difference.product_value = product.at(i, j);
    for (std::size_t k = 0; k < weight.rows; ++k) {
        if (k != ids[i] && !std::isfinite(weight.at(k, j))) {
            difference.cause = Difference::Cause::nonfinite_elsewhere;
            difference.source_row = k;
            difference.source_value = weight.at(k, j);
            return difference;
        }
    }
    const float selected = weight.at(ids[i], j);
    if (selected == 0.0f && std::signbit(selected)) {
        difference.cause = Difference::Cause::negative_zero;
    } else if (std::isnan(selected)) {
        difference.cause = Difference::Cause::nan_bits;
    }
    return difference;
}

std::optional<Difference> first_difference(const Matrix& weight, const TokenIds& ids,
                                           const Matrix& lookup, const Matrix& product) {
    for (std::size_t i = 0; i < lookup.rows; ++i) {
        for (std::size_t j = 0; j < lookup.cols; ++j) {
            if (auto difference = difference_at(weight, ids, lookup, product, i, j)) return difference;
        }
    }
    return std::nullopt;
}

}  // namespace embdemo
