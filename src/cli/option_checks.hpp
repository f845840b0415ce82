// What the option parser hands its validators (cli/command_line.cpp declares the options with
// CLI11; validate_options.cpp, prepare_inputs.cpp, validate_max_norm.cpp and each lesson's checks
// in cli/lessons/, which do not include CLI11, turn the raw strings into Options) and the value
// checks they share. Internal to src/cli.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/options.hpp"
#include "core/named_values.hpp"
#include "io/text_input.hpp"
#include "core/ids.hpp"
#include "core/parse_result.hpp"

namespace embdemo::option_checks {

constexpr std::uint64_t k_max_precision = 9;
constexpr std::size_t k_max_traced_positions = 64;
constexpr std::uint64_t k_max_steps = 100;  // each step is a screenful

struct RawOptions {
    const LessonSpec* lesson = &k_lookup_lesson;  // the subcommand given, or the default
    std::optional<std::string> ids;
    std::optional<std::string> text;       // --text: GPT-2 tokens instead of --ids
    std::optional<std::string> text_file;  // --text-file
    std::optional<std::string> tokenizer;   // --tokenizer: which cuts the text (default gpt2)
    std::optional<std::string> vocab_size;  // --vocab-size: unigram's and bpe's trained size
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
    bool timing = false;
    std::vector<std::string> shared_given;  // the main command's options on the command line
    // The data loader over a text (--context T --stride S --batch B), which every lesson but
    // cost and tokens takes; positions also reads --context alone as C.
    std::optional<std::string> context;
    std::optional<std::string> stride;
    std::optional<std::string> batch;
    // nn.Embedding's max_norm and norm_type: the lookup and grad lessons.
    std::optional<std::string> max_norm;
    std::optional<std::string> norm_type;
    // The lesson's own options (its LessonHelp), by name: "--rank" -> "8", a flag given -> "".
    std::map<std::string, std::string, std::less<>> own;

    // The value of the lesson's own option `name`, or null when it was not given.
    const std::string* value(std::string_view name) const {
        const auto found = own.find(name);
        return found == own.end() ? nullptr : &found->second;
    }
    std::string value_or(std::string_view name, const char* fallback) const {
        const std::string* given = value(name);
        return given != nullptr ? *given : fallback;
    }
    bool flag(std::string_view name) const { return own.find(name) != own.end(); }
};

inline constexpr NamedValue<OutputFormat> k_formats[] = {
    {"text", OutputFormat::text}, {"json", OutputFormat::json}, {"csv", OutputFormat::csv},
    {"tsv", OutputFormat::tsv}, {"markdown", OutputFormat::markdown}, {"svg", OutputFormat::svg},
    {"html", OutputFormat::html}, {"python", OutputFormat::python}, {"ipynb", OutputFormat::ipynb}};

inline constexpr NamedValue<ColorMode> k_color_modes[] = {
    {"auto", ColorMode::automatic}, {"always", ColorMode::always}, {"never", ColorMode::never}};

inline constexpr NamedValue<PaletteMode> k_palettes[] = {
    {"auto", PaletteMode::automatic}, {"dark", PaletteMode::dark}, {"light", PaletteMode::light}};


// The shared options only the lookup lesson reads (check_lookup_only refuses them elsewhere), and
// those the table lessons refuse besides (check_table_lesson_exclusive, validate_max_norm).
inline constexpr const char* k_lookup_only_options[] = {"--trace-positions", "--walkthrough", "--pause", "--timing", "--show",
                                                        "--save-weights", "--export-projector", "--labels"};
inline constexpr const char* k_table_lesson_refused_options[] = {"--max-memory", "--weights", "--max-norm", "--norm-type"};

// The checks the lessons share (option_checks.cpp). A std::optional<std::string> is the problem
// found, as one line for stderr; nullopt means the value is good.
CommandLine fail(std::string message);
std::string bad_value(const char* option, const std::string& text, const std::string& problem,
                      const std::string& allowed);
ParseResult<std::uint64_t> parse_bounded(const char* option, const std::string& text, std::uint64_t min,
                                         std::uint64_t max);
// parse_bounded's value stored into `target` (an integer field), or the problem.
template <typename Target>
std::optional<std::string> read_bounded(const char* option, const std::string& text, std::uint64_t min,
                                        std::uint64_t max, Target& target) {
    const auto parsed = parse_bounded(option, text, min, max);
    if (!parsed) return parsed.error();
    target = static_cast<Target>(parsed.value());
    return std::nullopt;
}
std::optional<std::string> parse_real(const char* option, const std::string& text, double min, double& value);
std::optional<std::string> parse_positive(const char* option, const std::string& text, const char* allowed,
                                          double& value);
std::optional<std::string> parse_padding_idx(const std::string& text, std::uint64_t vocab_size,
                                             std::optional<std::int64_t>& padding_idx);
// A shared option given that the lesson does not read (one not in its LessonSpec::shared_options),
// or null: those lessons refuse it rather than ignore it.
const std::string* unread_shared_option(const RawOptions& raw);
// The message when --seed would not draw anything because --weights fills E.
std::string seed_with_weights();
std::optional<std::string> check_path(const char* option, const std::optional<std::string>& path, const char* allowed);
std::optional<std::string> check_lookup_only(const RawOptions& raw, const char* lesson);
std::optional<std::string> check_table_lesson_exclusive(const RawOptions& raw, const char* lesson);
std::optional<std::string> check_lesson_format(const RawOptions& raw, OutputFormat format);
std::optional<std::string> check_printed(const char* lesson, OutputFormat format, std::uint64_t printed);
const char* ids_option(const RawOptions& raw);
// The options given that set n, V and d, "--text-file/--context/--batch/--dim", for size messages.
std::string size_options(const RawOptions& raw);
ParseResult<GivenText> given_text(const RawOptions& raw);
ParseResult<IdBatch> read_ids(const RawOptions& raw);
// --tokenizer and --vocab-size, from the words alone (no file opened): refused without a text,
// a name that is no tokenizer, --vocab-size for a tokenizer that is not trained.
ParseResult<TextTokenizer> text_tokenizer(const RawOptions& raw);


// The whole validation: the shared options, then the lesson's own (validate_options.cpp).
CommandLine validate(const RawOptions& raw);

// --max-norm/--norm-type, for the lookup and grad lessons (validate_max_norm.cpp).
std::optional<std::string> validate_max_norm(const RawOptions& raw, Options& options);

// The prepare step every lesson takes unless its LessonChecks::prepare replaces it
// (prepare_inputs.cpp): the ids from --ids, --text or --text-file, a text read and tokenised,
// and with --context the book's data loader's first batch in their place.
ParseResult<IdBatch> prepare_ids(const RawOptions& raw);
std::optional<std::string> apply_data_loader(const RawOptions& raw, IdBatch& ids);

}  // namespace embdemo::option_checks

namespace embdemo {

// A message when the machine format asked for would print more values than
// k_max_printed_values for the request's sizes; nullopt when it fits or the view summarises.
std::optional<std::string> check_output_size(const Options& options, const DemoRequest& request);

}  // namespace embdemo
