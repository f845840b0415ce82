// dL/dX for the one-hot form, and the ranking of its scores.
#include "core/kernels/onehot_input.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/kernels/embedding.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {

Matrix onehot_input_gradient(const Matrix& upstream, const Matrix& weight) {
    // X.grad after (X @ E).backward(G): autograd's mm_mat1_backward computes G @ E.T, or
    // (E @ G.T).T when X is "column-major" (n = V = 1), through the BLAS as PyTorch does.
    if (upstream.rows == 1 && weight.rows == 1) return transpose(torch_linear(weight, upstream));
    return torch_linear(upstream, weight);
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
