#include "cli/options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/exit_codes.hpp"
#include "cli/text_input.hpp"
#include "core/escape.hpp"
#include "core/gpt2_tokenizer.hpp"
#include "core/ids.hpp"
#include "core/init.hpp"
#include "core/limits.hpp"
#include "core/report_matrices.hpp"

namespace embdemo {
namespace {

constexpr const char* k_description =
    "embdemo shows that an embedding layer is a linear layer applied to one-hot\n"
    "vectors. It builds E exactly as torch.manual_seed(SEED) followed by\n"
    "torch.nn.Embedding(V, D) does, prints the lookup E[ids] next to the one-hot\n"
    "product one_hot(ids) @ E, and checks that they are identical bit for bit.\n";

constexpr const char* k_footer = R"(Examples:
  embdemo --ids 2,3,1 --dim 5                 the notebook's example (seed 123)
  embdemo --ids 2,3,1 --dim 5 --format json   the same numbers as JSON
  embdemo --ids 2,3,1 --dim 5 --trace         one id at a time, step by step
  embdemo --ids 2,3,1 --dim 5 --walkthrough   the notebook as a narrated lesson
  embdemo --ids 2,3,1 --dim 3 --init index    numbers to check by hand
  embdemo --ids 2,3,1 --dim 5 --format csv --show lookup   one matrix as CSV
  embdemo --ids 464,3290 --weights wte.npy    a real model's table (numpy.save)
  embdemo --text "Your journey starts with one step" --dim 4
                                              GPT-2's token ids of a sentence
  embdemo --ids 2,3,1 --dim 5 --format svg > figure.svg    the notebook's figure
  embdemo --ids 2,3,1 --dim 5 --format html > lesson.html  the lesson as a page
  embdemo --ids 2,3,1 --dim 5 --format python > check.py   the run in PyTorch
  embdemo --ids 2,3,1,3 --dim 5 --max-norm 1  max_norm rescales E in the lookup

Matrices for --show (one, or several separated by commas): weight, onehot,
lookup, onehot_matmul, linear_output.
Weight files: a .npy file (recognised by its content; float32 or float64, 2-D,
C order) or a .csv/.tsv file (by its name; one row of E per line, no header).

Exit status:
  0  the lookup and the one-hot product are identical
  1  failure while writing the output or a file (e.g. a full disk), or an
     internal error
  2  bad command line or input, including an unreadable or malformed file
     (one line on stderr, nothing on stdout)
  3  the two results differ (possible with weights from a file: -0.0, inf, nan)
     or, with --max-norm, the lookup read rows that max_norm had rescaled

Colour only on a terminal; NO_COLOR, TERM=dumb and --color are respected.
--palette auto picks light-background colours when COLORFGBG says so.)";

constexpr std::uint64_t k_max_precision = 9;
constexpr std::size_t k_max_traced_positions = 64;
constexpr std::uint64_t k_max_steps = 100;  // each step is a screenful

// 0.1, 1e-08: the shortest text of a double, as messages show bounds.
std::string fmt_real(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}  // float32 never needs more digits than that

struct RawOptions {
    std::optional<std::string> ids;
    std::optional<std::string> text;       // --text: GPT-2 tokens instead of --ids
    std::optional<std::string> text_file;  // --text-file
    std::optional<std::string> vocab;
    std::optional<std::string> dim;
    std::optional<std::string> seed;
    std::string format = "text";
    std::optional<std::string> show;
    std::optional<std::string> weights;
    std::optional<std::string> save_weights;
    std::optional<std::string> export_projector;
    std::optional<std::string> labels;
    std::optional<std::string> max_memory;
    std::string precision = "4";
    bool precision_given = false;  // the default is not a request
    std::string color = "auto";
    std::string palette = "auto";
    std::string init = "torch";
    bool trace = false;
    std::optional<std::string> trace_positions;
    bool walkthrough = false;
    bool pause = false;
    // embdemo grad
    bool grad = false;
    std::optional<std::string> padding_idx;
    bool scale_grad_by_freq = false;
    std::optional<std::string> upstream;
    std::optional<std::string> optimizer;
    std::optional<std::string> steps;
    std::optional<std::string> lr;
    std::optional<std::string> momentum;
    std::optional<std::string> weight_decay;
    // embdemo cost
    bool cost = false;
    std::optional<std::string> model;
    std::optional<std::string> tokens;
    std::vector<std::string> shared_given;  // the main command's options on the command line
    // embdemo tokens
    bool tokens_lesson = false;
    std::optional<std::string> piece;
    // embdemo positions, tied, factor, bag: the table lessons
    bool positions = false;
    std::optional<std::string> context;
    std::optional<std::string> encoding;  // positions: learned, sinusoidal or rope
    std::optional<std::string> stride;  // positions with text: the data loader
    std::optional<std::string> batch;
    bool tied = false;
    std::optional<std::string> top;
    std::optional<std::string> hidden;
    bool factor = false;
    std::optional<std::string> rank;
    bool bag = false;
    std::optional<std::string> bags;
    std::optional<std::string> mode;
    std::optional<std::string> per_sample_weights;
    // Where the two forms part ways: --max-norm/--norm-type (lookup, grad), grad's --sparse and --top
    std::optional<std::string> max_norm;
    std::optional<std::string> norm_type;
    bool sparse = false;
};

// A lesson that reads --ids as B x T rows and draws its tables itself.
bool is_table_lesson(const RawOptions& raw) { return raw.positions || raw.tied || raw.factor || raw.bag; }

CommandLine fail(std::string message) {
    CommandLine result;
    result.exit_code = k_exit_usage;
    result.error = std::move(message);
    return result;
}

// "--dim \"-5\": has a sign (allowed: ...)"
std::string bad_value(const char* option, const std::string& text, const std::string& problem,
                      const std::string& allowed) {
    return std::string(option) + ' ' + quote_for_message(text) + ": " + problem + " (allowed: " +
           allowed + ')';
}

ParseResult<std::uint64_t> parse_bounded(const char* option, const std::string& text,
                                         std::uint64_t min, std::uint64_t max) {
    const std::string allowed =
        "a decimal integer from " + std::to_string(min) + " to " + std::to_string(max);
    auto parsed = parse_decimal(text, max);
    if (!parsed) return ParseResult<std::uint64_t>::fail(bad_value(option, text, parsed.error(), allowed));
    if (parsed.value() < min) {
        return ParseResult<std::uint64_t>::fail(
            bad_value(option, text, "is less than " + std::to_string(min), allowed));
    }
    return parsed;
}

constexpr std::pair<const char*, OutputFormat> k_formats[] = {
    {"text", OutputFormat::text}, {"json", OutputFormat::json}, {"csv", OutputFormat::csv},
    {"tsv", OutputFormat::tsv}, {"markdown", OutputFormat::markdown}, {"svg", OutputFormat::svg},
    {"html", OutputFormat::html}, {"python", OutputFormat::python}};

constexpr std::pair<const char*, ColorMode> k_color_modes[] = {
    {"auto", ColorMode::automatic}, {"always", ColorMode::always}, {"never", ColorMode::never}};

constexpr std::pair<const char*, PaletteMode> k_palettes[] = {
    {"auto", PaletteMode::automatic}, {"dark", PaletteMode::dark}, {"light", PaletteMode::light}};

// The value a name stands for in one of the tables above, or nullopt.
template <typename Value, std::size_t N>
std::optional<Value> find_named(const std::pair<const char*, Value> (&table)[N], const std::string& name) {
    for (const auto& [known, value] : table) {
        if (name == known) return value;
    }
    return std::nullopt;
}

// "auto, always, never": a table's names, in order, for the "allowed" part of a message.
template <typename Value, std::size_t N>
std::string names_of(const std::pair<const char*, Value> (&table)[N]) {
    std::string names;
    for (const auto& entry : table) names += (names.empty() ? "" : ", ") + std::string(entry.first);
    return names;
}

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

// nn.Embedding's max_norm and norm_type: shared options, taken by the lookup and grad lessons.
void declare_max_norm_options(CLI::App& app, RawOptions& raw) {
    const auto single = [](CLI::Option* option) {
        return option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    };
    single(app.add_option("--max-norm", raw.max_norm, "nn.Embedding's max_norm: rescale rows above M"))
        ->type_name("M");
    single(app.add_option("--norm-type", raw.norm_type, "with --max-norm: the p of the norm (default 2, inf)"))
        ->type_name("P");
}

void declare_options(CLI::App& app, RawOptions& raw) {
    // Every value is read as a string and checked by our own parsers in validate(). Help lines
    // stay within 80 columns: CLI11 does not wrap them.
    const auto single = [](CLI::Option* option) {
        return option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    };
    single(app.add_option("--ids", raw.ids, "token ids, e.g. 2,3,1 (required)"))->type_name("LIST");
    single(app.add_option("--text", raw.text, "GPT-2 tokens of this text as the ids"))->type_name("TEXT");
    single(app.add_option("--text-file", raw.text_file, "GPT-2 tokens of a UTF-8 file as the ids"))
        ->type_name("FILE");
    single(app.add_option("--vocab", raw.vocab, "rows of E (default: largest id + 1)"))->type_name("V");
    single(app.add_option("--dim", raw.dim, "columns of E (required unless --weights)"))->type_name("D");
    single(app.add_option("--seed", raw.seed, "torch.manual_seed, 0 to 2^64-1 (default 123)"))
        ->type_name("SEED");
    single(app.add_option("--init", raw.init, "torch, index (10*k + j) or randint (-9..9)"))
        ->type_name("KIND")
        ->capture_default_str();
    single(app.add_option("--weights", raw.weights, "E from a .npy, .csv or .tsv file instead"))
        ->type_name("FILE");
    single(app.add_option("--format", raw.format, "text, json, csv, tsv, markdown, svg, html, python"))
        ->type_name("FORMAT")
        ->capture_default_str();
    single(app.add_option("--show", raw.show, "only these matrices, e.g. lookup (see below)"))
        ->type_name("LIST");
    single(app.add_option("--precision", raw.precision, "decimals in text and markdown, 0 to 9"))
        ->type_name("P")
        ->capture_default_str();
    single(app.add_option("--color", raw.color, "auto, always or never"))
        ->type_name("WHEN")
        ->capture_default_str();
    single(app.add_option("--palette", raw.palette, "colours for a dark or light background, or auto"))
        ->type_name("BG")
        ->capture_default_str();
    single(app.add_flag("--trace", raw.trace, "show each id step by step"));
    single(app.add_option("--trace-positions", raw.trace_positions,
                          "with --trace: only these positions, e.g. 0,2"))
        ->type_name("LIST");
    single(app.add_flag("--walkthrough", raw.walkthrough, "the notebook as a narrated lesson"));
    single(app.add_flag("--pause", raw.pause, "wait for Enter between steps (on a terminal)"));
    single(app.add_option("--save-weights", raw.save_weights,
                          "also write E (numpy.save) to FILE, ending in .npy"))
        ->type_name("FILE");
    single(app.add_option("--export-projector", raw.export_projector,
                          "also write TensorFlow Projector files to DIR"))
        ->type_name("DIR");
    single(app.add_option("--labels", raw.labels, "with --export-projector: a label per row"))
        ->type_name("FILE");
    single(app.add_option("--max-memory", raw.max_memory, "refuse runs needing more, e.g. 4G (default 1G)"))
        ->type_name("SIZE");
    declare_max_norm_options(app, raw);
}

void declare_grad_options(CLI::App& grad, RawOptions& raw) {
    const auto single = [](CLI::Option* option) {
        return option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    };
    single(grad.add_option("--padding-idx", raw.padding_idx, "nn.Embedding's padding_idx, -V to V-1"))
        ->type_name("K");
    single(grad.add_flag("--scale-grad-by-freq", raw.scale_grad_by_freq,
                         "divide each row of G by its id's count"));
    single(grad.add_option("--upstream", raw.upstream, "G: randn (default), ones, or a file"))
        ->type_name("G");
    single(grad.add_option("--optimizer", raw.optimizer, "take optimizer steps: sgd, adam, adamw"))
        ->type_name("OPT");
    single(grad.add_option("--steps", raw.steps, "with --optimizer: 1 to 100 (default 1)"))->type_name("N");
    single(grad.add_option("--lr", raw.lr, "learning rate (sgd 0.1, adam/adamw 0.001)"))->type_name("LR");
    single(grad.add_option("--momentum", raw.momentum, "sgd's momentum (default 0)"))->type_name("M");
    single(grad.add_option("--weight-decay", raw.weight_decay, "default 0, adamw 0.01"))->type_name("W");
    single(grad.add_flag("--sparse", raw.sparse, "nn.Embedding(sparse=True): the COO gradient"));
    single(grad.add_option("--top", raw.top, "swaps listed per position by dL/dX, 1 to 10 (3)"))->type_name("K");
}

// A finite decimal number such as 0.1 or 1e-3, at least `min` (std::strtod in the C locale,
// which embdemo never changes): no hex, no inf or nan, nothing after the number.
std::optional<std::string> parse_real(const char* option, const std::string& text, double min,
                                      double& value) {
    const std::string allowed = "a finite decimal number of at least " + fmt_real(min);
    if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos) {
        return bad_value(option, text, "is not a decimal number", allowed);
    }
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return bad_value(option, text, "is not a decimal number", allowed);
    if (!std::isfinite(value)) return bad_value(option, text, "is not finite", allowed);
    if (value < min) return bad_value(option, text, "is less than " + fmt_real(min), allowed);
    return std::nullopt;
}

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
    if (options.format != OutputFormat::text && options.format != OutputFormat::json) {
        return std::string("--optimizer prints its steps as text or json (allowed: --format text or json)");
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
        const auto steps = parse_bounded("--steps", *raw.steps, 1, k_max_steps);
        if (!steps) return steps.error();
        options.grad.steps = static_cast<std::size_t>(steps.value());
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

constexpr const char* k_grad_footer = R"(The shared options (--ids, --vocab, --dim, --seed, --init, --weights, --format,
--precision, --color, --palette) work here as in embdemo --help. --ids takes a
batch too: "2,3,1;0,1,1" is torch.tensor([[2,3,1],[0,1,1]]).

