// Why the one-hot product X @ E can differ from the lookup E[ids], located at the first value
// that differs. For finite E they never differ (see embedding.hpp); with user-supplied weights
// these break the equality, and a learner should be told which one, from the bits of this run:
// - inf or nan elsewhere in the column: the product adds 0 * E[k, j] for every other row k, and
//   0 * inf = nan (0 * nan = nan), so the product is nan where the lookup is not;
// - -0.0 in the selected row: the product's sum starts at +0.0 and +0 + -0 = +0;
// - both are NaN with other bits: a signalling NaN that arithmetic quieted, another row's NaN
//   that the sum kept instead, or the default NaN that 0 * inf makes.
// Each Difference is a claim about four tensors; difference_holds re-checks it against them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/kernels/embedding.hpp"
#include "core/matrix.hpp"

namespace embdemo {

struct Difference {
    enum class Cause { nonfinite_elsewhere, negative_zero, nan_bits, other };
    // For nan_bits: where the product's NaN came from.
    enum class NanSource { none, quieted, other_row, default_nan };
    Cause cause = Cause::other;
    NanSource nan_source = NanSource::none;
    std::size_t position = 0;    // t: the position in ids (row of the results)
    std::size_t column = 0;      // j
    std::uint64_t id = 0;        // ids[t]
    float lookup_value = 0.0f;   // E[id, j]
    float product_value = 0.0f;  // (X @ E)[t, j]
    std::uint32_t lookup_bits = 0;
    std::uint32_t product_bits = 0;
    // nonfinite_elsewhere: the first row k != id with E[k, j] not finite; nan_bits with
    // other_row: the first row k != id whose NaN the product carries; with default_nan: the
    // first row k != id with E[k, j] = ±inf (0 * inf makes the default NaN).
    std::size_t source_row = 0;
    float source_value = 0.0f;  // E[source_row, j]
};

// The bits of the NaN that x86 and ARM arithmetic produce for an invalid operation (0 * inf).
constexpr std::uint32_t k_default_nan_bits = 0xffc00000u;

// The first position (row-major) where lookup and product differ in their bits, and why; nullopt
// when they are identical. V x d weight, n ids, n x d lookup and product.
std::optional<Difference> first_difference(const Matrix& weight, const TokenIds& ids,
                                           const Matrix& lookup, const Matrix& product);

// The same analysis at one place (position t, column j); nullopt when the bits agree there.
std::optional<Difference> difference_at(const Matrix& weight, const TokenIds& ids,
                                        const Matrix& lookup, const Matrix& product,
                                        std::size_t position, std::size_t column);

// Re-evaluates every fact the Difference states against the tensors it describes: true when the
// claim holds. A view prints only differences for which this holds (the unit tests check that
// every difference the analysis makes does, over random tables full of special values).
bool difference_holds(const Difference& difference, const Matrix& weight, const TokenIds& ids,
                      const Matrix& lookup, const Matrix& product);

}  // namespace embdemo
