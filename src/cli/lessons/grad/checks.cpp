// embdemo grad's own options, turned into its GradOptions.
#include "cli/lessons/grad/settings.hpp"

#include "cli/lessons/lesson.hpp"

#include <algorithm>
#include <limits>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "io/text_input.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/ids.hpp"
#include "core/limits.hpp"
#include "render/views/grad/view.hpp"

namespace embdemo {

using namespace option_checks;

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
std::optional<std::string> check_torch_scalars(const std::string& name, double lr, double weight_decay,
                                               const RawOptions& raw) {
    const double limit = std::numeric_limits<float>::max();
    const std::string lr_text = raw.value("--lr") ? *raw.value("--lr") : fmt::format("{}", lr);
    if (name == "sgd" && lr > limit) {
        return bad_value("--lr", lr_text,
                         fmt::format("torch.optim.SGD's step calls param.add_(d_p, alpha=-lr), and PyTorch refuses "
                                     "that alpha: {}",
                                     k_torch_overflow),
                         "at most " + torch_float_limit() + ", the largest float32");
    }
    if (name != "sgd") {
        const double beta1 = 0.9;  // torch's default, the one embdemo uses
        const double step_size = lr / (1.0 - beta1);
        if (step_size > limit) {
            return bad_value("--lr", lr_text,
                             fmt::format("torch.optim.{}'s first step calls param.addcdiv_(exp_avg, denom, "
                                         "value=-step_size) with step_size = lr / (1 - 0.9) = {}, and PyTorch "
                                         "refuses that value: {}",
                                         name == "adam" ? "Adam" : "AdamW", step_size, k_torch_overflow),
                             "lr / (1 - 0.9) at most " + torch_float_limit() + ", the largest float32");
        }
    }
    if (name != "adamw" && weight_decay != 0.0 && weight_decay > limit) {
        return bad_value("--weight-decay", *raw.value("--weight-decay"),
                         fmt::format("torch.optim.{}'s step calls {}.add(param, alpha=weight_decay), and PyTorch "
                                     "refuses that alpha: {}",
                                     name == "sgd" ? "SGD" : "Adam", name == "sgd" ? "d_p" : "grad", k_torch_overflow),
                         "at most " + torch_float_limit() + ", the largest float32");
    }
    return std::nullopt;
}

// Optimizer steps: which optimizer, its hyper-parameters, how many steps, and what they need.
std::optional<std::string> validate_optimizer(const RawOptions& raw, Options& options) {
    if (!raw.value("--optimizer")) {
        for (const char* option : {"--steps", "--lr", "--momentum", "--weight-decay"}) {
            if (raw.value(option)) return std::string(option) + " needs --optimizer (allowed: --optimizer sgd, adam or adamw)";
        }
        return std::nullopt;
    }
    const std::string& name = *raw.value("--optimizer");
    if (name != "sgd" && name != "adam" && name != "adamw") {
        return bad_value("--optimizer", name, "is not a known optimizer", "sgd, adam, adamw");
    }
    if (raw.weights || raw.init != "torch" || own_settings<GradOptions>(options).request.upstream == UpstreamSource::file) {
        return std::string("--optimizer trains nn.Embedding as PyTorch draws it: it cannot be combined with "
                           "--weights, --init index|randint or an --upstream file (allowed: --upstream randn or ones)");
    }
    if (raw.trace) {
        return std::string("--trace walks one backward pass; with --optimizer the steps are the view "
                           "(allowed: one of them)");
    }
    double lr = name == "sgd" ? 0.1 : 1e-3;
    double momentum = 0.0;
    double weight_decay = name == "adamw" ? 1e-2 : 0.0;
    if (const std::string* given = raw.value("--lr")) {
        if (auto problem = parse_real("--lr", *given, 0.0, lr)) return problem;
    }
    if (const std::string* given = raw.value("--momentum")) {
        if (name != "sgd") return std::string("--momentum is SGD's (allowed: with --optimizer sgd; Adam's betas are fixed at torch's defaults)");
        if (auto problem = parse_real("--momentum", *given, 0.0, momentum)) return problem;
    }
    if (const std::string* given = raw.value("--weight-decay")) {
        if (auto problem = parse_real("--weight-decay", *given, 0.0, weight_decay)) return problem;
    }
    if (auto problem = check_torch_scalars(name, lr, weight_decay, raw)) return problem;
    own_settings<GradOptions>(options).optimizer = name == "sgd"    ? sgd_settings(lr, momentum, weight_decay)
                             : name == "adam" ? adam_settings(lr, weight_decay)
                                              : adamw_settings(lr, weight_decay);
    if (const std::string* given = raw.value("--steps")) {
        if (auto problem = read_bounded("--steps", *given, 1, k_max_steps, own_settings<GradOptions>(options).steps)) return problem;
    }
    // Every step keeps E and its gradient (2 V x d) for the view.
    const DemoRequest& request = options.request;
    const std::uint64_t kept = 2 * request.vocab_size * request.dim * own_settings<GradOptions>(options).steps;
    if (kept > k_max_matrix_values) {
        return "--steps " + std::to_string(own_settings<GradOptions>(options).steps) + ": the run would keep " + group_thousands(kept) +
               " values (allowed: at most " + group_thousands(k_max_matrix_values) +
               " for 2 x V x d x steps; use fewer steps or a smaller --vocab or --dim)";
    }
    return std::nullopt;
}

std::optional<std::string> check_grad_exclusive(const RawOptions& raw) { return check_lookup_only(raw, "grad"); }

// ---- --format svg, html, python: the lessons whose picture is obvious ----

// The printed-numbers cap on grad's plan (grad_report_values, grad_script_values): svg, html and
// markdown summarise like the text view.
std::optional<std::string> check_grad_printed(const Options& options, const GradRequest& request) {
    if (options.format == OutputFormat::python) {
        const std::uint64_t printed = grad_script_values(request);
        if (printed <= k_max_printed_values) return std::nullopt;
        return "embdemo grad --format python: the script would embed " + group_thousands(printed) +
               " numbers (allowed: at most " + group_thousands(k_max_printed_values) +
               "; use fewer ids or a smaller --dim, or --format svg or html)";
    }
    if (!prints_every_value(options.format)) return std::nullopt;
    const std::uint64_t printed = grad_report_values(request);
    if (printed <= k_max_printed_values) return std::nullopt;
    return "embdemo grad: the machine formats would print " + group_thousands(printed) +
           " numbers (allowed: at most " + group_thousands(k_max_printed_values) +
           "; use a smaller --vocab or --dim, or the text view)";
}

std::string top_allowed(std::uint64_t most) {
    return fmt::format("K from 1 to {} (10, or the vocab when smaller)", most);
}

// grad's --sparse and --top, and what PyTorch refuses with them.
std::optional<std::string> validate_grad_partways(const RawOptions& raw, Options& options) {
    GradOptions& grad = own_settings<GradOptions>(options);
    // With --weights and no --vocab, V is 0 here: the file sets it when it is read, and
    // grad_top_for_vocab applies the bound by V then.
    const std::uint64_t vocab = options.request.vocab_size;
    grad.request.top = static_cast<std::size_t>(vocab == 0 ? 3 : std::min<std::uint64_t>(3, vocab));
    if (const std::string* given = raw.value("--top")) {
        const std::uint64_t most = vocab == 0 ? 10 : std::min<std::uint64_t>(10, vocab);
        const auto top = parse_decimal(*given);
        if (!top) return bad_value("--top", *given, top.error(), top_allowed(most));
        if (top.value() < 1 || top.value() > most) return bad_value("--top", *given, "is out of range", top_allowed(most));
        if (options.format != OutputFormat::text) {
            return bad_value("--top", *given, "picks the swaps the text view lists",
                             "--top with --format text; the machine formats hold every score");
        }
        grad.request.top = static_cast<std::size_t>(top.value());
        grad.top_given = true;
    }
    if (raw.value("--optimizer") && (raw.max_norm || raw.value("--top"))) {
        return fmt::format("{} cannot be combined with --optimizer, whose steps are plain dense ones (allowed: one "
                           "of them)", raw.max_norm ? "--max-norm" : "--top");
    }
    if (!raw.flag("--sparse")) return std::nullopt;
    if (raw.flag("--scale-grad-by-freq")) {
        return std::string("--sparse with --scale-grad-by-freq: PyTorch refuses it in the backward "
                           "(\"embedding_backward: scale_grad_by_freq not supported with sparse gradients\") "
                           "(allowed: one of them)");
    }
    if (raw.value("--optimizer")) {
        const std::string& name = *raw.value("--optimizer");
        if (name == "sgd" && raw.value("--weight-decay")) {
            return std::string("--sparse with --weight-decay: torch.optim.SGD refuses it (\"add(sparse, dense) is not "
                               "supported. Use add(dense, sparse) instead.\") (allowed: --sparse with plain SGD)");
        }
        if (name == "sgd" && raw.value("--momentum")) {
            return std::string("--sparse with --momentum: embdemo's sparse steps are plain SGD, though torch.optim.SGD "
                               "keeps a sparse momentum buffer (allowed: --sparse --optimizer sgd without --momentum)");
        }
        if (name == "adam" || name == "adamw") {
            return fmt::format("--sparse with --optimizer {}: torch.optim.{} refuses it (\"{}\") (allowed: --sparse "
                               "without --optimizer; torch.optim.SparseAdam takes sparse gradients)",
                               name, name == "adam" ? "Adam" : "AdamW",
                               name == "adam" ? "Adam does not support sparse gradients, please consider SparseAdam instead"
                                              : "AdamW does not support sparse gradients");
        }
    }
    grad.request.sparse = true;
    return std::nullopt;
}

}  // namespace