Examples:
  embdemo grad --ids 2,3,1,3 --dim 5              repeated ids add up
  embdemo grad --ids "2,3;1,1" --dim 4            a 2 x 2 batch
  embdemo grad --ids 2,0,2 --dim 3 --padding-idx 0   padding gets no gradient
  embdemo grad --ids 2,3,3 --dim 3 --scale-grad-by-freq --format json
  embdemo grad --ids 2,3,1,3 --dim 5 --format html > grad.html   as a page
  embdemo grad --ids 2,3,1,3 --dim 5 --sparse     the COO gradient, coalesced
  embdemo grad --ids 2,3,1,3 --dim 5 --max-norm 1   E rescaled, dE unchanged
  embdemo grad --ids 5,40000 --vocab 50257 --dim 768 --top 5   swaps by dL/dX

--max-norm M [--norm-type P] (shared with the lookup lesson) renormalises E in
the forward. --sparse takes plain --optimizer sgd steps; PyTorch refuses it with
--scale-grad-by-freq, adam, adamw and SGD's weight decay (embdemo: momentum).

Exit status: 0 when both gradients agree bit for bit, 3 when they differ (with
--padding-idx or --scale-grad-by-freq they do wherever those apply), 2 for bad
input, 1 for a failed write.)";

// A file or directory name given to `option`: anything but empty. `allowed` says which.
std::optional<std::string> check_path(const char* option, const std::optional<std::string>& path,
                                      const char* allowed) {
    if (path && path->empty()) return bad_value(option, *path, "is empty", allowed);
    return std::nullopt;
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
    // In grad the seed still draws G (--upstream randn, the default).
    const bool seed_draws_upstream = raw.grad && raw.upstream.value_or("randn") == "randn";
    if (raw.weights && raw.seed && !seed_draws_upstream) {
        return std::string("--seed cannot be combined with --weights: E comes from the file, so the seed "
                           "would have no effect (allowed: one of them)");
    }
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
                         "--precision with --format text or markdown");
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
    if (init == "torch") {
        request.origin.kind = WeightOrigin::Kind::torch;
    } else if (init == "randint") {
        request.origin.kind = WeightOrigin::Kind::torch_randint;
    } else if (init == "index") {
        request.origin.kind = WeightOrigin::Kind::index_pattern;
        const std::uint64_t largest = index_pattern_max(request.vocab_size, request.dim);
        // float32 holds every whole number up to 2^24 exactly; past that the pattern would lie.
        if (largest > (std::uint64_t{1} << 24)) {
            return "--init index: the largest value would be " + group_thousands(largest) +
                   ", which float32 cannot hold exactly (allowed: tables whose values stay at "
                   "or below 16,777,216; use a smaller --vocab or --dim)";
        }
        request.origin.detail = index_pattern_formula(request.dim);
    } else {
        return bad_value("--init", init, "is not a known kind", "torch, index, randint");
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
    if (raw.trace_positions && !raw.trace) {
        return std::string("--trace-positions needs --trace");
    }
    if (raw.pause && !view) return std::string("--pause needs --trace or --walkthrough");
    options.view = raw.trace ? View::trace : raw.walkthrough ? View::walkthrough : View::plain;
    options.pause = raw.pause;
    if (raw.trace_positions) {
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

// Options of the lookup lesson that mean nothing to another lesson, refused rather than ignored.
std::optional<std::string> check_lookup_only(const RawOptions& raw, const char* lesson) {
    const std::pair<const char*, bool> lookup_only[] = {
        {"--trace", raw.trace && !raw.grad},  // grad has a --trace of its own
        {"--trace-positions", raw.trace_positions.has_value()},
        {"--walkthrough", raw.walkthrough}, {"--pause", raw.pause}, {"--show", raw.show.has_value()},
        {"--save-weights", raw.save_weights.has_value()}, {"--export-projector", raw.export_projector.has_value()},
        {"--labels", raw.labels.has_value()}};
    for (const auto& [option, given] : lookup_only) {
        if (given) {
            return fmt::format("{} belongs to the lookup lesson, not to {} (allowed with {}: the options of "
                               "embdemo {} --help)", option, lesson, lesson, lesson);
        }
    }
    return std::nullopt;
}

std::optional<std::string> check_grad_exclusive(const RawOptions& raw) { return check_lookup_only(raw, "grad"); }

// -V <= K < V, as nn.Embedding checks padding_idx.
std::optional<std::string> parse_padding_idx(const std::string& text, std::uint64_t vocab_size,
                                             std::optional<std::int64_t>& padding_idx) {
    const std::string allowed = "an integer from -" + std::to_string(vocab_size) + " to " +
                                std::to_string(vocab_size - 1) + ", as nn.Embedding allows";
    const bool negative = !text.empty() && text[0] == '-';
    const auto magnitude = parse_decimal(negative ? text.substr(1) : text, UINT64_MAX);
    if (!magnitude) return bad_value("--padding-idx", text, magnitude.error(), allowed);
    if (negative ? magnitude.value() > vocab_size : magnitude.value() >= vocab_size) {
        return bad_value("--padding-idx", text, "is out of range for a vocab of " + group_thousands(vocab_size),
                         allowed);
    }
    const auto value = static_cast<std::int64_t>(magnitude.value());
    padding_idx = negative ? -value : value;
    return std::nullopt;
}

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

// The lessons without a figure, page or script refuse those formats by name.
std::optional<std::string> check_picture_format(const RawOptions& raw, const Options& options) {
    if (!is_picture_format(options.format) || !is_table_lesson(raw)) return std::nullopt;
    const char* lesson = raw.tied ? "tied" : raw.factor ? "factor" : raw.bag ? "bag" : "positions";
    return bad_value("--format", raw.format,
                     fmt::format("embdemo {} has no figure, page or script yet; svg, html and python are "
                                 "the notebook lesson's and grad's", lesson),
                     "text, json, csv, tsv, markdown");
}

// ---- Where the two forms part ways (issue #15): --max-norm, --norm-type, grad's --sparse, --top ----

// A finite decimal number above 0 (std::strtod in the C locale): no hex, nan or inf words.
std::optional<std::string> parse_positive(const char* option, const std::string& text, const char* allowed,
                                          double& value) {
    const bool word = text == "nan" || text == "inf" || text == "-inf" || text == "+inf";
    if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos) {
        return bad_value(option, text, word ? "is not finite" : "is not a decimal number", allowed);
    }
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return bad_value(option, text, "is not a decimal number", allowed);
    if (!std::isfinite(value)) return bad_value(option, text, "is out of range", allowed);
    if (value <= 0.0) return bad_value(option, text, "is not positive", allowed);
    return std::nullopt;
}

// M: a positive finite number; P: a positive number or inf.
std::optional<std::string> parse_max_norm(const RawOptions& raw, MaxNorm& max_norm) {
    if (auto problem = parse_positive("--max-norm", *raw.max_norm, "a positive finite number, e.g. 1.0",
                                      max_norm.max_norm)) {
        return problem;
    }
    if (!raw.norm_type || *raw.norm_type == "inf") {
        max_norm.norm_type = raw.norm_type ? HUGE_VAL : 2.0;
        return std::nullopt;
    }
    return parse_positive("--norm-type", *raw.norm_type, "a positive number such as 1, 2 (the default) or 0.5, or inf",
                          max_norm.norm_type);
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

std::optional<std::string> validate_max_norm(const RawOptions& raw, Options& options) {
    if (!raw.max_norm) {
        if (raw.norm_type) return std::string("--norm-type has no effect without --max-norm (allowed: both, or neither)");
        return std::nullopt;
    }
    if (raw.format == "svg" || raw.format == "html" || raw.format == "python") {
        // The figure, the page and the script show the two forms agreeing on one E; max_norm
        // changes E between them, which only its own views show.
        return bad_value("--format", raw.format, "cannot show --max-norm's two tables",
                         "text, json, csv, tsv or markdown with --max-norm");
    }
    const char* table_lesson = raw.positions ? "positions" : raw.tied ? "tied" : raw.factor ? "factor" : raw.bag ? "bag" : nullptr;
    if (table_lesson) {
        return fmt::format("--max-norm belongs to the lookup and grad lessons, not to {} (allowed with {}: the "
                           "options of embdemo {} --help)", table_lesson, table_lesson, table_lesson);
    }
    MaxNorm max_norm;
    if (auto problem = parse_max_norm(raw, max_norm)) return problem;
    if (!raw.grad) {
        if (auto problem = check_max_norm_view(raw)) return problem;
    }
    options.max_norm = max_norm;
    return std::nullopt;
}

// grad's --sparse and --top, and what PyTorch refuses with them.
std::optional<std::string> validate_grad_partways(const RawOptions& raw, Options& options) {
    GradOptions& grad = options.grad;
    const std::uint64_t vocab = options.request.vocab_size;
    grad.top = static_cast<std::size_t>(std::min<std::uint64_t>(3, vocab));
    if (raw.top) {
        const std::uint64_t most = std::min<std::uint64_t>(10, vocab);
        const std::string allowed = fmt::format("K from 1 to {} (10, or the vocab when smaller)", most);
        const auto top = parse_decimal(*raw.top);
        if (!top) return bad_value("--top", *raw.top, top.error(), allowed);
        if (top.value() < 1 || top.value() > most) return bad_value("--top", *raw.top, "is out of range", allowed);
        if (options.format != OutputFormat::text) {
            return bad_value("--top", *raw.top, "picks the swaps the text view lists",
                             "--top with --format text; the machine formats hold every score");
        }
        grad.top = static_cast<std::size_t>(top.value());
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

std::optional<std::string> validate_grad(const RawOptions& raw, Options& options) {
    if (auto problem = check_grad_exclusive(raw)) return problem;
    options.lesson = Lesson::grad;
    GradOptions& grad = options.grad;
    if (raw.padding_idx) {
        if (auto problem = parse_padding_idx(*raw.padding_idx, options.request.vocab_size, grad.padding_idx)) {
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

// ---- embdemo cost ----

constexpr const char* k_cost_footer = R"(The sizes come from --model, or from --tokens N (or --ids LIST, n = its
length) with --vocab V and --dim D; --format json gives every count exactly.
Models: gpt2 (GPT-2 small, V 50,257, d 768, n 1,024), gpt2-xl (d 1,600),
llama3-8b (V 128,256, d 4,096, n 8,192); n is the model's context length
unless --tokens or --ids says otherwise.

Examples:
  embdemo cost --model gpt2                     GPT-2 small, 1,024 tokens
  embdemo cost --model llama3-8b --tokens 1     one token of a large vocabulary
  embdemo cost --ids 2,3,1 --dim 5              the notebook's sizes
  embdemo cost --tokens 4096 --vocab 32000 --dim 4096 --format json

Exit status: 0, or 2 for bad input (one line on stderr), 1 for a failed write.)";

void declare_cost_options(CLI::App& cost, RawOptions& raw) {
    const auto single = [](CLI::Option* option) {
        return option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    };
    single(cost.add_option("--model", raw.model, "a real model's sizes: gpt2, gpt2-xl, llama3-8b"))
        ->type_name("NAME");
    single(cost.add_option("--tokens", raw.tokens, "n, the number of ids (1 to 1,048,576)"))->type_name("N");
}

// Which option gave the ids, for messages about them.
const char* ids_option(const RawOptions& raw) { return raw.text ? "--text" : raw.text_file ? "--text-file" : "--ids"; }

// The ids from --ids, --text or --text-file (exactly one of them).
// The text of --text or --text-file, whichever is given.
ParseResult<GivenText> given_text(const RawOptions& raw) {
    if (raw.text) return ParseResult<GivenText>::ok({*raw.text, "--text"});
    auto text = read_text_file(*raw.text_file);
    if (!text) return ParseResult<GivenText>::fail(text.error());
    return ParseResult<GivenText>::ok({std::move(text.value()), "--text-file " + quote_for_message(*raw.text_file) + ":"});
}

ParseResult<IdBatch> read_ids(const RawOptions& raw) {
    using Result = ParseResult<IdBatch>;
    const int given = int(raw.ids.has_value()) + int(raw.text.has_value()) + int(raw.text_file.has_value());
    if (given > 1) {
        return Result::fail("--ids, --text and --text-file each give the ids (allowed: one of them)");
    }
    if (raw.text || raw.text_file) {
        auto text = given_text(raw);
        if (!text) return Result::fail(text.error());
        return ids_from_text(std::move(text.value()));
    }
    auto ids = parse_id_batch(*raw.ids);
    if (!ids) {
        return Result::fail(bad_value("--ids", *raw.ids, ids.error(),
                                      "comma-separated non-negative decimal token ids, e.g. 2,3,1, or rows "
                                      "of them separated by ';' for a batch"));
    }
    return ids;
}

// The shared options cost reads; any other one given is refused rather than ignored.
std::optional<std::string> check_cost_shared(const RawOptions& raw) {
    for (const std::string& option : raw.shared_given) {
        if (option == "--ids" || option == "--text" || option == "--text-file" || option == "--vocab" ||
            option == "--dim" || option == "--format") {
            continue;
        }
        return option + " has no effect on embdemo cost (allowed with cost: --ids, --text, --text-file, --vocab, "
               "--dim, --format and the options of embdemo cost --help)";
    }
    return std::nullopt;
}

// n from --ids or --tokens, V and d from --model or --vocab/--dim (or the ids), each bounded.
std::optional<std::string> cost_sizes(const RawOptions& raw, CostRequest& request) {
    const bool has_ids = raw.ids || raw.text || raw.text_file;
    if (has_ids && raw.tokens) return std::string(ids_option(raw)) + " and --tokens both give n (allowed: one of them)";
    if (raw.model) {
        const auto preset = model_preset_option(*raw.model, raw.vocab || raw.dim);
        if (!preset) return preset.error();
        use_model_preset(*preset.value(), request);
    } else if ((!has_ids && !raw.tokens) || !raw.dim || (raw.tokens && !raw.vocab)) {
        return std::string("embdemo cost needs sizes: --model NAME, or --tokens N with --vocab V and --dim D, "
                           "or --ids LIST with --dim D; see embdemo cost --help");
    } else {
        const auto dim = parse_bounded("--dim", *raw.dim, 1, k_max_cost_dim);
        if (!dim) return dim.error();
        request.dim = dim.value();
        if (raw.vocab) {
            const auto vocab = parse_bounded("--vocab", *raw.vocab, 1, k_max_cost_vocab);
            if (!vocab) return vocab.error();
            request.vocab_size = vocab.value();
        }
    }
    if (raw.tokens) {
        const auto tokens = parse_bounded("--tokens", *raw.tokens, 1, k_max_cost_tokens);
        if (!tokens) return tokens.error();
        request.ids = tokens.value();
        request.token_source = TokenSource::tokens;
    }
    return std::nullopt;
}

// --ids: n is their count, and V is at least the largest + 1 (inferred when not given).
std::optional<std::string> cost_ids(const std::string& text, bool vocab_known, CostRequest& request) {
    const auto ids = parse_id_batch(text);
    if (!ids) return bad_value("--ids", text, ids.error(), "comma-separated non-negative decimal token ids, e.g. 2,3,1");
    const TokenIds& values = ids.value().values;
    if (values.size() > k_max_cost_tokens) {
        return bad_value("--ids", text.substr(0, 20) + "...", "lists " + group_thousands(values.size()) + " ids",
                         "at most " + group_thousands(k_max_cost_tokens));
    }
    request.ids = values.size();
    request.token_source = TokenSource::ids;
    const std::uint64_t largest = *std::max_element(values.begin(), values.end());
    if (!vocab_known) {
        if (largest >= k_max_cost_vocab) {
            return bad_value("--ids", text, "has id " + std::to_string(largest), "ids below " + group_thousands(k_max_cost_vocab));
        }
        request.vocab_size = largest + 1;
        request.vocab_inferred = true;
    } else if (largest >= request.vocab_size) {
        return "--ids: id " + std::to_string(largest) + " is out of range for a vocab of " +
               group_thousands(request.vocab_size) + " (allowed: ids 0 to " + std::to_string(request.vocab_size - 1) + ")";
    }
    return std::nullopt;
}

// --text or --text-file: n is the number of GPT-2 tokens, V GPT-2's 50,257 unless --vocab says.
std::optional<std::string> cost_text(const RawOptions& raw, CostRequest& request) {
    const auto ids = read_ids(raw);
    if (!ids) return ids.error();
    const TokenIds& values = ids.value().values;
    if (values.size() > k_max_cost_tokens) {
        return std::string(ids_option(raw)) + " has " + group_thousands(values.size()) + " tokens (allowed: at most " +
               group_thousands(k_max_cost_tokens) + ")";
    }
    request.ids = values.size();
    request.token_source = TokenSource::text;
    if (request.vocab_size == 0) request.vocab_size = k_gpt2_vocab_size;
    const std::uint64_t largest = *std::max_element(values.begin(), values.end());
    if (largest >= request.vocab_size) {
        return std::string(ids_option(raw)) + ": token id " + std::to_string(largest) + " is out of range for a vocab of " +
               group_thousands(request.vocab_size) + " (allowed: --vocab at least " + group_thousands(largest + 1) + ")";
    }
    return std::nullopt;
}

// ---- embdemo tokens ----

constexpr const char* k_tokens_footer = R"(The text comes from --text or --text-file (UTF-8); --dim sets d for the table
sizes (default 768, GPT-2 small's); --format text or json. The ids are those of
tiktoken.get_encoding("gpt2").encode(text, allowed_special={"<|endoftext|>"}).

Examples:
  embdemo tokens --text "Your journey starts with one step"
  embdemo tokens --text "unbelievably" --piece 0
  embdemo tokens --text-file notes.txt --format json
)";

void declare_tokens_options(CLI::App& tokens, RawOptions& raw) {
    tokens.add_option("--piece", raw.piece, "the piece to follow through BPE, from 0 (default: most merges)")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw)
        ->type_name("K");
}

CommandLine validate_tokens(const RawOptions& raw) {
    CommandLine result;
    Options& options = result.options;
    options.lesson = Lesson::tokens;
    for (const std::string& option : raw.shared_given) {
        if (option == "--text" || option == "--text-file" || option == "--dim" || option == "--format") continue;
        return fail(option + " has no effect on embdemo tokens (allowed with tokens: --text, --text-file, --dim, "
                    "--format and --piece)");
    }
    if (!raw.text && !raw.text_file) return fail("embdemo tokens needs --text TEXT or --text-file FILE");
    const auto format = find_named(k_formats, raw.format);
    if (!format || (*format != OutputFormat::text && *format != OutputFormat::json)) {
        return fail(bad_value("--format", raw.format, "is not a format of embdemo tokens", "text, json"));
    }
    options.format = *format;
    if (raw.text && raw.text_file) return fail("--text and --text-file each give the text (allowed: one of them)");
    auto text = given_text(raw);
    if (!text) return fail(text.error());
    // The same checks and messages as every lesson's --text; the lesson cuts the text itself.
    if (auto problem = check_text(text.value())) return fail(*problem);
    options.tokens.text = std::move(text.value().text);
    if (raw.dim) {
        const auto dim = parse_bounded("--dim", *raw.dim, 1, k_max_cost_dim);
        if (!dim) return fail(dim.error());
        options.tokens.dim = dim.value();
    }
    if (raw.piece) {
        const std::size_t pieces = count_gpt2_pieces(options.tokens.text);
        const auto piece = parse_bounded("--piece", *raw.piece, 0, pieces - 1);
        if (!piece) return fail(piece.error());
        options.tokens.piece = piece.value();
    }
    result.run = true;
    return result;
}

CommandLine validate_cost(const RawOptions& raw) {
    CommandLine result;
    Options& options = result.options;
    options.lesson = Lesson::cost;
    if (auto problem = check_cost_shared(raw)) return fail(*problem);
    if (raw.format == "json") {
        options.format = OutputFormat::json;
    } else if (raw.format != "text") {
        return fail(bad_value("--format", raw.format, "is not a format of embdemo cost", "text, json"));
    }
    if (auto problem = cost_sizes(raw, options.cost)) return fail(*problem);
    if (raw.ids) {
        if (auto problem = cost_ids(*raw.ids, options.cost.vocab_size != 0, options.cost)) return fail(*problem);
    } else if (raw.text || raw.text_file) {
        if (auto problem = cost_text(raw, options.cost)) return fail(*problem);
    }
    result.run = true;
    return result;
}

// ---- The table lessons: positions (and, below, tied, factor, bag) ----

void declare_positions_options(CLI::App& positions, RawOptions& raw) {
    positions.add_option("--context", raw.context, "rows of the position table C, at least T (default T)")
        ->type_name("C")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    positions.add_option("--encoding", raw.encoding, "learned (default), sinusoidal or rope")
        ->type_name("KIND")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    positions.add_option("--stride", raw.stride, "with --text(-file) and --context T: the loader's S (default T)")
        ->type_name("S")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    positions.add_option("--batch", raw.batch, "with --text(-file) and --context T: the loader's B (default 4)")
        ->type_name("B")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
}

// The first lines of the help footer of positions, tied and factor.
constexpr const char* k_table_lesson_shared = R"(The shared options --ids, --vocab, --dim, --seed, --format (text, json, csv,
tsv), --precision, --color and --palette work here as in embdemo --help.
)";

constexpr const char* k_positions_footer = R"(--ids takes a batch too: "2,3,1;0,1,1" is torch.tensor([[2,3,1],[0,1,1]]), and
every row gets the same P[0..T). E and P are drawn as torch.manual_seed(SEED);
tok = nn.Embedding(V, D); pos = nn.Embedding(C, D) draws them.

Examples:
  embdemo positions --ids 2,3,1 --dim 5             tok + pos (book, ch. 2)
  embdemo positions --ids 2,3,2 --dim 4             one id, two vectors
  embdemo positions --ids "2,3;1,1" --dim 4 --context 8   a batch, C = 8
  embdemo positions --ids 2,3,1 --dim 5 --format json

Exit status: 0 when both lookups equal their one-hot products bit for bit, 2 for
bad input, 1 for a failed write.)";

// Options of other lessons, and sources of E these lessons do not take, refused by name.
std::optional<std::string> check_table_lesson_exclusive(const RawOptions& raw, const char* lesson) {
    if (auto problem = check_lookup_only(raw, lesson)) return problem;
    if (raw.max_memory) {
        // Only the lookup and grad lessons estimate their memory; a budget given here was
        // silently ignored. These lessons are bounded by the size caps (docs/usage.md).
        return fmt::format("--max-memory has no effect on embdemo {}, whose memory the size caps bound (allowed "
                           "with {}: the options of embdemo {} --help)", lesson, lesson, lesson);
    }
    if (raw.weights || raw.init != "torch") {
        return fmt::format("{} {}: embdemo {} draws its tables as PyTorch does after torch.manual_seed "
                           "(allowed: --init torch, the default, and no --weights)",
                           raw.weights ? "--weights" : "--init", raw.weights ? quote_for_message(*raw.weights)
                                                                             : quote_for_message(raw.init), lesson);
    }
    return std::nullopt;
}

// The machine formats print every value: refuse a run that would print more than the cap.
std::optional<std::string> check_printed(const char* lesson, std::uint64_t printed) {
    if (printed <= k_max_printed_values) return std::nullopt;
    return fmt::format("embdemo {}: the machine formats would print {} numbers (allowed: at most {}; use "
                       "a smaller --vocab or --dim, or the text view)",
                       lesson, group_thousands(printed), group_thousands(k_max_printed_values));
}

constexpr std::pair<const char*, PositionEncoding> k_encodings[] = {
    {"learned", PositionEncoding::learned},
    {"sinusoidal", PositionEncoding::sinusoidal},
    {"rope", PositionEncoding::rope},
};

std::optional<std::string> validate_encoding(const RawOptions& raw, Options& options) {
    if (!raw.encoding) return std::nullopt;
    const auto encoding = find_named(k_encodings, *raw.encoding);
    if (!encoding) return bad_value("--encoding", *raw.encoding, "is not a known encoding", names_of(k_encodings));
    if (*encoding == PositionEncoding::rope && options.request.dim % 2 != 0) {
        return bad_value("--encoding", *raw.encoding,
                         "needs an even --dim: RoPE turns pairs of columns (j, j + d/2), and --dim is " +
                             std::to_string(options.request.dim),
                         "an even --dim with rope");
    }
    options.positions.encoding = *encoding;
    options.positions.encoding_given = true;
    return std::nullopt;
}

std::optional<std::string> validate_positions(const RawOptions& raw, Options& options) {
    if (auto problem = validate_encoding(raw, options)) return problem;
    const DemoRequest& request = options.request;
    const std::uint64_t seq = options.id_batch.seq;
    const std::uint64_t max_context = std::max<std::uint64_t>(seq, k_max_matrix_values / request.dim);
    PositionsOptions& positions = options.positions;
    positions.context = seq;
    positions.context_inferred = !raw.context;
    if (raw.context) {
        const std::string allowed = fmt::format("C >= T: a decimal integer from {} to {}", seq, max_context);
        const auto context = parse_decimal(*raw.context);
        if (!context) return bad_value("--context", *raw.context, context.error(), allowed);
        if (context.value() < seq) {
            return bad_value("--context", *raw.context,
                             fmt::format("is shorter than the sequence (T = {}): P would have no row for "
                                         "position {}", seq, context.value()),
                             allowed);
        }
        if (context.value() > max_context) {
            return bad_value("--context", *raw.context,
                             fmt::format("would make P {} x {}, over the limit of {} values per matrix",
                                         group_thousands(context.value()), group_thousands(request.dim),
                                         group_thousands(k_max_matrix_values)),
                             allowed);
        }
        positions.context = context.value();
    }
    // one_hot(arange(T), C) @ P obeys the caps the token product does.
    if (auto too_big = check_demo_sizes(seq, positions.context, request.dim)) {
        return "--context: the position table's one-hot product: " + *too_big;
    }
    const std::uint64_t n = request.ids.size();
    const std::uint64_t d = request.dim;
    if (options.format == OutputFormat::text) return std::nullopt;
    return check_printed("positions", request.vocab_size * d + positions.context * d + 4 * n * d + seq * d);
}

void declare_tied_options(CLI::App& tied, RawOptions& raw) {
    tied.add_option("--top", raw.top, "top-K token ids per position, 1 to V (default 5)")
        ->type_name("K")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    tied.add_option("--hidden", raw.hidden, "H from a .npy/.csv/.tsv file, n x D (default E[ids])")
        ->type_name("FILE")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
}

constexpr const char* k_tied_footer = R"(--ids takes a batch too. E is nn.Embedding(V, D) after torch.manual_seed(SEED);
the output layer is nn.Linear(D, V, bias=False) with its weight set to E, as
GPT-2 ties out_head.weight = tok_emb.weight. H defaults to E[ids], a stand-in
for the final hidden state.

Examples:
  embdemo tied --ids 2,3,1 --dim 5                 logits = E[ids] @ E.T
  embdemo tied --ids 464,3290 --vocab 50257 --dim 768 --top 3   GPT-2 sizes
  embdemo tied --ids 2,3 --dim 5 --hidden h.npy    your own final hidden state
  embdemo tied --ids 2,3,1 --dim 5 --format json

Exit status: 0, 2 for bad input (including an unreadable --hidden file), 1 for
a failed write.)";

