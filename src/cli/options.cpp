#include "cli/options.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/option_checks.hpp"
#include "core/escape.hpp"
#include "core/gpt2_tokenizer.hpp"
#include "core/init.hpp"
#include "core/limits.hpp"
#include "core/report_matrices.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

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
    // The other lessons refuse --trace-positions and --pause by name (check_lookup_only), with or
    // without --trace: "needs --trace" would send the user to a second refusal.
    const bool lookup = !raw.grad && !is_table_lesson(raw);
    if (lookup && raw.trace_positions && !raw.trace) {
        return std::string("--trace-positions needs --trace");
    }
    if (lookup && raw.pause && !view) return std::string("--pause needs --trace or --walkthrough");
    options.view = raw.trace ? View::trace : raw.walkthrough ? View::walkthrough : View::plain;
    options.pause = raw.pause;
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

// ---- The table lessons: positions (and, below, tied, factor, bag) ----

void declare_positions_options(CLI::App& positions, RawOptions& raw) {
    positions.add_option("--context", raw.context, "rows of the position table C, at least T (default T)")
        ->type_name("C")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    positions.add_option("--encoding", raw.encoding, "learned (default), sinusoidal or rope")
        ->type_name("KIND")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    positions.add_option("--stride", raw.stride, "with --text and --context: the loader's S (default T)")
        ->type_name("S")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    positions.add_option("--batch", raw.batch, "with --text and --context: the loader's B (default 4)")
        ->type_name("B")
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
}

// The first lines of the help footer of positions, tied and factor.
constexpr const char* k_table_lesson_shared = R"(The shared options --ids, --vocab, --dim, --seed, --format (text, json, csv,
tsv, markdown), --precision, --color and --palette work here as in embdemo
--help.
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
--format (text, json, csv, tsv, markdown), --precision, --color and --palette
work as in embdemo --help. After torch.manual_seed(SEED), bag =
nn.EmbeddingBag(V, D, mode=MODE, padding_idx=K) is called as bag(input,
offsets), input being the bags' ids in one list and offsets where each bag
starts. An empty bag (nothing between two ';', or before the first or after the
last) gives zeros. --trace adds up the first 8 bags (and the one where M @ E
differs most) step by step, in the kernel's order and, for sum and mean, in
M @ E's.

Examples:
  embdemo bag --bags "2,3;1,1,0" --dim 5                mean of each bag
  embdemo bag --bags "2,3;1" --dim 5 --mode sum --per-sample-weights "0.5,2;3"
  embdemo bag --bags "2,3;;1" --dim 4 --mode max        winners; empty bag
  embdemo bag --bags "2,0,2;0" --dim 4 --padding-idx 0  padding is skipped
  embdemo bag --bags "2,3,3" --dim 3 --trace            where an ulp comes from

Exit status: 0 (M @ E may differ from the bag's output in the last bits, which
the view measures), 2 for bad input, 1 for a failed write.)";

