#include "cli/options.hpp"

#include <optional>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.hpp"
#include "core/escape.hpp"
#include "core/ids.hpp"
#include "core/init.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

constexpr const char* k_description =
    "embdemo shows that an embedding layer is a linear layer applied to one-hot vectors: it builds "
    "E exactly as torch.manual_seed(SEED); torch.nn.Embedding(VOCAB, DIM) does, then prints the "
    "lookup E[ids] and the one-hot product one_hot(ids) @ E side by side, and checks that they "
    "are identical bit for bit.";

constexpr const char* k_footer = R"(Examples:
  embdemo --ids 2,3,1 --dim 5                 the notebook's example (PyTorch seed 123)
  embdemo --ids 2,3,1 --dim 5 --format json   the same numbers as JSON, for scripts
  embdemo --ids 2,3,1 --dim 5 --trace         one id at a time, every step written out
  embdemo --ids 2,3,1 --dim 5 --walkthrough   the notebook as a narrated lesson
  embdemo --ids 2,3,1 --dim 3 --init index    hand-checkable numbers: E[k][j] = 10*k + j

Exit status:
  0  the lookup and the one-hot product are identical
  1  failure while writing the output (e.g. a full disk)
  2  bad command line or input (one line on stderr, nothing on stdout)
  3  the two results differ

Colour is used only on a terminal; NO_COLOR, TERM=dumb and --color are respected.)";

constexpr std::uint64_t k_max_precision = 9;  // float32 never needs more digits than that

struct RawOptions {
    std::optional<std::string> ids;
    std::optional<std::string> vocab;
    std::optional<std::string> dim;
    std::string seed = "123";
    std::string format = "text";
    std::string precision = "4";
    std::string color = "auto";
    std::string init = "torch";
    bool trace = false;
    std::optional<std::string> trace_positions;
    bool walkthrough = false;
    bool pause = false;
};

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

void declare_options(CLI::App& app, RawOptions& raw) {
    const auto single = [](CLI::Option* option) {
        return option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    };
    single(app.add_option("--ids", raw.ids,
                          "token ids, comma-separated non-negative decimal integers, e.g. 2,3,1 "
                          "(repeats allowed)"))
        ->type_name("LIST");
    single(app.add_option("--vocab", raw.vocab,
                          "vocabulary size V (rows of E); default: largest id + 1, as in the notebook"))
        ->type_name("V");
    single(app.add_option("--dim", raw.dim, "embedding dimension d (columns of E)"))->type_name("D");
    single(app.add_option("--seed", raw.seed, "torch.manual_seed value, 0 to 2^64-1"))
        ->type_name("SEED")
        ->capture_default_str();
    single(app.add_option("--format", raw.format, "output format: text or json"))
        ->type_name("FORMAT")
        ->capture_default_str();
    single(app.add_option("--precision", raw.precision, "decimals in the text view, 0 to 9"))
        ->type_name("P")
        ->capture_default_str();
    single(app.add_option("--color", raw.color, "colour: auto, always or never"))
        ->type_name("WHEN")
        ->capture_default_str();
    single(app.add_option("--init", raw.init,
                          "how E is filled: torch (nn.Embedding), index (E[k][j] = 10*k + j), "
                          "randint (torch.randint(-9, 10, ...))"))
        ->type_name("KIND")
        ->capture_default_str();
    single(app.add_flag("--trace", raw.trace,
                        "trace every id step by step: one-hot row, copied row, the dot product "
                        "written out, the nn.Linear view"));
    single(app.add_option("--trace-positions", raw.trace_positions,
                          "with --trace: only these positions of --ids, e.g. 0,2 (default: the "
                          "first 8)"))
        ->type_name("LIST");
    single(app.add_flag("--walkthrough", raw.walkthrough,
                        "a narrated classroom run of the notebook, step by step"));
    single(app.add_flag("--pause", raw.pause,
                        "with --trace or --walkthrough: wait for Enter between steps (only when "
                        "stdin is a terminal)"));
}

