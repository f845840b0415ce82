// The comparison of the two backward passes (embedding.cpp holds the kernels, beside the forward
// ones): which rows each way writes, which are expected to differ and why, and whether they do.
#include "core/kernels/grad.hpp"

#include <cmath>
#include <cstring>
#include <map>

namespace embdemo {
namespace {

bool same_bits(const float* a, const float* b, std::size_t count) {
    return std::memcmp(a, b, count * sizeof(float)) == 0;
}

}  // namespace

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
