// nn.Embedding(..., sparse=True): the gradient of the table as PyTorch 1.13 returns it, a sparse
// COO tensor (embedding_sparse_backward in aten/src/ATen/native/Embedding.cpp), and its coalesced
// form; plus what each costs in memory next to the dense V x d gradient. Pure: no printing.
//
// Shape legend: V = rows of E, d = columns, n = number of ids (B * T flattened), nnz = stored
// entries. Ids are checked by the caller (every id < V).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/matrix.hpp"

namespace embdemo {

// A sparse V x d gradient with one dense row of d values per stored index.
struct SparseGrad {
    std::vector<std::uint64_t> indices;  // nnz row indices (torch: a 1 x nnz int64 tensor)
    Matrix values;                       // nnz x d
};

// The uncoalesced gradient: index i is ids[i], value i is a copy of G[i], in the order of the
// ids, repeats kept; positions holding padding_row are dropped (torch masks them out first).
// scale_grad_by_freq is not supported with sparse gradients, in torch as here. nnz x d
SparseGrad sparse_embedding_backward(const Matrix& upstream, const TokenIds& ids,
                                     std::optional<std::size_t> padding_row);

// coalesce(): indices sorted and unique, each row the first value stored at that index plus the
// others, added in the order torch's CPU coalesce visits them (its unstable sort's order; torch
// does not promise one, so the promise is 1e-6 relative; the recorded cases agree bit for bit).
SparseGrad coalesce(const SparseGrad& sparse);

// torch.optim.SGD's plain step (no momentum, no weight decay) on a sparse gradient:
// param.add_(grad, alpha=-lr) walks the uncoalesced entries in order, each adding its row with
// one fused multiply-add per value, the learning rate as a float32 (checked bit for bit with torch).
void sparse_sgd_step(Matrix& param, const SparseGrad& grad, double lr);

// Bytes of a COO gradient: nnz int64 indices and nnz x d float32 values.
std::uint64_t sparse_grad_bytes(std::uint64_t nnz, std::uint64_t dim);

}  // namespace embdemo