// The ids (from --ids, --text or --text-file), V, d and the seed.
std::optional<std::string> validate_sizes(const RawOptions& raw, Options& options) {
    DemoRequest& request = options.request;
    const bool need_dim = !raw.dim && !raw.weights;  // a weight file brings its own dim
    const bool has_ids = raw.ids || raw.text || raw.text_file;
    if (!has_ids || need_dim) {
        const char* missing = !has_ids && need_dim ? "--ids and --dim are" : !has_ids ? "--ids is" : "--dim is";
        return std::string(missing) + " required, e.g. embdemo --ids 2,3,1 --dim 5; see embdemo --help";
    }
    if (raw.weights) {
        request.origin.kind = WeightOrigin::Kind::file;
        request.origin.detail = *raw.weights;
    }
    auto ids = read_ids(raw);
    if (!ids) return ids.error();
    if (auto problem = apply_data_loader(raw, ids.value(), options)) return *problem;
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
        request.vocab_size = k_gpt2_vocab_size;  // the table the tokenizer's ids index
        request.vocab_source = DemoRequest::VocabSource::gpt2_tokenizer;
    } else if (!raw.weights) {
        if (largest_id == UINT64_MAX) {
            return "--ids: id " + std::to_string(largest_id) +
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
    options.format = *format;
    if (auto problem = check_picture_format(raw, options)) return *problem;
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

// Turns the raw strings into a validated Options, or the first problem found.
CommandLine validate(const RawOptions& raw) {
    if (raw.cost) return validate_cost(raw);
    if (raw.tokens_lesson) return validate_tokens(raw);
    CommandLine result;
    Options& options = result.options;
    DemoRequest& request = options.request;

    options.size_options = size_options(raw);
    if (auto problem = validate_sizes(raw, options)) return fail(*problem);
    if (auto problem = validate_output(raw, options)) return fail(*problem);

    // With --weights the sizes are checked against the file's header, before its data is read;
    // bag's product is B x V x d, checked by validate_bag.
    if (auto too_big = check_demo_sizes(request.ids.size(), request.vocab_size, request.dim);
        too_big && !raw.weights && !raw.bag) {
        return fail(options.size_options + ": " + *too_big);
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

// Every lesson's options and the main command's, for the checks that look at all of them.
template <typename Visit>
void for_each_option(const CLI::App& app, const Visit& visit) {
    for (const CLI::Option* option : app.get_options()) visit(*option);
    for (const CLI::App* lesson : app.get_subcommands([](const CLI::App*) { return true; })) {
        for (const CLI::Option* option : lesson->get_options()) visit(*option);
    }
}

// The errors CLI11 may still raise after find_unreadable_value: said in embdemo's words, never
// CLI11's (its text names no option the way the user typed it, and may span lines).
std::string describe_parse_error(const CLI::ParseError&) {
    return "the command line cannot be read (allowed: the options of embdemo --help, each given once, "
           "with its value after a space or an \"=\")";
}

// An option given twice (on the main command or a lesson's), or one whose value is missing
// ("--dim" at the very end).
std::string describe_mismatch(const CLI::App& app, const CLI::ArgumentMismatch& error) {
    std::string repeated;
    for_each_option(app, [&](const CLI::Option& option) {
        if (repeated.empty() && option.count() > 1) {
            repeated = option.get_name() + " was given " + std::to_string(option.count()) + " times (allowed: once)";
        }
    });
    if (!repeated.empty()) return repeated;
    const std::string what = error.what();
    const std::string option = what.substr(0, what.find(':'));
    if (option.rfind("--", 0) == 0 && option.find_first_of(" \n") == std::string::npos) {
        return option + " needs a value; see embdemo --help";
    }
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

// Two spellings CLI11 2.1.2 reads its own way, caught before it sees them:
// - "--opt=" with nothing after the "=" is read as "--opt", taking the next word as the value
//   ("--export-projector= --trace" made a directory named "--trace");
// - "--flag=VALUE" is converted by CLI11 ("--trace=no" turned the trace off, "--sparse=maybe"
//   said "Could not convert"): a flag of embdemo takes no value.
std::optional<std::string> find_unreadable_value(const CLI::App& app, int argc, const char* const argv[]) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "--") break;
        const std::size_t equals = word.find('=');
        if (word.size() < 4 || word.substr(0, 2) != "--" || equals == std::string_view::npos) continue;
        const std::string option(word.substr(0, equals));
        const CLI::Option* known = app.get_option_no_throw(option);
        for (const CLI::App* lesson : app.get_subcommands([](const CLI::App*) { return true; })) {
            if (known == nullptr) known = lesson->get_option_no_throw(option);
        }
        if (known == nullptr) continue;  // unknown: describe_extra names it
        if (known->get_expected_min() == 0) {
            if (option == "--help" || option == "--version") continue;  // CLI11 answers these itself
            return bad_value(option.c_str(), std::string(word.substr(equals + 1)), "is a flag and takes no value",
                             option + " alone");
        }
        if (equals + 1 < word.size()) continue;
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
        grad = app.add_subcommand("grad", "backward two ways: only used rows get a gradient");
        grad->fallthrough();
        grad->footer(k_grad_footer);
        declare_grad_options(*grad, raw);
        cost = app.add_subcommand("cost", "the cost of both forms for n, V, d or a real model");
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
        tokens = add_lesson("tokens", "GPT-2's tokenizer: text -> pieces -> merges -> ids",
                            k_tokens_footer);
        declare_tokens_options(*tokens, raw);
        bag = add_lesson("bag", "nn.EmbeddingBag as a multi-hot product: sum/mean/max", k_bag_footer);
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
    if (auto unreadable = find_unreadable_value(app, argc, argv)) return fail(*unreadable);

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
