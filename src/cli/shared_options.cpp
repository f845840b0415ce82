// The main command's options, which every lesson shares (CLI11's fallthrough lets them follow a
// lesson's name), and the text of embdemo --help around them.
#include "cli/option_spec.hpp"

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
  embdemo help grad                           a lesson's options (= grad --help)

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

// Help lines stay within 80 columns: CLI11 does not wrap them.
const OptionSpec k_shared_options[] = {
    value_option("--ids", "LIST", "token ids, e.g. 2,3,1 (required)", &option_checks::RawOptions::ids),
    value_option("--text", "TEXT", "tokens of this text as the ids (GPT-2's default)", &option_checks::RawOptions::text),
    value_option("--text-file", "FILE", "tokens of a UTF-8 file as the ids (see --text)", &option_checks::RawOptions::text_file),
    value_option("--tokenizer", "NAME", "with --text: gpt2 (default), wordpiece, unigram, bpe", &option_checks::RawOptions::tokenizer),
    value_option("--vocab-size", "N", "with unigram or bpe: pieces to train (default 1,000)", &option_checks::RawOptions::vocab_size),
    value_option("--context", "T", "with --text: the book's data loader, windows of T", &option_checks::RawOptions::context),
    value_option("--stride", "S", "with --context: a window every S tokens (default T)", &option_checks::RawOptions::stride),
    value_option("--batch", "B", "with --context: B windows, the first batch (default 4)", &option_checks::RawOptions::batch),
    value_option("--vocab", "V", "rows of E (default: largest id + 1)", &option_checks::RawOptions::vocab),
    value_option("--dim", "D", "columns of E (required unless --weights)", &option_checks::RawOptions::dim),
    value_option("--seed", "SEED", "torch.manual_seed, 0 to 2^64-1 (default 123)", &option_checks::RawOptions::seed),
    defaulted_option("--init", "KIND", "torch, index (10*k + j) or randint (-9..9)", &option_checks::RawOptions::init),
    value_option("--weights", "FILE", "E from a .npy, .csv or .tsv file instead", &option_checks::RawOptions::weights),
    defaulted_option("--format", "FORMAT", "text, json, csv, tsv, markdown, svg, html, python", &option_checks::RawOptions::format),
    value_option("--show", "LIST", "only these matrices, e.g. lookup (see below)", &option_checks::RawOptions::show),
    defaulted_option("--precision", "P", "decimals in text, markdown, svg, html; 0-9", &option_checks::RawOptions::precision),
    defaulted_option("--color", "WHEN", "auto, always or never", &option_checks::RawOptions::color),
    defaulted_option("--palette", "BG", "colours for a dark or light background, or auto", &option_checks::RawOptions::palette),
    flag_option("--trace", "show each id step by step", &option_checks::RawOptions::trace),
    value_option("--trace-positions", "LIST", "with --trace: only these positions, e.g. 0,2", &option_checks::RawOptions::trace_positions),
    flag_option("--walkthrough", "the notebook as a narrated lesson", &option_checks::RawOptions::walkthrough),
    flag_option("--timing", "how long each form took on this machine", &option_checks::RawOptions::timing),
    flag_option("--pause", "wait for Enter between steps of --trace/--walkthrough", &option_checks::RawOptions::pause),
    value_option("--save-weights", "FILE", "also write E (numpy.save) to FILE, ending in .npy", &option_checks::RawOptions::save_weights),
    value_option("--export-projector", "DIR", "also write TensorFlow Projector files to DIR", &option_checks::RawOptions::export_projector),
    value_option("--labels", "FILE", "with --export-projector: a label per row", &option_checks::RawOptions::labels),
    value_option("--max-memory", "SIZE", "refuse runs needing more, e.g. 4G (default 1G)", &option_checks::RawOptions::max_memory),
    // nn.Embedding's max_norm and norm_type: taken by the lookup and grad lessons.
    value_option("--max-norm", "M", "nn.Embedding's max_norm: rescale rows above M", &option_checks::RawOptions::max_norm),
    value_option("--norm-type", "P", "with --max-norm: the p of the norm (default 2, inf)", &option_checks::RawOptions::norm_type),
};

}  // namespace

extern const char* const k_table_lesson_shared = R"(The shared options --ids (or --text, --text-file with --tokenizer, and the
book's loader: --context, --stride, --batch), --vocab, --dim, --seed, --format
(text, json, csv, tsv, markdown, svg, html, python, ipynb), --precision,
--color and --palette work here as in embdemo --help.
)";

extern const char* const k_main_description = k_description;
extern const LessonHelp k_shared_help = lesson_help(k_shared_options, "", k_footer);

}  // namespace embdemo
