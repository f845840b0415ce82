// embdemo grad's own options, turned into its GradOptions.
#include "cli/lessons/grad/settings.hpp"

#include "cli/lessons/lesson.hpp"
#include "cli/optimizer_options.hpp"

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

// Optimizer steps: which optimizer, its hyper-parameters, how many steps, and what they need.
std::optional<std::string> validate_optimizer(const RawOptions& raw, Options& options) {
    if (!raw.value("--optimizer")) {
        for (const char* option : {"--steps", "--lr", "--momentum", "--weight-decay"}) {
            if (raw.value(option)) return std::string(option) + " needs --optimizer (allowed: --optimizer sgd, adam or adamw)";
        }
        return std::nullopt;
    }
    OptimizerSettings settings;
    if (auto problem = read_optimizer(raw, OptimizerKind::sgd, 0.1, settings)) return problem;
    if (raw.weights || raw.init != "torch" || own_settings<GradOptions>(options).request.upstream == UpstreamSource::file) {
        return std::string("--optimizer trains nn.Embedding as PyTorch draws it: it cannot be combined with "
                           "--weights, --init index|randint or an --upstream file (allowed: --upstream randn or ones)");
    }
    if (raw.trace) {
        return std::string("--trace walks one backward pass; with --optimizer the steps are the view "
                           "(allowed: one of them)");
    }
    own_settings<GradOptions>(options).optimizer = settings;
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
    if (const std::optional<UpstreamSource> named = find_named(k_upstream_sources, upstream)) {
        grad.request.upstream = *named;
    } else if (upstream.empty()) {
        return bad_value("--upstream", upstream, "is empty", names_of(k_upstream_sources) + " or a .npy/.csv/.tsv file");
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
