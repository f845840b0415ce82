// --optimizer, --lr, --momentum and --weight-decay, read once for every lesson that takes
// torch.optim steps (grad, train), so that what PyTorch refuses is refused with one message.
#pragma once

#include <optional>
#include <string>

#include "cli/option_checks.hpp"
#include "core/kernels/optim.hpp"

namespace embdemo::option_checks {

// The optimizer named by --optimizer (or `fallback` when it is not given) with torch's defaults,
// except SGD's lr, which torch leaves to the caller: `sgd_lr`. A finite lr >= 0 whose first step
// stays within float32, as torch.optim hands it to a float32 op as a Scalar.
std::optional<std::string> read_optimizer(const RawOptions& raw, OptimizerKind fallback, double sgd_lr,
                                          OptimizerSettings& settings);

}  // namespace embdemo::option_checks
