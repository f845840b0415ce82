// embdemo grad's options, and --max-norm/--norm-type (lookup and grad), turned into Options.
#include "cli/option_checks.hpp"

#include "cli/lessons/lesson.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "io/text_input.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/ids.hpp"
#include "core/limits.hpp"

namespace embdemo::option_checks {

namespace {

// Optimizer steps: which optimizer, its hyper-parameters, how many steps, and what they need.
std::optional<std::string> validate_optimizer(const RawOptions& raw, Options& options) {
    if (!raw.optimizer) {
        for (const auto& [option, given] : {std::pair{"--steps", raw.steps.has_value()}, {"--lr", raw.lr.has_value()},
                                            {"--momentum", raw.momentum.has_value()},
                                            {"--weight-decay", raw.weight_decay.has_value()}}) {
            if (given) return std::string(option) + " needs --optimizer (allowed: --optimizer sgd, adam or adamw)";
        }
        return std::nullopt;
    }
    const std::string& name = *raw.optimizer;
    if (name != "sgd" && name != "adam" && name != "adamw") {
        return bad_value("--optimizer", name, "is not a known optimizer", "sgd, adam, adamw");
    }
    if (raw.weights || raw.init != "torch" || options.grad.upstream == UpstreamSource::file) {
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
    if (raw.lr) {
        if (auto problem = parse_real("--lr", *raw.lr, 0.0, lr)) return problem;
    }
    if (raw.momentum) {
        if (name != "sgd") return std::string("--momentum is SGD's (allowed: with --optimizer sgd; Adam's betas are fixed at torch's defaults)");
        if (auto problem = parse_real("--momentum", *raw.momentum, 0.0, momentum)) return problem;
    }
    if (raw.weight_decay) {
        if (auto problem = parse_real("--weight-decay", *raw.weight_decay, 0.0, weight_decay)) return problem;
    }
    options.grad.optimizer = name == "sgd"    ? sgd_settings(lr, momentum, weight_decay)
                             : name == "adam" ? adam_settings(lr, weight_decay)
                                              : adamw_settings(lr, weight_decay);
    if (raw.steps) {
        if (auto problem = read_bounded("--steps", *raw.steps, 1, k_max_steps, options.grad.steps)) return problem;
    }
    // Every step keeps E and its gradient (2 V x d) for the view.
    const DemoRequest& request = options.request;
    const std::uint64_t kept = 2 * request.vocab_size * request.dim * options.grad.steps;
    if (kept > k_max_matrix_values) {
        return "--steps " + std::to_string(options.grad.steps) + ": the run would keep " + group_thousands(kept) +
               " values (allowed: at most " + group_thousands(k_max_matrix_values) +
               " for 2 x V x d x steps; use fewer steps or a smaller --vocab or --dim)";
    }
    return std::nullopt;
}

std::optional<std::string> check_grad_exclusive(const RawOptions& raw) { return check_lookup_only(raw, "grad"); }

// ---- --format svg, html, python: the lessons whose picture is obvious ----

// svg and html summarise like the text view; python embeds the used rows of both gradients.
std::optional<std::string> check_grad_picture_size(const Options& options) {
    if (options.format != OutputFormat::python) return std::nullopt;
    const std::uint64_t printed = 2 * options.request.ids.size() * options.request.dim;
    if (printed <= k_max_printed_values) return std::nullopt;
    return "embdemo grad --format python: the script would embed " + group_thousands(printed) +
           " numbers (allowed: at most " + group_thousands(k_max_printed_values) +
           "; use fewer ids or a smaller --dim, or --format svg or html)";
}

// M: a positive finite number; P: a positive number or inf.
std::optional<std::string> parse_max_norm(const RawOptions& raw, MaxNorm& max_norm) {
    if (auto problem = parse_positive("--max-norm", *raw.max_norm, "a positive finite number, e.g. 1.0",
                                      max_norm.max_norm)) {
        return problem;
    }
    // Python's float() reads "+inf" as inf too; -inf and nan are refused as what they are, not
    // as "not finite", since inf itself is allowed.
    const char* allowed = "a positive number such as 1, 2 (the default) or 0.5, or inf";
    if (!raw.norm_type || *raw.norm_type == "inf" || *raw.norm_type == "+inf") {
        max_norm.norm_type = raw.norm_type ? HUGE_VAL : 2.0;
        return std::nullopt;
    }
    if (*raw.norm_type == "-inf") return bad_value("--norm-type", *raw.norm_type, "is not positive", allowed);
    if (*raw.norm_type == "nan") return bad_value("--norm-type", *raw.norm_type, "is not a number", allowed);
    return parse_positive("--norm-type", *raw.norm_type, allowed, max_norm.norm_type);
}

// The lookup lesson's options that have no --max-norm view.
std::optional<std::string> check_max_norm_view(const RawOptions& raw) {
    const std::pair<const char*, bool> not_with[] = {
        {"--trace", raw.trace}, {"--walkthrough", raw.walkthrough}, {"--show", raw.show.has_value()},
        {"--save-weights", raw.save_weights.has_value()}, {"--export-projector", raw.export_projector.has_value()}};
    for (const auto& [option, given] : not_with) {
        if (given) {
            return fmt::format("{} cannot be combined with --max-norm, which has a view of its own (allowed: one "
                               "of them)", option);
        }
    }
    return std::nullopt;
}

std::string top_allowed(std::uint64_t most) {
    return fmt::format("K from 1 to {} (10, or the vocab when smaller)", most);
}

// grad's --sparse and --top, and what PyTorch refuses with them.
std::optional<std::string> validate_grad_partways(const RawOptions& raw, Options& options) {
    GradOptions& grad = options.grad;
    // With --weights and no --vocab, V is 0 here: the file sets it when it is read, and
    // grad_top_for_vocab applies the bound by V then.
    const std::uint64_t vocab = options.request.vocab_size;
    grad.top = static_cast<std::size_t>(vocab == 0 ? 3 : std::min<std::uint64_t>(3, vocab));
    if (raw.top) {
        const std::uint64_t most = vocab == 0 ? 10 : std::min<std::uint64_t>(10, vocab);
        const auto top = parse_decimal(*raw.top);
        if (!top) return bad_value("--top", *raw.top, top.error(), top_allowed(most));
        if (top.value() < 1 || top.value() > most) return bad_value("--top", *raw.top, "is out of range", top_allowed(most));
        if (options.format != OutputFormat::text) {
            return bad_value("--top", *raw.top, "picks the swaps the text view lists",
                             "--top with --format text; the machine formats hold every score");
        }
        grad.top = static_cast<std::size_t>(top.value());
        grad.top_given = true;
    }
    if (raw.optimizer && (raw.max_norm || raw.top)) {
        return fmt::format("{} cannot be combined with --optimizer, whose steps are plain dense ones (allowed: one "
                           "of them)", raw.max_norm ? "--max-norm" : "--top");
    }
    if (!raw.sparse) return std::nullopt;
    if (raw.scale_grad_by_freq) {
        return std::string("--sparse with --scale-grad-by-freq: PyTorch refuses it in the backward "
                           "(\"embedding_backward: scale_grad_by_freq not supported with sparse gradients\") "
                           "(allowed: one of them)");
    }
    if (raw.optimizer) {
        const std::string& name = *raw.optimizer;
        if (name == "sgd" && raw.weight_decay) {
            return std::string("--sparse with --weight-decay: torch.optim.SGD refuses it (\"add(sparse, dense) is not "
                               "supported. Use add(dense, sparse) instead.\") (allowed: --sparse with plain SGD)");
        }
        if (name == "sgd" && raw.momentum) {
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
    grad.sparse = true;
    return std::nullopt;
}

}  // namespace

std::optional<std::string> validate_max_norm(const RawOptions& raw, Options& options) {
    if (!raw.max_norm) {
        if (raw.norm_type) return std::string("--norm-type has no effect without --max-norm (allowed: both, or neither)");
        return std::nullopt;
    }
    if (is_table_lesson(raw)) {
        const char* table_lesson = lesson_spec(raw.lesson).name;
        return fmt::format("--max-norm belongs to the lookup and grad lessons, not to {} (allowed with {}: the "
                           "options of embdemo {} --help)", table_lesson, table_lesson, table_lesson);
    }
    MaxNorm max_norm;
    if (auto problem = parse_max_norm(raw, max_norm)) return problem;
    if (raw.lesson != Lesson::grad) {
        if (auto problem = check_max_norm_view(raw)) return problem;
    }
    options.max_norm = max_norm;
    return std::nullopt;
}

std::optional<std::string> grad_top_for_vocab(GradOptions& grad, std::uint64_t vocab) {
    if (!grad.top_given) {
        grad.top = static_cast<std::size_t>(std::min<std::uint64_t>(3, vocab));
        return std::nullopt;
    }
    if (grad.top <= vocab) return std::nullopt;
    const std::string text = std::to_string(grad.top);
    return bad_value("--top", text, "is out of range for the " + std::to_string(vocab) + " rows of the --weights file",
                     top_allowed(std::min<std::uint64_t>(10, vocab)));
}

std::optional<std::string> validate_grad(const RawOptions& raw, Options& options) {
    if (auto problem = check_grad_exclusive(raw)) return problem;
    options.lesson = Lesson::grad;
    GradOptions& grad = options.grad;
    if (raw.padding_idx) {
        // V is 0 while a --weights file without --vocab is unread: run_grad checks K against
        // the file's rows once it has them.
        const std::uint64_t vocab = options.request.vocab_size == 0 ? static_cast<std::uint64_t>(INT64_MAX)
                                                                    : options.request.vocab_size;
        if (auto problem = parse_padding_idx(*raw.padding_idx, vocab, grad.padding_idx)) {
            return problem;
        }
    }
    grad.scale_grad_by_freq = raw.scale_grad_by_freq;
    if (auto problem = check_grad_picture_size(options)) return problem;
    if (options.format != OutputFormat::text && options.format != OutputFormat::markdown &&
        !is_picture_format(options.format)) {
        // E, the two gradients (V x d each) and G (n x d), every value printed.
        const std::uint64_t vd = options.request.vocab_size * options.request.dim;  // capped by check_demo_sizes
        const std::uint64_t n = options.request.ids.size();
        // Issue #15 adds dL/dX (n x V), E after max_norm (V x d), the sparse values (2 x at most n x d).
        const std::uint64_t printed = 3 * vd + n * options.request.dim + n * options.request.vocab_size +
                                      (raw.max_norm ? vd : 0) + (raw.sparse ? 2 * n * options.request.dim : 0);
        if (printed > k_max_printed_values) {
            return "embdemo grad: the machine formats would print " + group_thousands(printed) +
                   " numbers (allowed: at most " + group_thousands(k_max_printed_values) +
                   "; use a smaller --vocab or --dim, or the text view)";
        }
    }
    const std::string upstream = raw.upstream.value_or("randn");
    if (upstream == "randn") {
        grad.upstream = UpstreamSource::randn;
    } else if (upstream == "ones") {
        grad.upstream = UpstreamSource::ones;
    } else if (upstream.empty()) {
        return bad_value("--upstream", upstream, "is empty", "randn, ones or a .npy/.csv/.tsv file");
    } else {
        grad.upstream = UpstreamSource::file;
        grad.upstream_file = upstream;
    }
    if (auto problem = validate_grad_partways(raw, options)) return problem;
    return validate_optimizer(raw, options);
}

}  // namespace embdemo::option_checks