std::optional<std::string> validate_tied(const RawOptions& raw, Options& options) {
    const std::uint64_t vocab = options.request.vocab_size;
    const std::uint64_t n = options.request.ids.size();
    const std::uint64_t d = options.request.dim;
    TiedOptions& tied = options.tied;
    tied.top = static_cast<std::size_t>(std::min<std::uint64_t>(5, vocab));
    if (raw.top) {
        const std::string allowed = fmt::format("K from 1 to the vocab, {}", vocab);
        const auto top = parse_decimal(*raw.top);
        if (!top) return bad_value("--top", *raw.top, top.error(), allowed);
        if (top.value() < 1 || top.value() > vocab) {
            return bad_value("--top", *raw.top, top.value() < 1 ? "is 0" : "is more than the vocab has ids", allowed);
        }
        tied.top = static_cast<std::size_t>(top.value());
    }
    if (raw.hidden) {
        if (raw.hidden->empty()) return bad_value("--hidden", *raw.hidden, "is empty", "a .npy, .csv or .tsv file of n x D");
        tied.hidden_file = *raw.hidden;
    }
    if (options.format == OutputFormat::text) return std::nullopt;
    return check_printed("tied", vocab * d + n * d + n * vocab);
}

void declare_factor_options(CLI::App& factor, RawOptions& raw) {
    factor.add_option("--rank", raw.rank, "r, the width of E1: 1 to D-1 (required)")
        ->type_name("R")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
}

