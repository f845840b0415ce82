#include "cli/optimizer_options.hpp"

#include <limits>

#include <fmt/format.h>

namespace embdemo::option_checks {

namespace {

// PyTorch's message when a Python float passed as a float32 op's Scalar (alpha=, value=) is past
// float32's range: c10 refuses a double above FLT_MAX (or below -FLT_MAX) before the op runs.
constexpr const char* k_torch_overflow = "value cannot be converted to type float without overflow";

std::string torch_float_limit() { return fmt::format("{}", static_cast<double>(std::numeric_limits<float>::max())); }

// The hyper-parameters torch.optim (1.13, the single-tensor step) hands a float32 op as a Scalar,
// refused as PyTorch refuses them at the first step: SGD's param.add_(d_p, alpha=-lr) and
// d_p.add(param, alpha=weight_decay); Adam's and AdamW's param.addcdiv_(..., value=-step_size)
// with step_size = lr / (1 - beta1 ** 1), the largest of any step, and Adam's
// grad.add(param, alpha=weight_decay). AdamW's param.mul_(1 - lr * weight_decay) and SGD's
// buf.mul_(momentum) take a wrapped number, which PyTorch does not check.
std::optional<std::string> check_torch_scalars(const OptimizerSettings& settings, const RawOptions& raw) {
    const double limit = std::numeric_limits<float>::max();
    const char* name = name_of(k_optimizer_classes, settings.kind);
    const std::string lr_text = raw.value("--lr") ? *raw.value("--lr") : fmt::format("{}", settings.lr);
    if (settings.kind == OptimizerKind::sgd && settings.lr > limit) {
        return bad_value("--lr", lr_text,
                         fmt::format("torch.optim.SGD's step calls param.add_(d_p, alpha=-lr), and PyTorch refuses "
                                     "that alpha: {}",
                                     k_torch_overflow),
                         "at most " + torch_float_limit() + ", the largest float32");
    }
    if (settings.kind != OptimizerKind::sgd) {
        const double step_size = settings.lr / (1.0 - settings.beta1);
        if (step_size > limit) {
            return bad_value("--lr", lr_text,
                             fmt::format("torch.optim.{}'s first step calls param.addcdiv_(exp_avg, denom, "
                                         "value=-step_size) with step_size = lr / (1 - 0.9) = {}, and PyTorch "
                                         "refuses that value: {}",
                                         name, step_size, k_torch_overflow),
                             "lr / (1 - 0.9) at most " + torch_float_limit() + ", the largest float32");
        }
    }
    if (settings.kind != OptimizerKind::adamw && settings.weight_decay > limit) {
        return bad_value("--weight-decay", *raw.value("--weight-decay"),
                         fmt::format("torch.optim.{}'s step calls {}.add(param, alpha=weight_decay), and PyTorch "
                                     "refuses that alpha: {}",
                                     name, settings.kind == OptimizerKind::sgd ? "d_p" : "grad", k_torch_overflow),
                         "at most " + torch_float_limit() + ", the largest float32");
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> read_optimizer(const RawOptions& raw, OptimizerKind fallback, double sgd_lr,
                                          OptimizerSettings& settings) {
    OptimizerKind kind = fallback;
    if (const std::string* given = raw.value("--optimizer")) {
        const std::optional<OptimizerKind> named = find_named(k_optimizers, *given);
        if (!named) return bad_value("--optimizer", *given, "is not a known optimizer", names_of(k_optimizers));
        kind = *named;
    }
    OptimizerSettings read = kind == OptimizerKind::sgd ? sgd_settings(sgd_lr)
                             : kind == OptimizerKind::adam ? adam_settings()
                                                           : adamw_settings();
    if (const std::string* given = raw.value("--lr")) {
        if (auto problem = parse_real("--lr", *given, 0.0, read.lr)) return problem;
    }
    if (const std::string* given = raw.value("--momentum")) {
        if (kind != OptimizerKind::sgd) {
            return std::string("--momentum is SGD's (allowed: with --optimizer sgd; Adam's betas are fixed at torch's defaults)");
        }
        if (auto problem = parse_real("--momentum", *given, 0.0, read.momentum)) return problem;
    }
    if (const std::string* given = raw.value("--weight-decay")) {
        if (auto problem = parse_real("--weight-decay", *given, 0.0, read.weight_decay)) return problem;
    }
    if (auto problem = check_torch_scalars(read, raw)) return problem;
    settings = read;
    return std::nullopt;
}

}  // namespace embdemo::option_checks
