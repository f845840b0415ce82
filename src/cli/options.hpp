// What a parsed command line asks for: the validated Options of one lesson, or the text to print
// and the status to exit with (help, version, or a one-line error). The parser is
// cli/command_line; the checks that fill Options, cli/option_checks, cli/validate_* and each
// lesson's own (its LessonChecks, in cli/lessons/).
#pragma once

#include <any>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/terminal.hpp"
#include "core/ids.hpp"
#include "core/kernels/max_norm.hpp"
#include "core/memory.hpp"
#include "core/lessons/report.hpp"
#include "core/lessons/report_matrices.hpp"
#include "render/formats/output_format.hpp"

namespace embdemo {

// The lessons, one subcommand each (cli/lessons/lesson.hpp); the notebook's demonstration, the
// lookup, is the default.
struct LessonSpec;
extern const LessonSpec k_lookup_lesson;

struct Options {
    const LessonSpec* lesson = &k_lookup_lesson;
    IdBatch id_batch;     // --ids as written: a list, or a batch of rows
    // The lesson's own settings, of a type only its cli/lessons files know: filled by its
    // checks (LessonChecks), read by its run, through own_settings<T>.
    std::any own;
    std::vector<std::string> bench_args;  // embdemo bench: the words after "bench", for embdemo-bench
    DemoRequest request;  // with --weights, vocab_size and dim are 0 unless given: the file decides
    OutputFormat format = OutputFormat::text;
    bool notebook = false;  // --format ipynb: `format` is python, written as a notebook
    View view = View::plain;
    std::vector<std::size_t> trace_positions;  // empty: the default positions
    bool pause = false;  // wait for Enter between steps (only ever when stdin is a terminal)
    bool timing = false;  // --timing: both forms' measured times (never shown unasked: they change)
    MatrixSelection show;  // json, csv, tsv, markdown: only these matrices (empty: all)
    int precision = 4;
    ColorMode color = ColorMode::automatic;
    PaletteMode palette = PaletteMode::automatic;
    std::string save_weights;      // --save-weights FILE.npy, or empty
    std::string export_projector;  // --export-projector DIR, or empty
    std::string labels;            // --labels FILE for the projector's metadata, or empty
    std::string text_file;         // --text-file FILE (read while validating), or empty: an input
    // The lesson's own input files by option ("--upstream", path): no output may replace one.
    std::vector<std::pair<const char*, std::string>> lesson_inputs;
    std::uint64_t max_memory = k_default_memory_budget;  // --max-memory, in bytes
    std::optional<MaxNorm> max_norm;  // --max-norm/--norm-type: the lookup and grad lessons only
    // The options the user typed that set the sizes, for messages about them:
    // "--ids/--vocab/--dim", or "--text-file/--context/--batch/--dim".
    std::string size_options = "--ids/--vocab/--dim";
};

// The lesson's own settings in `options`, made (default) on first use by its checks.
template <typename Settings>
Settings& own_settings(Options& options) {
    if (!options.own.has_value()) options.own.emplace<Settings>();
    return std::any_cast<Settings&>(options.own);
}

template <typename Settings>
const Settings& own_settings(const Options& options) {
    return std::any_cast<const Settings&>(options.own);
}

struct CommandLine {
    bool run = false;        // true: go ahead with `options`
    Options options;
    int exit_code = 0;       // when !run: the status to exit with
    std::string stdout_text; // when !run: help or version text
    std::string error;       // when !run: one line for stderr, without the "embdemo: error: " prefix
};

}  // namespace embdemo
