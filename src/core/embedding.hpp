// The two ways of turning token ids into vectors that the demonstrator compares:
// the lookup (a row gather) and the one-hot matrix product (a dense matmul), plus the
// nn.Linear view of the same product and an exact, bit-level comparison of the results.
//
// Shape legend used in this file: V = vocabulary size (rows of E), d = embedding dimension,
// n = number of ids. E is V x d, X = one_hot(ids) is n x V, and both results are n x d.
// Ids are validated once by the caller (every id < V); these kernels do not re-check them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

using TokenIds = std::vector<std::uint64_t>;

// X[i][k] = 1 if ids[i] == k else 0.  n x V
Matrix one_hot(const TokenIds& ids, std::size_t vocab_size);

// E[ids]: row i of the result is a copy of row ids[i] of E.  n x d
Matrix lookup(const Matrix& weight, const TokenIds& ids);

// The plain reference product A·B with one float accumulator per output, summed over k in
// order. It is the computation being explained, so it computes every term (no skipping zeros)
// and is no BLAS; it is only laid out so that the compiler can vectorise it.
Matrix matmul(const Matrix& a, const Matrix& b);

// Mᵀ. nn.Linear(V, d) stores its weight as W = Eᵀ (d x V, out x in).
Matrix transpose(const Matrix& m);

// X·Wᵀ, nn.Linear(bias=False)'s output, given the weight's transpose weight_t = Wᵀ (in x out):
// out[i][j] = sum_k X[i][k] * W[j][k], and W[j][k] = weight_t[k][j], so column k of W is row k of
// weight_t and the sum reads weight_t in place. For the Linear layer with W = Eᵀ, weight_t is E
// itself: Eᵀ is never built.
Matrix linear_forward_transposed(const Matrix& x, const Matrix& weight_t);

struct Comparison {
    bool identical = true;        // every element has the same bit pattern (so -0.0 != +0.0)
    std::size_t differing = 0;    // how many elements differ in their bits
    double max_abs_diff = 0.0;    // largest |a - b|; NaN when a NaN is involved
};

// Compares two same-shaped matrices element by element, bit for bit.
Comparison compare_exact(const Matrix& a, const Matrix& b);

}  // namespace embdemo
