// The gradient only the one-hot form has: the lookup takes integer ids and has no gradient with
// respect to them, but X = one_hot(ids) is a float matrix, and for out = X @ E with upstream G,
// dL/dX = G @ Eᵀ: one score per position and vocabulary entry. score[t][v] - score[t][ids[t]] is
// the first-order estimate of how the loss changes if position t held token v instead, which
// gradient-guided token search (HotFlip, GCG) ranks. Pure: no printing.
//
// Shape legend: V = rows of E, d = columns, n = number of ids (B * T flattened). G is n x d.
#pragma once

#include <cstddef>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

// G @ Eᵀ, as PyTorch's autograd computes X.grad for out = X @ E (through the BLAS, see
// torch_matmul.hpp), so the scores are PyTorch's bit for bit on this machine. n x V
Matrix onehot_input_gradient(const Matrix& upstream, const Matrix& weight);

// The `count` columns of row t with the lowest scores (the swaps that most lower the loss to
// first order), lowest first, ties by the smaller id; nan scores come last.
std::vector<std::size_t> lowest_scores(const Matrix& scores, std::size_t t, std::size_t count);

}  // namespace embdemo
