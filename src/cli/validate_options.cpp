// The shared options' checks: sizes, ids, output, view and init, turning RawOptions into a
// validated Options, around the lesson's prepare step and its own checks (LessonChecks, in
// cli/lessons/). No CLI11 here.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "cli/lessons/lesson.hpp"
#include "cli/option_checks.hpp"
#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/torch/init.hpp"
#include "core/limits.hpp"
#include "core/lessons/report_matrices.hpp"

namespace embdemo {
namespace option_checks {
namespace {

// "lookup,onehot_matmul" -> those matrices, in that order; each name once.
ParseResult<MatrixSelection> parse_matrix_selection(const std::string& text) {
    const bool several = text.find(',') != std::string::npos;
    MatrixSelection selection;
    for (std::size_t start = 0, item = 1;; ++item) {
        const std::size_t comma = text.find(',', start);
        const std::string name = text.substr(start, comma == std::string::npos ? comma : comma - start);
        // Only a list needs to say which item is wrong.
        const std::string where = several ? "item " + std::to_string(item) + ' ' + quote_for_message(name) + ' ' : "";
        const auto which = find_report_matrix(name);
        if (!which) {
            return ParseResult<MatrixSelection>::fail(
                where + (name.empty() ? "is empty" : "is not a matrix name"));
        }
        if (std::find(selection.begin(), selection.end(), *which) != selection.end()) {
            return ParseResult<MatrixSelection>::fail(where + "is named twice");
        }
        selection.push_back(*which);
        if (comma == std::string::npos) return ParseResult<MatrixSelection>::ok(std::move(selection));
        start = comma + 1;
    }
}

// The options about files and formats that only make sense together.
std::optional<std::string> check_combinations(const RawOptions& raw, const Options& options) {
    const struct {
        const char* option;
        const std::optional<std::string>& path;
        const char* allowed;
    } paths[] = {{"--weights", raw.weights, "the name of a .npy, .csv or .tsv file"},
                 {"--save-weights", raw.save_weights, "a file name ending in .npy"},
                 {"--export-projector", raw.export_projector, "a directory name"},
                 {"--labels", raw.labels, "a file name"}};
    for (const auto& path : paths) {
        if (auto problem = check_path(path.option, path.path, path.allowed)) return problem;
    }
    if (raw.weights && raw.seed && !raw.lesson->caps.seed_draws_more) return seed_with_weights();
    const std::string& save = options.save_weights;
    if (!save.empty() && (save.size() < 5 || save.compare(save.size() - 4, 4, ".npy") != 0)) {
        return bad_value("--save-weights", save, "does not end in .npy", "a file name ending in .npy");
    }
    if (raw.labels && !raw.export_projector) {
        return std::string("--labels has no effect without --export-projector (allowed: both, or neither)");
    }
    const bool exact_format = options.format == OutputFormat::json || options.format == OutputFormat::csv ||
                              options.format == OutputFormat::tsv || options.format == OutputFormat::python;
    if (raw.precision_given && exact_format) {
        // Rounded numbers would break what these formats promise: every bit read back.
        return bad_value("--precision", raw.precision,
                         "has no effect with --format " + raw.format +
                             ", which prints every float32 exactly (shortest round-trip form)",
                         "--precision with --format text, markdown, svg or html");
    }
    if (raw.show && (options.format == OutputFormat::text || is_picture_format(options.format))) {
        return bad_value("--show", *raw.show, "needs --format json, csv, tsv or markdown",
                         "--show with one of those formats; the text view shows every matrix");
    }
    return std::nullopt;
}

std::optional<std::string> validate_init(const RawOptions& raw, DemoRequest& request) {
    const std::string& init = raw.init;
    if (raw.weights) {  // E comes from the file; the origin is already set
        if (init == "torch") return std::nullopt;
        return bad_value("--init", init, "cannot be combined with --weights, which already fills E",
                         "one of them");
    }
    const std::optional<WeightOrigin::Kind> kind = find_named(k_init_kinds, init);
    if (!kind) return bad_value("--init", init, "is not a known kind", names_of(k_init_kinds));
    request.origin.kind = *kind;
    if (*kind == WeightOrigin::Kind::index_pattern) {
        const std::uint64_t largest = index_pattern_max(request.vocab_size, request.dim);
        // float32 holds every whole number up to 2^24 exactly; past that the pattern would lie.
        if (largest > (std::uint64_t{1} << 24)) {
            return "--init index: the largest value would be " + group_thousands(largest) +
                   ", which float32 cannot hold exactly (allowed: tables whose values stay at "
                   "or below 16,777,216; use a smaller --vocab or --dim)";
        }
        request.origin.detail = index_pattern_formula(request.dim);
    }
    return std::nullopt;
}

std::optional<std::string> validate_view(const RawOptions& raw, Options& options) {
    if (raw.trace && raw.walkthrough) {
        return std::string("--trace and --walkthrough are two different views (allowed: one of them)");
    }
    const char* view = raw.trace ? "--trace" : raw.walkthrough ? "--walkthrough" : nullptr;
    if (view && options.format != OutputFormat::text) {
        return std::string(view) + " is a text view (allowed: --format text, the default)";
    }
    // The other lessons refuse --trace-positions and --pause by name (check_lookup_only), with or
    // without --trace: "needs --trace" would send the user to a second refusal.
    const bool lookup = raw.lesson->caps.demo_views;
    if (lookup && raw.trace_positions && !raw.trace) {
        return std::string("--trace-positions needs --trace");
    }
    if (lookup && raw.pause && !view) return std::string("--pause needs --trace or --walkthrough");
    options.view = raw.trace ? View::trace : raw.walkthrough ? View::walkthrough : View::plain;
    options.pause = raw.pause;
    options.timing = raw.timing;
    if (lookup && raw.trace_positions) {
        const std::size_t count = options.request.ids.size();
        const auto positions = parse_id_list(*raw.trace_positions);
        const std::string allowed =
            "comma-separated positions in --ids, from 0 to " + std::to_string(count - 1);
        if (!positions) {
            return bad_value("--trace-positions", *raw.trace_positions, positions.error(), allowed);
        }
        if (positions.value().size() > k_max_traced_positions) {
            return bad_value("--trace-positions", *raw.trace_positions,
                             "names " + std::to_string(positions.value().size()) + " positions",
                             "at most " + std::to_string(k_max_traced_positions) +
                                 "; each one is a screenful");
        }
        for (const std::uint64_t position : positions.value()) {
            if (position >= count) {
                return bad_value("--trace-positions", *raw.trace_positions,
                                 "position " + std::to_string(position) + " is past the last id",
                                 allowed);
            }
            const auto traced = static_cast<std::size_t>(position);
            if (std::find(options.trace_positions.begin(), options.trace_positions.end(), traced) !=
                options.trace_positions.end()) {
                return bad_value("--trace-positions", *raw.trace_positions,
                                 "position " + std::to_string(position) + " is named twice",
                                 "each position once");
            }
            options.trace_positions.push_back(traced);
        }
    }
    return std::nullopt;
}

// The prepared ids, V, d and the seed.
std::optional<std::string> validate_sizes(const RawOptions& raw, ParseResult<IdBatch> ids, Options& options) {
    DemoRequest& request = options.request;
    if (raw.weights) {
        request.origin.kind = WeightOrigin::Kind::file;
        request.origin.detail = *raw.weights;
    }
    options.id_batch = ids.value();
    request.shape = ids.value().shape();
    request.source = ids.value().source;
    request.ids = std::move(ids.value().values);

    std::uint64_t largest_id = 0;
    for (const std::uint64_t id : request.ids) largest_id = std::max(largest_id, id);
    if (raw.vocab) {
        if (auto problem = read_bounded("--vocab", *raw.vocab, 1, UINT64_MAX, request.vocab_size)) return problem;
        for (std::size_t i = 0; i < request.ids.size(); ++i) {
            if (request.ids[i] >= request.vocab_size) {
                const std::string token =
                    request.source.from_text() ? " \"" + request.source.token_of(request.ids[i]) + "\"" : "";
                return std::string(ids_option(raw)) + ": ids[" + torch_index(request.shape, i) +
                       "] = " + std::to_string(request.ids[i]) + token + " is out of range for --vocab " +
                       std::to_string(request.vocab_size) + " (allowed: ids 0 to " +
                       std::to_string(request.vocab_size - 1) + ")";
            }
        }
    } else if (request.source.from_text() && !raw.weights) {
        request.vocab_size = request.source.vocab_size;  // the table the tokenizer's ids index
        request.vocab_source = DemoRequest::VocabSource::tokenizer;
    } else if (!raw.weights) {
        if (largest_id == UINT64_MAX) {
            return std::string(ids_option(raw)) + ": id " + std::to_string(largest_id) +
                   " leaves no room for a vocab of largest id + 1 (allowed: ids below 2^64-1)";
        }
        request.vocab_size = largest_id + 1;
        request.vocab_inferred = true;
        request.vocab_source = DemoRequest::VocabSource::largest_id;
    }
    if (raw.weights) request.vocab_source = DemoRequest::VocabSource::weights_file;

    if (raw.dim) {
        if (auto problem = read_bounded("--dim", *raw.dim, 1, UINT64_MAX, request.dim)) return problem;
    }

    if (raw.seed) {
        if (auto problem = read_bounded("--seed", *raw.seed, 0, UINT64_MAX, request.seed)) return problem;
    }
    return std::nullopt;
}

// How and where the run is shown: format, matrices, files, memory budget, precision, colour.
std::optional<std::string> validate_output(const RawOptions& raw, Options& options) {
    const auto format = find_named(k_formats, raw.format);
    if (!format) return bad_value("--format", raw.format, "is not a known format", names_of(k_formats));
    if (auto problem = check_lesson_format(raw, *format)) return *problem;
    options.notebook = *format == OutputFormat::ipynb;
    options.format = options.notebook ? OutputFormat::python : *format;
    if (raw.show) {
        auto show = parse_matrix_selection(*raw.show);
        if (!show) {
            return bad_value("--show", *raw.show, show.error(),
                             "comma-separated names from weight, onehot, lookup, onehot_matmul, linear_output");
        }
        options.show = std::move(show.value());
    }
    options.save_weights = raw.save_weights.value_or("");
    options.export_projector = raw.export_projector.value_or("");
    options.labels = raw.labels.value_or("");
    options.text_file = raw.text_file.value_or("");
    if (auto problem = check_combinations(raw, options)) return *problem;
    if (auto problem = validate_max_norm(raw, options)) return *problem;

    if (raw.max_memory) {
        const auto budget = parse_memory_size(*raw.max_memory);
        if (!budget) {
            return bad_value("--max-memory", *raw.max_memory, budget.error(),
                             "a size of at least 1M: bytes, or a number with K, M, G or T, e.g. 512M, 4G");
        }
        options.max_memory = budget.value();
    }

    if (auto problem = read_bounded("--precision", raw.precision, 0, k_max_precision, options.precision)) {
        return problem;
    }

    const auto color = find_named(k_color_modes, raw.color);
    if (!color) return bad_value("--color", raw.color, "is not a known mode", names_of(k_color_modes));
    options.color = *color;
    const auto palette = find_named(k_palettes, raw.palette);
    if (!palette) return bad_value("--palette", raw.palette, "is not a known palette", names_of(k_palettes));
    options.palette = *palette;
    return std::nullopt;
}

}  // namespace

// Turns the raw strings into a validated Options, or the first problem found: the shared
// options, then the lesson's own (its LessonChecks).
CommandLine validate(const RawOptions& raw) {
    const LessonSpec& lesson = *raw.lesson;
    if (lesson.checks.whole) return lesson.checks.whole(raw);
    CommandLine result;
    Options& options = result.options;
    options.lesson = &lesson;
    DemoRequest& request = options.request;

    options.size_options = size_options(raw);
    // The phases, as ninja's ReadFlags before real_main's loads: first what the words alone say
    // (formats, modes, ranges), with no file opened, so that a mistyped --format is answered at
    // once even when --text-file names a FIFO nobody writes or a huge book; then prepare: the
    // lesson's inputs, read, tokenised and cut into the loader's windows; then the sizes.
    if (auto problem = validate_output(raw, options)) return fail(*problem);
    if (const auto tokenizer = text_tokenizer(raw); !tokenizer) return fail(tokenizer.error());
    auto ids = lesson.checks.prepare ? lesson.checks.prepare(raw) : prepare_ids(raw);
    if (!ids) return fail(ids.error());
    if (auto problem = validate_sizes(raw, std::move(ids), options)) return fail(*problem);

    // With --weights the sizes are checked against the file's header, before its data is read.
    if (lesson.caps.one_hot && !raw.weights) {
        if (auto too_big = check_demo_sizes(request.ids.size(), request.vocab_size, request.dim, *lesson.caps.one_hot)) {
            return fail(options.size_options + ": " + *too_big);
        }
    }
    if (auto problem = validate_init(raw, request)) return fail(*problem);
    if (auto problem = validate_view(raw, options)) return fail(*problem);
    if (lesson.checks.own) {
        if (auto problem = lesson.checks.own(raw, options)) return fail(*problem);
    }
    result.run = true;
    return result;
}

}  // namespace option_checks

std::optional<std::string> check_output_size(const Options& options, const DemoRequest& request) {
    if (options.format == OutputFormat::text || options.format == OutputFormat::markdown ||
        options.format == OutputFormat::svg || options.format == OutputFormat::html) {
        return std::nullopt;  // summarised views
    }
    if (options.format == OutputFormat::python) {
        // The script embeds the lookup, and the product when the two differ.
        const std::uint64_t printed = 2 * request.ids.size() * request.dim;
        if (printed <= k_max_printed_values) return std::nullopt;
        return "--format python: the script could embed " + group_thousands(printed) + " numbers (allowed: at most " +
               group_thousands(k_max_printed_values) + "; use fewer ids or a smaller --dim, or --format svg or html)";
    }
    if (options.max_norm) {
        // embdemo-max-norm/1: E as drawn and after, and three ids x dim results.
        const std::uint64_t vd = request.vocab_size * request.dim;  // capped by check_demo_sizes
        const std::uint64_t printed = 2 * vd + 3 * request.ids.size() * request.dim;
        if (printed <= k_max_printed_values) return std::nullopt;
        return fmt::format("--max-norm: the machine formats would print {} numbers (allowed: at most {}; use a "
                           "smaller --vocab or --dim, or the text view)",
                           group_thousands(printed), group_thousands(k_max_printed_values));
    }
    auto too_big = check_printed_values(options.show, request.ids.size(), request.vocab_size,
                                        request.dim);
    if (!too_big) return std::nullopt;
    for (const auto& [name, format] : option_checks::k_formats) {
        if (format == options.format) return "--format " + std::string(name) + ": " + *too_big;
    }
    return too_big;
}

}  // namespace embdemo