constexpr const char* k_factor_footer = R"(--ids takes a batch too. After torch.manual_seed(SEED), e1 = nn.Embedding(V, R)
is drawn, then proj = nn.Linear(R, D, bias=False); E2 = proj.weight.T (R x D),
and the output is proj(e1(ids)) = E1[ids] @ E2.

Examples:
  embdemo factor --ids 2,3,1 --dim 8 --rank 2          a rank-2 table, d = 8
  embdemo factor --ids 5 --vocab 30000 --dim 768 --rank 128   ALBERT's sizes
  embdemo factor --ids 2,3,1 --dim 8 --rank 2 --format json

Exit status: 0 when E1[ids] @ E2 and (one_hot(ids) @ E1) @ E2 agree bit for
bit, 2 for bad input, 1 for a failed write.)";

std::optional<std::string> validate_factor(const RawOptions& raw, Options& options) {
    const std::uint64_t d = options.request.dim;
    const std::string allowed = fmt::format("a rank from 1 to {}, below --dim", d - 1);
    if (!raw.rank) return "embdemo factor needs --rank R (allowed: " + allowed + ", e.g. --rank " + std::to_string(std::max<std::uint64_t>(1, d / 4)) + ")";
    const auto rank = parse_decimal(*raw.rank);
    if (!rank) return bad_value("--rank", *raw.rank, rank.error(), allowed);
    if (rank.value() == 0) {
        return bad_value("--rank", *raw.rank, "is 0: E1 would have no columns and every vector would be 0", allowed);
    }
    if (rank.value() >= d) {
        return bad_value("--rank", *raw.rank,
                         fmt::format("is not below --dim {}: then V*r + r*d >= V*d, and the two factors save "
                                     "nothing over one table", d),
                         d > 1 ? allowed : "a --dim of at least 2, and a rank below it");
    }
    options.factor.rank = rank.value();
    const std::uint64_t v = options.request.vocab_size;
    const std::uint64_t n = options.request.ids.size();
    const std::uint64_t r = rank.value();
    if (options.format == OutputFormat::text) return std::nullopt;
    return check_printed("factor", v * r + r * d + n * r + 2 * n * d);
}

