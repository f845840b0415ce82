// The two ways of turning token ids into vectors that the demonstrator compares, forward and
// backward: the lookup (a row gather) and its scatter-add backward, the one-hot matrix product
// (through the BLAS as PyTorch computes it, torch_matmul.hpp; matmul here is the in-order
// reference) and its one_hot(ids)ᵀ · G backward, and an exact, bit-level comparison of results.
//
// Shape legend used in this file: V = vocabulary size (rows of E), d = embedding dimension,
// n = number of ids (B * T for a batch, flattened row-major). E is V x d, X = one_hot(ids) is
// n x V, both forward results and G are n x d, both gradients V x d.
// Ids are validated once by the caller (every id < V); these kernels do not re-check them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

using TokenIds = std::vector<std::uint64_t>;
struct OneHotProductSettings;  // core/kernels/onehot_products.hpp

// X[i][k] = 1 if ids[i] == k else 0.  n x V
Matrix one_hot(const TokenIds& ids, std::size_t vocab_size);

// Columns first .. first + count - 1 of one_hot(ids, V), made without the others.  n x count
Matrix one_hot_columns(const TokenIds& ids, std::size_t first, std::size_t count);

// E[ids]: row i of the result is a copy of row ids[i] of E.  n x d
Matrix lookup(const Matrix& weight, const TokenIds& ids);

// The in-order reference product A·B: one float accumulator per output from +0.0, each term
// rounded, then added in order of k. It is the arithmetic a learner can follow by hand (the bag
// lesson's reference sum); PyTorch's `@` goes through the BLAS instead (torch_matmul.hpp).
Matrix matmul(const Matrix& a, const Matrix& b);

// Mᵀ. nn.Linear(V, d) stores its weight as W = Eᵀ (d x V, out x in).
Matrix transpose(const Matrix& m);


// The backward passes, beside the forwards above and with their loop skeleton.
// The two nn.Embedding options that change its backward.
struct EmbeddingOptions {
    std::optional<std::size_t> padding_row;  // padding_idx, already resolved to 0 .. V-1
    bool scale_grad_by_freq = false;
};

// emb.weight.grad after emb(ids).backward(G), bit for bit (PyTorch 1.13, CPU, float32):
// dE[ids[i]] += scale_i * G[i] for i = 0, 1, ... in order, each element with one fused
// multiply-add; scale_i = 1, or 1 / (count of ids[i] in ids) with scale_grad_by_freq;
// the padding row gets nothing. V x d
Matrix embedding_backward(const Matrix& upstream, const TokenIds& ids, std::size_t vocab_size,
                          const EmbeddingOptions& options = {});

// What scale_grad_by_freq multiplies each contribution of an id seen `count` times by:
// PyTorch computes 1.0 / count in double, and its add kernel casts it to float.
float frequency_scale(std::size_t count);

// one_hot(ids)ᵀ · G: the gradient nn.Linear's weight W = E would receive from
// (one_hot(ids).float() @ W).backward(G), computed as PyTorch's autograd computes it, through
// the BLAS (torch_matmul.hpp), with the bits of its one call on the whole X. Past
// settings.block_values values of X, dE is computed a block of its rows (of Xᵀ's rows, made on
// the fly) at a time, so nothing of size n x V is held. V x d
Matrix onehot_backward(const Matrix& upstream, const TokenIds& ids, std::size_t vocab_size,
                       const OneHotProductSettings& settings);
// The same with the default blocks, on one thread.
Matrix onehot_backward(const Matrix& upstream, const TokenIds& ids, std::size_t vocab_size);

struct Comparison {
    bool identical = true;        // every element has the same bit pattern (so -0.0 != +0.0)
    std::size_t differing = 0;    // how many elements differ in their bits
    double max_abs_diff = 0.0;    // largest |a - b|; NaN when a NaN is involved
};

// Compares two same-shaped matrices element by element, bit for bit.
Comparison compare_exact(const Matrix& a, const Matrix& b);

}  // namespace embdemo
