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
// order. Deliberately not a fast kernel: it is the computation being explained.
Matrix matmul(const Matrix& a, const Matrix& b);

// Mᵀ. nn.Linear(V, d) stores its weight as W = Eᵀ (d x V, out x in).
Matrix transpose(const Matrix& m);

// X·Wᵀ the way nn.Linear(bias=False) defines its output: out[i][j] = sum_k X[i][k] * W[j][k].
Matrix linear_forward(const Matrix& x, const Matrix& weight);

struct Comparison {
    bool identical = true;        // every element has the same bit pattern (so -0.0 != +0.0)
    std::size_t differing = 0;    // how many elements differ in their bits
    double max_abs_diff = 0.0;    // largest |a - b|; NaN when a NaN is involved
};

// Compares two same-shaped matrices element by element, bit for bit.
Comparison compare_exact(const Matrix& a, const Matrix& b);

}  // namespace embdemo
