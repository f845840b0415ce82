// F.cross_entropy(logits, targets) with the mean reduction, and its gradient with respect to the
// logits, as PyTorch 1.13's CPU kernels compute them: log_softmax over each row (its max, the sum
// of exp(x - max) and its log, then x - max - log(sum)), nll_loss's mean over the rows, and the
// backward of both, dlogits = go - exp(log_softmax) * sum(go) with go = -1/n at each row's target
// and 0 elsewhere. PyTorch's exp is SLEEF's vectorised one and its sums run in 8 lanes, so the
// bits can differ from glibc's expf by an ulp: docs/design.md ("How train matches PyTorch") states
// the bound the live tests hold. Pure: no printing.
#pragma once

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

}  // namespace embdemo