std::optional<std::string> grad_top_for_vocab(const GradOptions& grad, std::uint64_t vocab, GradRequest& request) {
    if (!grad.top_given) {
        request.top = static_cast<std::size_t>(std::min<std::uint64_t>(3, vocab));
        return std::nullopt;
    }
    if (grad.request.top <= vocab) return std::nullopt;
    const std::string text = std::to_string(grad.request.top);
    return bad_value("--top", text, "is out of range for the " + std::to_string(vocab) + " rows of the --weights file",
                     top_allowed(std::min<std::uint64_t>(10, vocab)));
}

std::optional<std::string> check_grad(const RawOptions& raw, Options& options) {
    if (auto problem = check_grad_exclusive(raw)) return problem;
    GradOptions& grad = own_settings<GradOptions>(options);
    if (const std::string* padding_idx = raw.value("--padding-idx")) {
        // V is 0 while a --weights file without --vocab is unread: run_grad checks K against
        // the file's rows once it has them.
        const std::uint64_t vocab = options.request.vocab_size == 0 ? static_cast<std::uint64_t>(INT64_MAX)
                                                                    : options.request.vocab_size;
        if (auto problem = parse_padding_idx(*padding_idx, vocab, grad.request.padding_idx)) {
            return problem;
        }
    }
    grad.request.scale_grad_by_freq = raw.flag("--scale-grad-by-freq");
    // V and d are 0 here for a --weights file without them, which its run checks once read.
    grad.request.sizes() = options.request.sizes();
    grad.request.ids = options.id_batch;
    grad.request.max_norm = options.max_norm;
    grad.request.sparse = raw.flag("--sparse");  // what PyTorch refuses with it: validate_grad_partways
    if (auto problem = check_grad_printed(options, grad.request)) return problem;
    const std::string upstream = raw.value_or("--upstream", "randn");
    if (upstream == "randn") {
        grad.request.upstream = UpstreamSource::randn;
    } else if (upstream == "ones") {
        grad.request.upstream = UpstreamSource::ones;
    } else if (upstream.empty()) {
        return bad_value("--upstream", upstream, "is empty", "randn, ones or a .npy/.csv/.tsv file");
    } else {
        grad.request.upstream = UpstreamSource::file;
        grad.upstream_file = upstream;
        options.lesson_inputs.emplace_back("--upstream", upstream);
    }
    // The seed still draws G with --upstream randn (the default), whatever fills E.
    if (raw.weights && raw.seed && grad.request.upstream != UpstreamSource::randn) return seed_with_weights();
    if (auto problem = validate_grad_partways(raw, options)) return problem;
    return validate_optimizer(raw, options);
}

}  // namespace embdemo