void declare_bag_options(CLI::App& bag, RawOptions& raw) {
    const auto single = [](CLI::Option* option) {
        return option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    };
    single(bag.add_option("--bags", raw.bags, "the bags, e.g. \"2,3;1,1,0\"; \"2;;1\": empty middle bag"))
        ->type_name("BAGS");
    single(bag.add_option("--mode", raw.mode, "sum, mean (default, as PyTorch) or max"))->type_name("MODE");
    single(bag.add_option("--per-sample-weights", raw.per_sample_weights, "with sum: a weight per id, e.g. \"0.5,2;1,1,1\""))
        ->type_name("W");
    single(bag.add_option("--padding-idx", raw.padding_idx, "nn.EmbeddingBag's padding_idx, -V to V-1"))
        ->type_name("K");
}

constexpr const char* k_bag_footer = R"(--bags replaces --ids here; the shared options --vocab, --dim, --seed,
--format (text, json, csv, tsv), --precision, --color and --palette work as in
embdemo --help. After torch.manual_seed(SEED), bag = nn.EmbeddingBag(V, D,
mode=MODE, padding_idx=K) is called as bag(input, offsets), input being the
bags' ids in one list and offsets where each bag starts. An empty bag (nothing
between two ';', or before the first or after the last) gives zeros.

