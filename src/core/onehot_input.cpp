// dL/dX for the one-hot form, and the ranking of its scores.
#include "core/onehot_input.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace embdemo {

Matrix onehot_input_gradient(const Matrix& upstream, const Matrix& weight) {
    const std::size_t n = upstream.rows;
    const std::size_t V = weight.rows;
    const std::size_t d = weight.cols;
    Matrix scores(n, V);
    for (std::size_t t = 0; t < n; ++t) {
        const float* g = upstream.row(t);
        for (std::size_t v = 0; v < V; ++v) {
            const float* e = weight.row(v);
            double sum = 0.0;
            for (std::size_t j = 0; j < d; ++j) sum += static_cast<double>(g[j]) * e[j];
            scores.at(t, v) = static_cast<float>(sum);
        }
    }
    return scores;
}

std::vector<std::size_t> lowest_scores(const Matrix& scores, std::size_t t, std::size_t count) {
    std::vector<std::size_t> order(scores.cols);
    std::iota(order.begin(), order.end(), std::size_t{0});
    const float* row = scores.row(t);
    const auto before = [row](std::size_t a, std::size_t b) {
        const bool nan_a = std::isnan(row[a]);
        const bool nan_b = std::isnan(row[b]);
        if (nan_a != nan_b) return nan_b;
        if (!nan_a && row[a] != row[b]) return row[a] < row[b];
        return a < b;
    };
    count = std::min(count, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(), before);
    order.resize(count);
    return order;
}

}  // namespace embdemo
