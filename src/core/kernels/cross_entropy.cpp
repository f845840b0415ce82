// One pass per row, in the order ATen's _vec_log_softmax_lastdim takes: the max, the sum of
// exp(x - max) in eight lanes (Vectorized<float> on AVX2) folded at the end, the log of the sum,
// then x - max - log(sum), each exp and log SLEEF's (core/kernels/sleef_math.hpp).
// The loss is summed in double and rounded once: the gradient, which alone moves E, does not
// depend on it.
#include "core/kernels/cross_entropy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/kernels/sleef_math.hpp"

namespace embdemo {
namespace {

constexpr std::size_t k_sum_lanes = 8;

// vec::map_reduce_all's sum of exp(row[j] - max): a row shorter than a vector is summed left to
// right; a longer one in k_sum_lanes running sums, folded as AVX2's vec_reduce_all folds them
// (lane k + lane k+4, then k + k+2, then k + k+1).
float exp_sum(const float* row, std::size_t count, float max, std::vector<float>& work) {
    work.resize(count);
    for (std::size_t j = 0; j < count; ++j) work[j] = row[j] - max;
    sleef_expf_all(work.data(), count);
    if (count < k_sum_lanes) {
        float sum = work[0];
        for (std::size_t j = 1; j < count; ++j) sum = sum + work[j];
        return sum;
    }
    float lanes[k_sum_lanes] = {};
    for (std::size_t j = 0; j < count; ++j) lanes[j % k_sum_lanes] += work[j];
    for (std::size_t width = k_sum_lanes / 2; width > 0; width /= 2) {
        for (std::size_t k = 0; k < width; ++k) lanes[k] += lanes[k + width];
    }
    return lanes[0];
}

}  // namespace

void softmax_row(const float* row, std::size_t v, float* log_probs, float* probs, std::vector<float>& work) {
    float max = -std::numeric_limits<float>::infinity();
    for (std::size_t j = 0; j < v; ++j) max = std::max(max, row[j]);
    const float log_sum = sleef_logf(exp_sum(row, v, max, work));
    for (std::size_t j = 0; j < v; ++j) log_probs[j] = row[j] - max - log_sum;
    std::copy(log_probs, log_probs + v, probs);
    sleef_expf_all(probs, v);
}

CrossEntropy cross_entropy(const Matrix& logits, const std::vector<std::uint64_t>& targets) {
    const std::size_t n = logits.rows, v = logits.cols;
    CrossEntropy result;
    result.grad = Matrix(n, v);
    // nll_loss_backward: grad_input[i][target] = -(grad_output / total_weight), total_weight = n.
    const float go = cross_entropy_go(n);
    double total = 0.0;
    std::vector<float> work, log_probs(v), probs(v);
    for (std::size_t i = 0; i < n; ++i) {
        float* grad = result.grad.values.data() + i * v;
        softmax_row(logits.row(i), v, log_probs.data(), probs.data(), work);
        const std::size_t target = static_cast<std::size_t>(targets[i]);
        total -= static_cast<double>(log_probs[target]);
        // log_softmax_backward: go - exp(output) * sum(go), the row's sum of go being go itself.
        // GCC fuses the AVX2 kernel's x - exp(y) * sum into one fma; with x = 0 off the target
        // that is -(exp(y) * sum), rounded once either way.
        for (std::size_t j = 0; j < v; ++j) grad[j] = -(probs[j] * go);
        grad[target] = std::fma(-probs[target], go, go);
    }
    result.loss = static_cast<float>(total / static_cast<double>(n));
    return result;
}

}  // namespace embdemo