Examples:
  embdemo bag --bags "2,3;1,1,0" --dim 5                mean of each bag
  embdemo bag --bags "2,3;1" --dim 5 --mode sum --per-sample-weights "0.5,2;3"
  embdemo bag --bags "2,3;;1" --dim 4 --mode max        winners; empty bag
  embdemo bag --bags "2,0,2;0" --dim 4 --padding-idx 0  padding is skipped

Exit status: 0 (M @ E may differ from the bag's output in the last bits, which
the view measures), 2 for bad input, 1 for a failed write.)";

// --bags stands in for --ids in the shared checks: the bags' ids, in one list, are checked and
// sized like any other ids, after the checks that only --bags can name properly.
std::optional<std::string> prepare_bag_ids(RawOptions& raw) {
    if (raw.ids) {
        return std::string("--ids belongs to the other lessons: embdemo bag reads its ids from --bags "
                           "(allowed: --bags \"2,3;1,1,0\")");
    }
    if (!raw.bags || (!raw.dim && !raw.weights)) {
        return std::string(!raw.bags ? "--bags is" : "--dim is") +
               " required, e.g. embdemo bag --bags \"2,3;1,1,0\" --dim 5; see embdemo bag --help";
    }
    const auto bags = parse_bags(*raw.bags);
    const char* allowed = "bags of comma-separated ids separated by ';', an empty bag as nothing between two ';'";
    if (!bags) return bad_value("--bags", *raw.bags, bags.error(), allowed);
    if (bags.value().ids.empty()) return bad_value("--bags", *raw.bags, "has no id in any bag", "at least one id");
    if (raw.vocab) {
        const auto vocab = parse_bounded("--vocab", *raw.vocab, 1, UINT64_MAX);
        if (!vocab) return vocab.error();
        const Bags& parsed = bags.value();
        for (std::size_t b = 0; b < parsed.count(); ++b) {
            for (std::size_t i = parsed.offsets[b]; i < parsed.offsets[b + 1]; ++i) {
                if (parsed.ids[i] < vocab.value()) continue;
                return fmt::format("--bags: bag {} item {} = {} is out of range for --vocab {} (allowed: ids 0 to {})",
                                   b, i - parsed.offsets[b] + 1, parsed.ids[i], vocab.value(), vocab.value() - 1);
            }
        }
    }
    raw.ids = fmt::format("{}", fmt::join(bags.value().ids, ","));
    return std::nullopt;
}

std::optional<std::string> validate_bag(const RawOptions& raw, Options& options) {
    BagOptions& bag = options.bag;
    bag.bags = parse_bags(*raw.bags).value();  // checked by prepare_bag_ids
    const std::string mode = raw.mode.value_or("mean");
    if (mode == "sum" || mode == "mean" || mode == "max") {
        bag.mode = mode == "sum" ? BagMode::sum : mode == "max" ? BagMode::max : BagMode::mean;
    } else {
        return bad_value("--mode", mode, "is not a mode of nn.EmbeddingBag", "sum, mean, max");
    }
    const std::uint64_t v = options.request.vocab_size;
    if (raw.padding_idx) {
        if (auto problem = parse_padding_idx(*raw.padding_idx, v, bag.padding_idx)) return problem;
    }
    if (raw.per_sample_weights) {
        if (bag.mode != BagMode::sum) {
            return bad_value("--per-sample-weights", *raw.per_sample_weights,
                             "needs --mode sum: PyTorch supports per_sample_weights only for mode='sum'",
                             "--mode sum with --per-sample-weights");
        }
        const auto weights = parse_bag_weights(*raw.per_sample_weights, bag.bags);
        if (!weights) {
            return bad_value("--per-sample-weights", *raw.per_sample_weights, weights.error(),
                             "one finite decimal number per id of --bags, in the same layout");
        }
        bag.per_sample_weights = weights.value();
    }
    const std::uint64_t b = bag.bags.count();
    const std::uint64_t d = options.request.dim;
    if (auto too_big = check_demo_sizes(b, v, d)) return "--bags/--vocab/--dim: the multi-hot product: " + *too_big;
    if (options.format == OutputFormat::text) return std::nullopt;
    return check_printed("bag", v * d + b * v + 2 * b * d);
}

