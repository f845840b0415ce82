// The sparse gradient of an embedding, uncoalesced and coalesced.
#include "core/kernels/sparse_grad.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

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
    if (nnz < 2) return sparse;  // torch clones it
    // torch sorts the indices with indices.sort(0), which on the CPU is std::sort over (index,
    // position) pairs comparing the index only: not stable, so repeats are summed in the order
    // this very call leaves them in (libstdc++'s introsort, the same code torch was built with).
    std::vector<std::pair<std::uint64_t, std::size_t>> order(nnz);
    for (std::size_t e = 0; e < nnz; ++e) order[e] = {sparse.indices[e], e};
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    SparseGrad merged;
    for (const auto& [index, e] : order) {
        if (merged.indices.empty() || merged.indices.back() != index) merged.indices.push_back(index);
    }
    merged.values = Matrix(merged.indices.size(), d);
    std::size_t out = 0;
    for (std::size_t k = 0; k < nnz; ++k) {
        const bool first = k == 0 || order[k - 1].first != order[k].first;
        if (first && k > 0) ++out;
        const float* value = sparse.values.row(order[k].second);
        float* row = merged.values.values.data() + out * d;
        if (first) {
            std::memcpy(row, value, d * sizeof(float));  // the first value of an index is copied
        } else {
            for (std::size_t j = 0; j < d; ++j) row[j] += value[j];  // axpy with alpha 1
        }
    }
    return merged;
}

void sparse_sgd_step(Matrix& param, const SparseGrad& grad, double lr) {
    const auto neg_lr = static_cast<float>(-lr);
    const std::size_t d = param.cols;
    for (std::size_t e = 0; e < grad.indices.size(); ++e) {
        float* row = param.values.data() + grad.indices[e] * d;
        const float* value = grad.values.row(e);
        for (std::size_t j = 0; j < d; ++j) row[j] = std::fma(value[j], neg_lr, row[j]);
    }
}

std::uint64_t sparse_grad_bytes(std::uint64_t nnz, std::uint64_t dim) {
    return nnz * sizeof(std::int64_t) + nnz * dim * sizeof(float);
}

}  // namespace embdemo
