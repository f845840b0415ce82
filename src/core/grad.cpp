// Backward kernels beside the forward ones of embedding.cpp, with the same loop skeleton:
//
//   lookup (forward)                       embedding_backward
//   for i in 0..n:                         for i in 0..n:
//     k = ids[i]                             k = ids[i]   (skip the padding row)
//     for j in 0..d:                         for j in 0..d:
//       out[i][j] = E[k][j]                    dE[k][j] = fma(G[i][j], scale_i, dE[k][j])
//
//   one_hot(ids) · E (forward)             one_hot(ids)ᵀ · G
//   for i in 0..n, j in 0..d:              for k in 0..V, j in 0..d:
//     sum over k of X[i][k] * E[k][j]        sum over i of X[i][k] * G[i][j]
//
// This translation unit is compiled with -ffp-contract=off: the fma PyTorch performs is written
// out, and every other multiply and add is rounded on its own.
#include "core/grad.hpp"

#include <cmath>
#include <cstring>
#include <map>

namespace embdemo {
namespace {

std::vector<std::size_t> id_counts(const TokenIds& ids, std::size_t vocab_size) {
    std::vector<std::size_t> counts(vocab_size, 0);
    for (const std::uint64_t id : ids) ++counts[id];
    return counts;
}

// PyTorch computes the scale in double (1.0 / count) and its add kernel casts it to float.
float frequency_scale(std::size_t count) {
    return static_cast<float>(1.0 / static_cast<double>(count));
}

bool same_bits(const float* a, const float* b, std::size_t count) {
    return std::memcmp(a, b, count * sizeof(float)) == 0;
}

}  // namespace

Matrix embedding_backward(const Matrix& upstream, const TokenIds& ids, std::size_t vocab_size,
                          const EmbeddingOptions& options) {
    const std::size_t d = upstream.cols;
    Matrix grad(vocab_size, d);  // +0.0 everywhere: rows that no id uses stay exactly 0
    const std::vector<std::size_t> counts =
        options.scale_grad_by_freq ? id_counts(ids, vocab_size) : std::vector<std::size_t>{};
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto k = static_cast<std::size_t>(ids[i]);
        if (options.padding_row == k) continue;  // padding_idx receives no gradient
        const float scale = counts.empty() ? 1.0f : frequency_scale(counts[k]);
        const float* g_i = upstream.row(i);
        float* dE_k = grad.values.data() + k * d;
        // PyTorch adds with grad_weight[k].add_(grad[i], alpha=scale). Its AVX2 kernel fuses that
        // multiply-add in the vectorised body, and GCC contracted the scalar tail the same way,
        // so every element is one fma whatever d is (checked against torch for d = 1..40).
        // Repeated ids accumulate here in the order they appear; with scale 1 the fma is an add.
        for (std::size_t j = 0; j < d; ++j) dE_k[j] = std::fma(g_i[j], scale, dE_k[j]);
    }
    return grad;
}

Matrix onehot_backward(const Matrix& upstream, const TokenIds& ids, std::size_t vocab_size) {
    const std::size_t d = upstream.cols;
    Matrix grad(vocab_size, d);
    for (std::size_t k = 0; k < vocab_size; ++k) {
        float* dE_k = grad.values.data() + k * d;
        // dE[k][j] = sum over i of X[i][k] * G[i][j], in order i = 0, 1, ... from +0.0. Positions
        // with another id add 0 * G[i][j] = ±0, which changes nothing when G is finite; the
        // matching positions add 1 * G[i][j] exactly. That is why, for a plain embedding, this
        // equals the scatter-add bit for bit; it ignores padding_idx and scale_grad_by_freq.
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const float x_ik = ids[i] == k ? 1.0f : 0.0f;
            const float* g_i = upstream.row(i);
            for (std::size_t j = 0; j < d; ++j) dE_k[j] += x_ik * g_i[j];
        }
    }
    return grad;
}

std::vector<GradRow> gradient_rows(const TokenIds& ids, const EmbeddingOptions& options) {
    std::map<std::uint64_t, GradRow> by_id;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        GradRow& row = by_id[ids[i]];
        row.row = static_cast<std::size_t>(ids[i]);
        row.positions.push_back(i);
    }
    std::vector<GradRow> rows;
    rows.reserve(by_id.size());
    for (auto& [id, row] : by_id) {
        row.padding = options.padding_row == row.row;
        if (options.scale_grad_by_freq) row.scale = frequency_scale(row.positions.size());
        if (row.padding) {
            row.expected = GradRowDifference::padding;
        } else if (row.scale != 1.0f) {
            row.expected = GradRowDifference::scaled;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

GradComparison compare_gradients(const Matrix& lookup_grad, const Matrix& onehot_grad,
                                 const TokenIds& ids, const EmbeddingOptions& options) {
    GradComparison comparison;
    comparison.whole = compare_exact(lookup_grad, onehot_grad);
    comparison.rows = gradient_rows(ids, options);
    for (GradRow& row : comparison.rows) {
        row.identical = same_bits(lookup_grad.row(row.row), onehot_grad.row(row.row), lookup_grad.cols);
        if (!row.padding) ++comparison.rows_with_gradient;
    }
    return comparison;
}

}  // namespace embdemo