std::optional<std::string> validate_table_lesson(const RawOptions& raw, Options& options) {
    const char* lesson = raw.tied ? "tied" : raw.factor ? "factor" : raw.bag ? "bag" : "positions";
    if (auto problem = check_table_lesson_exclusive(raw, lesson)) return problem;
    if (raw.tied) {
        options.lesson = Lesson::tied;
        return validate_tied(raw, options);
    }
    if (raw.factor) {
        options.lesson = Lesson::factor;
        return validate_factor(raw, options);
    }
    if (raw.bag) {
        options.lesson = Lesson::bag;
        return validate_bag(raw, options);
    }
    options.lesson = Lesson::positions;
    return validate_positions(raw, options);
}

// positions with text and --context T: the first batch of the book's data loader replaces the
// text's ids (B x T windows); --stride and --batch mean nothing without it.
std::optional<std::string> apply_data_loader(const RawOptions& raw, IdBatch& ids, Options& options) {
    const bool loader = raw.positions && ids.source.from_text() && raw.context;
    if (!loader) {
        if (!raw.stride && !raw.batch) return std::nullopt;
        return std::string(raw.stride ? "--stride" : "--batch") +
               " sets the book's data loader, which embdemo positions runs for --text or --text-file with "
               "--context T (allowed: those together)";
    }
    const std::uint64_t n = ids.values.size();
    const auto context = parse_bounded("--context", *raw.context, 1, std::max<std::uint64_t>(n, 1));
    if (!context) return context.error();
    LoaderSettings& settings = options.positions.loader;
    settings.context = context.value();
    settings.stride = settings.context;
    settings.batch = 4;  // create_dataloader_v1's own default
    if (raw.stride) {
        const auto stride = parse_bounded("--stride", *raw.stride, 1, std::max<std::uint64_t>(n, 1));
        if (!stride) return stride.error();
        settings.stride = stride.value();
    }
    if (raw.batch) {
        const auto batch = parse_bounded("--batch", *raw.batch, 1, std::max<std::uint64_t>(n, 1));
        if (!batch) return batch.error();
        settings.batch = batch.value();
    }
    auto first = first_loader_batch(ids, settings);
    if (!first) return std::string(ids_option(raw)) + ": " + first.error();
    ids = std::move(first.value().inputs);
    options.positions.targets = std::move(first.value().targets);
    options.positions.windows = first.value().windows;
    return std::nullopt;
}

// Turns the raw strings into a validated Options, or the first problem found.
CommandLine validate(const RawOptions& raw) {
    if (raw.cost) return validate_cost(raw);
    if (raw.tokens_lesson) return validate_tokens(raw);
    CommandLine result;
    Options& options = result.options;
    DemoRequest& request = options.request;

    const bool need_dim = !raw.dim && !raw.weights;  // a weight file brings its own dim
    const bool has_ids = raw.ids || raw.text || raw.text_file;
    if (!has_ids || need_dim) {
        const char* missing = !has_ids && need_dim ? "--ids and --dim are" : !has_ids ? "--ids is" : "--dim is";
        return fail(std::string(missing) + " required, e.g. embdemo --ids 2,3,1 --dim 5; see embdemo --help");
    }
    if (raw.weights) {
        request.origin.kind = WeightOrigin::Kind::file;
        request.origin.detail = *raw.weights;
    }
    auto ids = read_ids(raw);
    if (!ids) return fail(ids.error());
    if (auto problem = apply_data_loader(raw, ids.value(), options)) return fail(*problem);
    options.id_batch = ids.value();
    request.shape = ids.value().shape();
    request.source = ids.value().source;
    request.ids = std::move(ids.value().values);

    std::uint64_t largest_id = 0;
    for (const std::uint64_t id : request.ids) largest_id = std::max(largest_id, id);
    if (raw.vocab) {
        const auto vocab = parse_bounded("--vocab", *raw.vocab, 1, UINT64_MAX);
        if (!vocab) return fail(vocab.error());
        request.vocab_size = vocab.value();
        for (std::size_t i = 0; i < request.ids.size(); ++i) {
            if (request.ids[i] >= request.vocab_size) {
                const std::string token = request.source.from_text() ? " \"" + request.source.token_of(request.ids[i]) + "\"" : "";
                return fail(std::string(ids_option(raw)) + ": ids[" + index_text(request.shape, i) + "] = " +
                            std::to_string(request.ids[i]) + token + " is out of range for --vocab " +
                            std::to_string(request.vocab_size) + " (allowed: ids 0 to " +
                            std::to_string(request.vocab_size - 1) + ")");
            }
        }
    } else if (request.source.from_text() && !raw.weights) {
        request.vocab_size = k_gpt2_vocab_size;  // the table the tokenizer's ids index
    } else if (!raw.weights) {
        if (largest_id == UINT64_MAX) {
            return fail("--ids: id " + std::to_string(largest_id) +
                        " leaves no room for a vocab of largest id + 1 (allowed: ids below 2^64-1)");
        }
        request.vocab_size = largest_id + 1;
        request.vocab_inferred = true;
    }

    if (raw.dim) {
        const auto dim = parse_bounded("--dim", *raw.dim, 1, UINT64_MAX);
        if (!dim) return fail(dim.error());
        request.dim = dim.value();
    }

    if (raw.seed) {
        const auto seed = parse_bounded("--seed", *raw.seed, 0, UINT64_MAX);
        if (!seed) return fail(seed.error());
        request.seed = seed.value();
    }

    const auto format = find_named(k_formats, raw.format);
    if (!format) return fail(bad_value("--format", raw.format, "is not a known format", names_of(k_formats)));
    options.format = *format;
    if (auto problem = check_picture_format(raw, options)) return fail(*problem);
    if (raw.show) {
        auto show = parse_matrix_selection(*raw.show);
        if (!show) {
            return fail(bad_value("--show", *raw.show, show.error(),
                                  "comma-separated names from weight, onehot, lookup, onehot_matmul, linear_output"));
        }
        options.show = std::move(show.value());
    }
    options.save_weights = raw.save_weights.value_or("");
    options.export_projector = raw.export_projector.value_or("");
    options.labels = raw.labels.value_or("");
    if (auto problem = check_combinations(raw, options)) return fail(*problem);
    if (auto problem = validate_max_norm(raw, options)) return fail(*problem);

    if (raw.max_memory) {
        const auto budget = parse_memory_size(*raw.max_memory);
        if (!budget) {
            return fail(bad_value("--max-memory", *raw.max_memory, budget.error(),
                                  "a size of at least 1M: bytes, or a number with K, M, G or T, e.g. 512M, 4G"));
        }
        options.max_memory = budget.value();
    }

    const auto precision = parse_bounded("--precision", raw.precision, 0, k_max_precision);
    if (!precision) return fail(precision.error());
    options.precision = static_cast<int>(precision.value());

    const auto color = find_named(k_color_modes, raw.color);
    if (!color) return fail(bad_value("--color", raw.color, "is not a known mode", names_of(k_color_modes)));
    options.color = *color;
    const auto palette = find_named(k_palettes, raw.palette);
    if (!palette) return fail(bad_value("--palette", raw.palette, "is not a known palette", names_of(k_palettes)));
    options.palette = *palette;

    // With --weights the sizes are checked against the file's header, before its data is read;
    // bag's product is B x V x d, checked by validate_bag.
    if (auto too_big = check_demo_sizes(request.ids.size(), request.vocab_size, request.dim);
        too_big && !raw.weights && !raw.bag) {
        return fail("--ids/--vocab/--dim: " + *too_big);
    }
    if (auto problem = validate_init(raw, request)) return fail(*problem);
    if (!raw.weights && !raw.grad && !is_table_lesson(raw)) {  // a file's sizes are checked once its header is read
        if (auto too_big = check_output_size(options, request)) return fail(*too_big);
    }
    if (auto problem = validate_view(raw, options)) return fail(*problem);
    if (raw.grad) {
        if (auto problem = validate_grad(raw, options)) return fail(*problem);
    }
    if (is_table_lesson(raw)) {
        if (auto problem = validate_table_lesson(raw, options)) return fail(*problem);
    }
    result.run = true;
    return result;
}

