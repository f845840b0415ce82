// Why the one-hot product X @ E can differ from the lookup E[ids], located at the first value
// that differs. For finite E they never differ (see embedding.hpp); with user-supplied weights
// three things break the equality, and a learner should be told which one:
// - inf or nan elsewhere in the column: the product adds 0 * E[k][j] for every other row k, and
//   0 * inf = nan (0 * nan = nan), which poisons the sum;
// - -0.0 in the selected row: the sum starts at +0.0 and +0 + -0 = +0, so the sign is lost;
// - a NaN with an unusual bit pattern (signalling, or a payload) that arithmetic changes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/embedding.hpp"
#include "core/matrix.hpp"

namespace embdemo {

struct Difference {
    enum class Cause { nonfinite_elsewhere, negative_zero, nan_bits, other };
    Cause cause = Cause::other;
    std::size_t position = 0;    // i: the position in ids (row of the results)
    std::size_t column = 0;      // j
    std::uint64_t id = 0;        // ids[i]
    float lookup_value = 0.0f;   // E[id][j]
    float product_value = 0.0f;  // (X @ E)[i][j]
    std::size_t source_row = 0;  // nonfinite_elsewhere: the first row k != id with E[k][j] not finite
    float source_value = 0.0f;   // nonfinite_elsewhere: that E[k][j] (inf, -inf or nan)
};

// The first position (row-major) where lookup and product differ in their bits, and why; nullopt
// when they are identical. V x d weight, n ids, n x d lookup and product.
std::optional<Difference> first_difference(const Matrix& weight, const TokenIds& ids,
                                           const Matrix& lookup, const Matrix& product);

// The same analysis at one place (position i, column j); nullopt when the bits agree there.
std::optional<Difference> difference_at(const Matrix& weight, const TokenIds& ids,
                                        const Matrix& lookup, const Matrix& product,
                                        std::size_t position, std::size_t column);

}  // namespace embdemo
