// --walkthrough: a narrated classroom run that follows the notebook of "Build a Large Language
// Model From Scratch" step by step, with the PyTorch line of each step and the real numbers of
// the current arguments. Plain sentences, no colour needed to follow it.
#pragma once

#include <string>
#include <vector>

#include "core/report.hpp"
#include "render/text.hpp"

namespace embdemo {

// One string per step; the caller may pause between them. `linear_init` is the weight
// nn.Linear(V, d, bias=False) starts with after torch.manual_seed(seed) (d x V).
std::vector<std::string> render_walkthrough(const DemoReport& report, const Matrix& linear_init,
                                            const TextOptions& options);

}  // namespace embdemo
