// dL/dX for the one-hot form, and the ranking of its scores.
#include "core/onehot_input.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace embdemo {

namespace {

// The k-blocks of a dot product of length d as OpenBLAS's sgemm driver splits K: blocks of
// k_gemm_q while at least two remain, then the rest in two halves (the first rounded up to a
// multiple of k_gemm_unroll), or whole when it fits one block.
constexpr std::size_t k_gemm_q = 320;  // found by comparing with torch on the development machine
constexpr std::size_t k_gemm_unroll = 8;

std::size_t next_block(std::size_t remaining) {
    if (remaining >= 2 * k_gemm_q) return k_gemm_q;
    if (remaining > k_gemm_q) return (remaining / 2 + k_gemm_unroll - 1) / k_gemm_unroll * k_gemm_unroll;
    return remaining;
}

}  // namespace

Matrix onehot_input_gradient(const Matrix& upstream, const Matrix& weight) {
    const std::size_t n = upstream.rows;
    const std::size_t V = weight.rows;
    const std::size_t d = weight.cols;
    Matrix scores(n, V);
    for (std::size_t t = 0; t < n; ++t) {
        const float* g = upstream.row(t);
        for (std::size_t v = 0; v < V; ++v) {
            const float* e = weight.row(v);
            float total = 0.0f;
            for (std::size_t k0 = 0; k0 < d;) {
                const std::size_t k1 = k0 + next_block(d - k0);
                float block = 0.0f;  // one fused multiply-add per term, in order of k
                for (std::size_t k = k0; k < k1; ++k) block = std::fma(g[k], e[k], block);
                total += block;  // C += alpha * block with alpha = 1
                k0 = k1;
            }
            scores.at(t, v) = total;
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
