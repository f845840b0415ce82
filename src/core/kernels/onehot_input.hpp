// The gradient only the one-hot form has: the lookup takes integer ids and has no gradient with
// respect to them, but X = one_hot(ids) is a float matrix, and for out = X @ E with upstream G,
// dL/dX = G @ Eᵀ: one score per position and vocabulary entry. score[t][v] - score[t][ids[t]] is
// the first-order estimate of how the loss changes if position t held token v instead, which
// gradient-guided token search (HotFlip, GCG) ranks. Pure: no printing.
//
// Shape legend: V = rows of E, d = columns, n = number of ids (B * T flattened). G is n x d.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/kernels/onehot_products.hpp"
#include "core/matrix.hpp"

namespace embdemo {

// G @ Eᵀ, as PyTorch's autograd computes X.grad for out = X @ E (through the BLAS, see
// torch_matmul.hpp), so the scores are PyTorch's bit for bit on this machine. n x V
Matrix onehot_input_gradient(const Matrix& upstream, const Matrix& weight);

// dL/dX whole, or, when n x V is too large to hold, the rows of it that the views show.
struct OneHotInputScores {
    std::size_t positions = 0;                // n
    std::size_t vocab_size = 0;               // V
    std::vector<std::size_t> kept_positions;  // the rows held, ascending: all n when whole
    Matrix values;                            // kept_positions.size() x V

    bool whole() const { return kept_positions.size() == positions; }
    bool kept(std::size_t t) const;
    // Row t of dL/dX; t must be kept.
    const float* row(std::size_t t) const;
};

// dL/dX = G @ Eᵀ with every row the bits of PyTorch's one call (onehot_input_gradient): whole
// when n x V <= kept_values, otherwise computed a block of G's rows at a time (settings: block
// size and threads) keeping only `shown` (ascending positions below n).
OneHotInputScores onehot_input_scores(const Matrix& upstream, const Matrix& weight, std::uint64_t kept_values,
                                      const std::vector<std::size_t>& shown, const OneHotProductSettings& settings = {});

// The `count` columns of a row of V scores with the lowest scores (the swaps that most lower the
// loss to first order), lowest first, ties by the smaller id; nan scores come last.
std::vector<std::size_t> lowest_scores(const float* row, std::size_t vocab_size, std::size_t count);

// The same for row t of a matrix of scores.
std::vector<std::size_t> lowest_scores(const Matrix& scores, std::size_t t, std::size_t count);

}  // namespace embdemo
