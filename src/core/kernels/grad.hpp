// The backward pass of an embedding, two ways: the embedding's own backward (a scatter-add of the
// upstream gradient's rows into the rows of the ids, as PyTorch's embedding_dense_backward_cpu
// does, with padding_idx and scale_grad_by_freq) and the linear layer's backward into its weight,
// one_hot(ids)ᵀ · G, which knows nothing of either option. For a plain embedding and a finite G the
// two agree bit for bit; GradComparison says where and why they stop agreeing.
//
// Shape legend used in this file: V = vocabulary size (rows of E and dE), d = embedding dimension,
// n = number of ids (B * T for a batch, flattened row-major). G is n x d, both dE are V x d.
// Ids are validated once by the caller (every id < V); these kernels do not re-check them.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/matrix.hpp"

namespace embdemo {

// Why a row of the two gradients is expected to differ.
enum class GradRowDifference {
    none,     // the row's contributions are added the same way in both
    padding,  // the padding row: the embedding gives it nothing, the one-hot form the full sum
    scaled,   // scale_grad_by_freq with a repeated id: the embedding adds G[i] / count
};

// One row of E that the ids use, for a renderer to annotate.
struct GradRow {
    std::size_t row = 0;                 // the id k
    std::vector<std::size_t> positions;  // every i with ids[i] == k, ascending (flat, b * T + t)
    bool padding = false;                // k is padding_idx
    float scale = 1.0f;                  // what PyTorch multiplies each G[i] by: float(1.0 / count)
    GradRowDifference expected = GradRowDifference::none;
    bool identical = true;               // the two dE rows have the same bits
};

struct GradComparison {
    Comparison whole;                   // all V x d values, bit for bit
    std::vector<GradRow> rows;          // the used rows, ascending by id
    std::size_t rows_with_gradient = 0; // used rows that the embedding backward writes to
};

// The used rows of E with their positions, counts and scale, no values compared.
std::vector<GradRow> gradient_rows(const TokenIds& ids, const EmbeddingOptions& options);

// Compares the embedding backward with the one-hot backward of the same ids and G, row by row.
// Rows that no id uses are 0 in both (for a finite G) and appear only in `whole`.
GradComparison compare_gradients(const Matrix& lookup_grad, const Matrix& onehot_grad,
                                 const TokenIds& ids, const EmbeddingOptions& options);

}  // namespace embdemo
