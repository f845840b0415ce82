// The sparse gradient of an embedding, uncoalesced and coalesced.
#include "core/sparse_grad.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace embdemo {

SparseGrad sparse_embedding_backward(const Matrix& upstream, const TokenIds& ids,
                                     std::optional<std::size_t> padding_row) {
    const std::size_t d = upstream.cols;
    SparseGrad sparse;
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (padding_row && ids[i] == *padding_row) continue;  // indices != padding_idx
        kept.push_back(i);
        sparse.indices.push_back(ids[i]);
    }
    sparse.values = Matrix(kept.size(), d);
    for (std::size_t e = 0; e < kept.size(); ++e) {
        std::memcpy(sparse.values.values.data() + e * d, upstream.row(kept[e]), d * sizeof(float));
    }
    return sparse;
}

SparseGrad coalesce(const SparseGrad& sparse) {
    const std::size_t d = sparse.values.cols;
    const std::size_t nnz = sparse.indices.size();
    // A stable sort keeps repeats in the order they are stored, so each sum runs over them in order.
    std::vector<std::size_t> order(nnz);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return sparse.indices[a] < sparse.indices[b]; });
    SparseGrad merged;
    for (const std::size_t e : order) {
        if (merged.indices.empty() || merged.indices.back() != sparse.indices[e]) merged.indices.push_back(sparse.indices[e]);
    }
    merged.values = Matrix(merged.indices.size(), d);
    std::size_t out = 0;
    for (std::size_t k = 0; k < nnz; ++k) {
        const std::size_t e = order[k];
        if (k > 0 && sparse.indices[order[k - 1]] != sparse.indices[e]) ++out;
        float* row = merged.values.values.data() + out * d;
        const float* value = sparse.values.row(e);
        for (std::size_t j = 0; j < d; ++j) row[j] += value[j];
    }
    return merged;
}

std::uint64_t sparse_grad_bytes(std::uint64_t nnz, std::uint64_t dim) {
    return nnz * sizeof(std::int64_t) + nnz * dim * sizeof(float);
}

}  // namespace embdemo