std::optional<std::string> validate_init(const std::string& init, DemoRequest& request) {
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
        for (const std::uint64_t position : positions.value()) {
            if (position >= count) {
                return bad_value("--trace-positions", *raw.trace_positions,
                                 "position " + std::to_string(position) + " is past the last id",
                                 allowed);
            }
            options.trace_positions.push_back(static_cast<std::size_t>(position));
        }
    }
    return std::nullopt;
}

// Turns the raw strings into a validated Options, or the first problem found.
CommandLine validate(const RawOptions& raw) {
    CommandLine result;
    Options& options = result.options;
    DemoRequest& request = options.request;

    if (!raw.ids || !raw.dim) {
        const char* missing = !raw.ids && !raw.dim ? "--ids and --dim are" : !raw.ids ? "--ids is" : "--dim is";
        return fail(std::string(missing) + " required, e.g. embdemo --ids 2,3,1 --dim 5; see embdemo --help");
    }
    auto ids = parse_id_list(*raw.ids);
    if (!ids) {
        return fail(bad_value("--ids", *raw.ids, ids.error(),
                              "comma-separated non-negative decimal token ids, e.g. 2,3,1"));
    }
    request.ids = std::move(ids.value());

    std::uint64_t largest_id = 0;
    for (const std::uint64_t id : request.ids) largest_id = std::max(largest_id, id);
    if (raw.vocab) {
        const auto vocab = parse_bounded("--vocab", *raw.vocab, 1, UINT64_MAX);
        if (!vocab) return fail(vocab.error());
        request.vocab_size = vocab.value();
        for (std::size_t i = 0; i < request.ids.size(); ++i) {
            if (request.ids[i] >= request.vocab_size) {
                return fail("--ids: id " + std::to_string(request.ids[i]) + " (item " +
                            std::to_string(i + 1) + ") is out of range for --vocab " +
                            std::to_string(request.vocab_size) + " (allowed: ids 0 to " +
                            std::to_string(request.vocab_size - 1) + ")");
            }
        }
    } else {
        if (largest_id == UINT64_MAX) {
            return fail("--ids: id " + std::to_string(largest_id) +
                        " leaves no room for a vocab of largest id + 1 (allowed: ids below 2^64-1)");
        }
        request.vocab_size = largest_id + 1;
        request.vocab_inferred = true;
    }

    const auto dim = parse_bounded("--dim", *raw.dim, 1, UINT64_MAX);
    if (!dim) return fail(dim.error());
    request.dim = dim.value();

    const auto seed = parse_bounded("--seed", raw.seed, 0, UINT64_MAX);
    if (!seed) return fail(seed.error());
    request.seed = seed.value();

    if (raw.format == "text") {
        options.format = OutputFormat::text;
    } else if (raw.format == "json") {
        options.format = OutputFormat::json;
    } else {
        return fail(bad_value("--format", raw.format, "is not a known format", "text, json"));
    }

    const auto precision = parse_bounded("--precision", raw.precision, 0, k_max_precision);
    if (!precision) return fail(precision.error());
    options.precision = static_cast<int>(precision.value());

    if (raw.color == "auto") {
        options.color = ColorMode::automatic;
    } else if (raw.color == "always") {
        options.color = ColorMode::always;
    } else if (raw.color == "never") {
        options.color = ColorMode::never;
    } else {
        return fail(bad_value("--color", raw.color, "is not a known mode", "auto, always, never"));
    }

    if (auto too_big = check_demo_sizes(request.ids.size(), request.vocab_size, request.dim)) {
        return fail("--ids/--vocab/--dim: " + *too_big);
    }
    if (auto problem = validate_init(raw.init, request)) return fail(*problem);
    if (auto problem = validate_view(raw, options)) return fail(*problem);
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

}  // namespace

CommandLine parse_command_line(int argc, const char* const argv[]) {
    CLI::App app{k_description, "embdemo"};
    app.set_version_flag("--version", std::string("embdemo ") + EMBDEMO_VERSION);
    app.footer(k_footer);
    app.get_formatter()->column_width(26);
    RawOptions raw;
    declare_options(app, raw);

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
    } catch (const CLI::ParseError& error) {
        return fail(describe_parse_error(error));
    }
    return validate(raw);
}

}  // namespace embdemo
