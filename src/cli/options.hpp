// What a parsed command line asks for: the validated Options of one lesson, or the text to print
// and the status to exit with (help, version, or a one-line error). The parser is
// cli/command_line; the checks that fill Options, cli/option_checks and cli/validate_*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/terminal.hpp"
#include "core/lessons/cost.hpp"
#include "core/lessons/bag_lesson.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "core/gpt2/data_loader.hpp"
#include "core/ids.hpp"
#include "core/kernels/position_encodings.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "core/kernels/max_norm.hpp"
#include "core/kernels/optim.hpp"
#include "core/memory.hpp"
#include "core/lessons/report.hpp"
#include "core/lessons/report_matrices.hpp"
#include "render/formats/output_format.hpp"

namespace embdemo {

// The lessons, one subcommand each; the notebook's demonstration is the default.
enum class Lesson { lookup, grad, cost, bench, positions, tied, factor, bag, tokens };

// `embdemo grad`'s own options.
struct GradOptions {
    std::optional<std::int64_t> padding_idx;  // -V <= K < V, checked
    bool scale_grad_by_freq = false;
    UpstreamSource upstream = UpstreamSource::randn;
    std::string upstream_file;  // with UpstreamSource::file
    std::optional<OptimizerSettings> optimizer;  // --optimizer: steps instead of one backward
    std::size_t steps = 1;
    bool sparse = false;   // --sparse: nn.Embedding(sparse=True)
    std::size_t top = 3;   // --top: swaps per position in the text view, 1 to min(10, V)
    bool top_given = false;  // --top was given: a --weights file's V can still refuse it
};

// `embdemo positions`' own option.
struct PositionsOptions {
    std::uint64_t context = 0;   // C >= T, rows of the position table
    bool context_inferred = false;  // --context not given: C = T
    PositionEncoding encoding = PositionEncoding::learned;
    bool encoding_given = false;
    std::vector<std::uint64_t> targets;  // the data loader's (--context T with text), or empty
    LoaderSettings loader;
    std::size_t windows = 0;
};

// `embdemo tied`'s own options.
struct TiedOptions {
    std::size_t top = 5;       // 1 <= K <= V; default min(5, V)
    std::string hidden_file;   // --hidden FILE (n x d), or empty for H = E[ids]
};

// `embdemo factor`'s own option.
struct FactorOptions {
    std::uint64_t rank = 0;  // 1 <= r < d
};

// `embdemo bag`'s own options; --bags also stands in for --ids in the shared checks.
struct BagOptions {
    Bags bags;
    BagMode mode = BagMode::mean;
    std::optional<std::int64_t> padding_idx;  // -V <= K < V, checked
    std::vector<float> per_sample_weights;    // one per id, or empty
};

struct Options {
    Lesson lesson = Lesson::lookup;
    IdBatch id_batch;     // --ids as written: a list, or a batch of rows
    GradOptions grad;
    CostRequest cost;                     // embdemo cost: the sizes, checked
    std::vector<std::string> bench_args;  // embdemo bench: the words after "bench", for embdemo-bench
    PositionsOptions positions;
    TiedOptions tied;
    FactorOptions factor;
    BagOptions bag;
    TokensRequest tokens;  // embdemo tokens: the text, checked
    DemoRequest request;  // with --weights, vocab_size and dim are 0 unless given: the file decides
    OutputFormat format = OutputFormat::text;
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
    std::uint64_t max_memory = k_default_memory_budget;  // --max-memory, in bytes
    std::optional<MaxNorm> max_norm;  // --max-norm/--norm-type: the lookup and grad lessons only
    // The options the user typed that set the sizes, for messages about them:
    // "--ids/--vocab/--dim", or "--text-file/--context/--batch/--dim".
    std::string size_options = "--ids/--vocab/--dim";
};

struct CommandLine {
    bool run = false;        // true: go ahead with `options`
    Options options;
    int exit_code = 0;       // when !run: the status to exit with
    std::string stdout_text; // when !run: help or version text
    std::string error;       // when !run: one line for stderr, without the "embdemo: error: " prefix
};

}  // namespace embdemo
