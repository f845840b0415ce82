// F.cross_entropy(logits, targets) with the mean reduction, and its gradient with respect to the
// logits, as PyTorch 1.13's CPU kernels compute them: log_softmax over each row (its max, the sum
// of exp(x - max) and its log, then x - max - log(sum)), nll_loss's mean over the rows, and the
// backward of both, dlogits = go - exp(log_softmax) * sum(go) with go = -1/n at each row's target
// and 0 elsewhere. PyTorch's exp is SLEEF's vectorised one and its sums run in 8 lanes, so the
// bits can differ from glibc's expf by an ulp: docs/design.md ("How train matches PyTorch") states
// the bound the live tests hold. Pure: no printing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

struct CrossEntropy {
    float loss = 0.0f;  // mean over the rows of -log_softmax(logits)[i, targets[i]]
    Matrix grad;        // d loss / d logits, n x V
};

// logits n x V, targets n ids below V (the caller checks), n >= 1.
CrossEntropy cross_entropy(const Matrix& logits, const std::vector<std::uint64_t>& targets);

// One row of it, for a row of v logits: log_softmax into `log_probs`, their exps (SLEEF's) into
// `probs`, each v floats. cross_entropy computes every row with it, so a caller that computes a
// repeated row once gets the same bits.
void softmax_row(const float* row, std::size_t v, float* log_probs, float* probs, std::vector<float>& work);

// The gradient of a row with respect to its logits, given its probs: -(p * go) off the target and
// fma(-p, go, go) at it, go = -1/n (nll_loss_backward's share of a row among n).
inline float cross_entropy_go(std::size_t n) { return -(1.0f / static_cast<float>(n)); }

}  // namespace embdemo
