#include "core/kernels/difference.hpp"

#include <cmath>
#include <cstring>

namespace embdemo {
namespace {

constexpr std::uint32_t k_quiet_bit = 0x00400000u;

std::uint32_t bits_of(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

bool is_signalling(float value) { return std::isnan(value) && (bits_of(value) & k_quiet_bit) == 0; }

// The first row k != id of column j that satisfies `pick`, or nullopt.
template <typename Pick>
std::optional<std::size_t> first_other_row(const Matrix& weight, std::uint64_t id, std::size_t j, Pick pick) {
    for (std::size_t k = 0; k < weight.rows; ++k) {
        if (k != id && pick(weight.at(k, j))) return k;
    }
    return std::nullopt;
}

bool not_finite(float value) { return !std::isfinite(value); }

// Which NaN the product carries when both sides are NaN with other bits.
void find_nan_source(const Matrix& weight, Difference& d) {
    const float selected = weight.at(d.id, d.column);
    if (is_signalling(selected) && d.product_bits == (d.lookup_bits | k_quiet_bit)) {
        d.nan_source = Difference::NanSource::quieted;
        return;
    }
    const auto carried = first_other_row(weight, d.id, d.column, [&](float value) {
        return std::isnan(value) && (bits_of(value) | k_quiet_bit) == d.product_bits;
    });
    if (carried) {
        d.nan_source = Difference::NanSource::other_row;
        d.source_row = *carried;
    } else if (d.product_bits == k_default_nan_bits) {
        const auto infinite = first_other_row(weight, d.id, d.column, [](float value) { return std::isinf(value); });
        if (!infinite) return;
        d.nan_source = Difference::NanSource::default_nan;
        d.source_row = *infinite;
    } else {
        return;
    }
    d.source_value = weight.at(d.source_row, d.column);
}

}  // namespace

std::optional<Difference> difference_at(const Matrix& weight, const TokenIds& ids,
                                        const Matrix& lookup, const Matrix& product,
                                        std::size_t i, std::size_t j) {
    Difference d;
    d.lookup_value = lookup.at(i, j);
    d.product_value = product.at(i, j);
    d.lookup_bits = bits_of(d.lookup_value);
    d.product_bits = bits_of(d.product_value);
    if (d.lookup_bits == d.product_bits) return std::nullopt;
    d.position = i;
    d.column = j;
    d.id = ids[i];
    const bool lookup_nan = std::isnan(d.lookup_value);
    const bool product_nan = std::isnan(d.product_value);
    if (!lookup_nan && product_nan) {
        if (const auto k = first_other_row(weight, d.id, j, not_finite)) {
            d.cause = Difference::Cause::nonfinite_elsewhere;
            d.source_row = *k;
            d.source_value = weight.at(*k, j);
        }
    } else if (d.lookup_bits == 0x80000000u && d.product_bits == 0u) {
        d.cause = Difference::Cause::negative_zero;
    } else if (lookup_nan && product_nan) {
        d.cause = Difference::Cause::nan_bits;
        find_nan_source(weight, d);
    }
    return d;
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

bool difference_holds(const Difference& d, const Matrix& weight, const TokenIds& ids, const Matrix& lookup,
                      const Matrix& product) {
    const std::size_t t = d.position;
    const std::size_t j = d.column;
    if (t >= lookup.rows || j >= lookup.cols || ids[t] != d.id) return false;
    const std::uint32_t looked_up = bits_of(lookup.at(t, j));
    const std::uint32_t produced = bits_of(product.at(t, j));
    if (looked_up != d.lookup_bits || produced != d.product_bits || looked_up == produced) return false;
    if (looked_up != bits_of(weight.at(d.id, j))) return false;  // the lookup copies E[id, j]
    const bool source_ok = d.source_row < weight.rows && d.source_row != d.id &&
                           bits_of(weight.at(d.source_row, j)) == bits_of(d.source_value);
    switch (d.cause) {
        case Difference::Cause::nonfinite_elsewhere:
            return !std::isnan(lookup.at(t, j)) && std::isnan(product.at(t, j)) && source_ok &&
                   not_finite(d.source_value) &&
                   first_other_row(weight, d.id, j, not_finite) == d.source_row;
        case Difference::Cause::negative_zero:
            return looked_up == 0x80000000u && produced == 0u;
        case Difference::Cause::nan_bits:
            if (!std::isnan(lookup.at(t, j)) || !std::isnan(product.at(t, j))) return false;
            switch (d.nan_source) {
                case Difference::NanSource::quieted:
                    return is_signalling(weight.at(d.id, j)) && produced == (looked_up | k_quiet_bit);
                case Difference::NanSource::other_row:
                    return source_ok && std::isnan(d.source_value) &&
                           (bits_of(d.source_value) | k_quiet_bit) == produced;
                case Difference::NanSource::default_nan:
                    return source_ok && std::isinf(d.source_value) && produced == k_default_nan_bits;
                case Difference::NanSource::none: return true;  // "different bits", nothing more
            }
            return false;
        case Difference::Cause::other:
            return true;  // states only that the bits differ, checked above
    }
    return false;
}

}  // namespace embdemo