// CLI11's own messages, made one line and safe to print.
std::string describe_parse_error(const CLI::ParseError& error) {
    std::string message = error.what();
    for (char& ch : message) {
        if (ch == '\n') ch = ' ';
    }
    while (!message.empty() && message.back() == ' ') message.pop_back();
    return escape_for_message(message) + "; see embdemo --help";
}

// An option given twice, or one whose value is missing ("--dim" at the very end).
std::string describe_mismatch(const CLI::App& app, const CLI::ArgumentMismatch& error) {
    for (const CLI::Option* option : app.get_options()) {
        if (option->count() > 1) {
            return option->get_name() + " was given " + std::to_string(option->count()) +
                   " times (allowed: once)";
        }
    }
    const std::string what = error.what();
    const std::string option = what.substr(0, what.find(':'));
    if (option.rfind("--", 0) == 0) return option + " needs a value; see embdemo --help";
    return describe_parse_error(error);
}

// The first word on the command line that is not an option embdemo knows.
std::string describe_extra(const std::string& word) {
    if (word == "--") {
        return std::string("unexpected \"--\" (allowed: options only; embdemo takes no other "
                           "arguments)");
    }
    if (word.size() > 1 && word[0] == '-') {
        return "unknown option " + quote_for_message(word) +
               " (allowed: the options listed by embdemo --help)";
    }
    return "unexpected argument " + quote_for_message(word) +
           " (allowed: options only, e.g. embdemo --ids 2,3,1 --dim 5)";
}

// CLI11 2.1.2 reads "--opt=" with nothing after the "=" as "--opt" and takes the next word as
// the value ("--export-projector= --trace" made a directory named "--trace"), so an empty
// value is caught here, before CLI11 sees it.
std::optional<std::string> find_empty_value(const CLI::App& app, int argc, const char* const argv[]) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "--") break;
        if (word.size() < 4 || word.substr(0, 2) != "--" || word.find('=') != word.size() - 1) continue;
        const std::string option(word.substr(0, word.size() - 1));
        const CLI::Option* known = app.get_option_no_throw(option);
        for (const CLI::App* lesson : app.get_subcommands([](const CLI::App*) { return true; })) {
            if (known == nullptr) known = lesson->get_option_no_throw(option);
        }
        if (known == nullptr || known->get_expected_min() == 0) continue;  // unknown or a flag: CLI11's case
        return bad_value(option.c_str(), "", "is empty",
                         "a value after the \"=\", or " + option + " VALUE");
    }
    return std::nullopt;
}

}  // namespace

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
    for (const auto& [name, format] : k_formats) {
        if (format == options.format) return "--format " + std::string(name) + ": " + *too_big;
    }
    return too_big;
}

struct CommandLineParser::Parts {
    CLI::App app{k_description, "embdemo"};
    RawOptions raw;  // the variables app's options fill; back to their defaults after each parse
    CLI::App* grad = nullptr;
    CLI::App* cost = nullptr;
    CLI::App* bench = nullptr;
    CLI::App* positions = nullptr;
    CLI::App* tied = nullptr;
    CLI::App* factor = nullptr;
    CLI::App* tokens = nullptr;
    CLI::App* bag = nullptr;

    Parts() {
        app.set_version_flag("--version", std::string("embdemo ") + EMBDEMO_VERSION);
        app.footer(k_footer);
        app.get_formatter()->column_width(26);
        app.allow_extras();  // reported by describe_extra, in our words
        declare_options(app, raw);
        // Lessons are subcommands; the shared options stay on the main command and may follow the
        // lesson's name (fallthrough), so they are parsed and validated in one place.
        CLI::App* lookup = app.add_subcommand("lookup", "the notebook's demonstration (the default)");
        lookup->fallthrough();
        grad = app.add_subcommand("grad", "the backward pass two ways: only used rows get a gradient");
        grad->fallthrough();
        grad->footer(k_grad_footer);
        declare_grad_options(*grad, raw);
        cost = app.add_subcommand("cost", "the analytic cost of both forms for n, V, d or a real model");
        cost->fallthrough();
        cost->footer(k_cost_footer);
        declare_cost_options(*cost, raw);
        // Listed here for --help; `embdemo bench ...` itself is handed over before parsing.
        bench = app.add_subcommand("bench", "time both forms on this machine (embdemo bench --help)");
        bench->allow_extras();
        const auto add_lesson = [this](const char* name, const char* description, std::string footer) {
            CLI::App* lesson = app.add_subcommand(name, description);
            lesson->fallthrough();
            lesson->footer(std::move(footer));
            return lesson;
        };
        const std::string shared = k_table_lesson_shared;
        positions = add_lesson("positions", "token + position tables: E[ids] + P[0..T)", shared + k_positions_footer);
        declare_positions_options(*positions, raw);
        tied = add_lesson("tied", "the output layer reuses E: logits = H @ E.T", shared + k_tied_footer);
        declare_tied_options(*tied, raw);
        factor = add_lesson("factor", "ALBERT's factorised table: E1[ids] @ E2", shared + k_factor_footer);
        declare_factor_options(*factor, raw);
        tokens = add_lesson("tokens", "GPT-2's tokenizer step by step: text -> pieces -> merges -> ids",
                            k_tokens_footer);
        declare_tokens_options(*tokens, raw);
        bag = add_lesson("bag", "nn.EmbeddingBag as a multi-hot product (sum, mean, max)", k_bag_footer);
        declare_bag_options(*bag, raw);
        app.require_subcommand(0, 1);
    }
};

CommandLineParser::CommandLineParser() : m_parts(std::make_unique<Parts>()) {}
CommandLineParser::~CommandLineParser() = default;

CommandLine CommandLineParser::parse(int argc, const char* const argv[]) {
    // git-style: `embdemo bench ARGS` runs the separate program embdemo-bench with ARGS, which
    // parses them itself (it alone links a BLAS, which would slow every embdemo start).
    if (argc >= 2 && std::string_view(argv[1]) == "bench") {
        CommandLine result;
        result.run = true;
        result.options.lesson = Lesson::bench;
        result.options.bench_args.assign(argv + 2, argv + argc);
        return result;
    }
    CLI::App& app = m_parts->app;
    RawOptions& raw = m_parts->raw;
    // Every parse leaves the parser as built, so the next one starts from nothing given, and the
    // strings this one read are freed with it (libFuzzer takes memory kept past a run for a
    // leak; CLI11 keeps only its own processed copy of each option's last value).
    struct Reset {
        Parts& parts;
        ~Reset() {
            parts.app.clear();
            parts.raw = RawOptions{};
        }
    } reset{*m_parts};
    if (auto empty = find_empty_value(app, argc, argv)) return fail(*empty);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        CommandLine result;
        result.stdout_text = app.help();
        return result;
    } catch (const CLI::CallForVersion& version) {
        CommandLine result;
        result.stdout_text = std::string(version.what()) + '\n';
        return result;
    } catch (const CLI::ArgumentMismatch& error) {
        return fail(describe_mismatch(app, error));
    } catch (const CLI::ParseError& error) {
        return fail(describe_parse_error(error));
    }
    if (!app.remaining().empty()) return fail(describe_extra(app.remaining().front()));
    raw.grad = m_parts->grad->parsed();
    raw.cost = m_parts->cost->parsed();
    if (m_parts->bench->parsed()) {
        return fail("bench must be the first word: embdemo bench [OPTIONS] (its options: embdemo bench --help)");
    }
    for (const CLI::Option* option : app.get_options()) {
        if (option->count() > 0) raw.shared_given.push_back(option->get_name());
    }
    raw.positions = m_parts->positions->parsed();
    raw.tied = m_parts->tied->parsed();
    raw.factor = m_parts->factor->parsed();
    raw.bag = m_parts->bag->parsed();
    raw.tokens_lesson = m_parts->tokens->parsed();
    if (raw.bag) {
        if (auto problem = prepare_bag_ids(raw)) return fail(*problem);
    }
    raw.precision_given = app.count("--precision") > 0;
    return validate(raw);
}

CommandLine parse_command_line(int argc, const char* const argv[]) {
    return CommandLineParser().parse(argc, argv);
}

}  // namespace embdemo
