// libFuzzer target: the whole program in-process, as main() runs it (cli/app's run_app, as
// CommandLineParser then run_command_line): an argument vector built from the input, parsed,
// validated, computed, rendered and written. Each input byte picks a word from a dictionary of
// every lesson's subcommand, options and small or hostile values; byte 0xff followed by a length
// takes the next bytes as one literal word. A valid command line without --format runs in the
// format the input's bytes pick (in the replay: in every format). Sizes are kept small by the
// input's own limits: runs whose V x d, n x V x d, ids or text exceed the caps below are not
// computed.
//
// Standard output and error are captured (fds 1 and 2 on memory files) and checked:
//   exit 2      nothing on stdout, one line "embdemo: error: ..." on stderr, no control bytes
//   exit 0 / 3  something on stdout, stderr empty or "embdemo: note: ..." lines only
//   exit 1      never (nothing here can fail to write): an internal error is a finding
//   the text view fits 80 columns
// The run's directory is tests/data (give libFuzzer absolute paths). Nothing writes files:
// --save-weights and --export-projector are left out (tests/scripts cover them), and so is
// bench, which replaces the process with embdemo-bench.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <any>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cli/app.hpp"
#include "cli/command_line.hpp"
#include "cli/lessons/grad/settings.hpp"
#include "cli/lessons/lesson.hpp"
#include "core/lessons/bag_lesson.hpp"
#include "core/lessons/positions_lesson.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "fuzz_check.hpp"

extern "C" void __sanitizer_set_report_fd(void* fd) __attribute__((weak));

namespace {

constexpr std::size_t k_max_words = 24;
// Small tables reach the same code as big ones. V x d stays big enough for GPT-2's 50,257 rows
// at d <= 2, and n x V x d for 20 of its ids at d = 1: 5-digit ids have broken 80 columns. The
// one-hot matrix, zeroed and multiplied whole, is most of a big run's time: 2^21 made the
// corpus's average run 17 ms.
constexpr std::uint64_t k_max_table_values = 1u << 17;  // V x d, C x d
constexpr std::uint64_t k_max_product_values = 1u << 20;  // n x V x d: the one-hot product's work
constexpr std::uint64_t k_max_ids = 64;
constexpr std::size_t k_max_text_bytes = 256;

std::vector<std::string> dictionary() {
    const std::string data = ".";  // the run's directory: tests/data, as the goldens run
    return {
        // lessons (bench left out: it execs embdemo-bench)
        "lookup", "grad", "cost", "positions", "tied", "factor", "bag", "tokens",
        // shared options
        "--ids", "--vocab", "--dim", "--seed", "--init", "--weights", "--format", "--show", "--precision",
        "--trace", "--trace-positions", "--walkthrough", "--pause", "--color", "--palette", "--labels",
        "--max-memory", "--max-norm", "--norm-type", "--text", "--text-file", "--help", "--version",
        // lessons' options
        "--padding-idx", "--scale-grad-by-freq", "--upstream", "--optimizer", "--steps", "--lr",
        "--momentum", "--weight-decay", "--sparse", "--top", "--model", "--tokens", "--context",
        "--encoding", "--batch", "--stride", "--hidden", "--rank", "--bags", "--mode",
        "--per-sample-weights", "--piece", "--heads",
        // values: small, edge and hostile
        "0", "1", "2", "3", "4", "5", "7", "10", "50256", "50257", "-1", "-3", "1.5", "nan", "inf", "-inf",
        "1e3", "0x10", "010", "", " ", "18446744073709551616", "2,3,1", "2,3,1;0,1,1", "1;;2", ";2,3",
        "2,3;", "0.5,2", "2,3,1,3", "0,0,0", "1,2,3,4,5,6,7,8,9", "2 ,3", "2,,3",
        "sum", "mean", "max", "sgd", "adam", "adamw", "torch", "index", "randint", "learned",
        "sinusoidal", "rope", "alibi", "1024", "1025", "text", "json", "csv", "tsv", "markdown", "svg", "html", "python",
        "gpt2", "gpt2-xl", "llama3-8b", "ones", "randn", "weight", "onehot", "lookup,weight",
        "onehot_matmul,linear_output", "4G", "1K", "auto", "always", "never", "dark", "light",
        "Your journey starts with one step", "<|endoftext|> hi", "caf\xc3\xa9 \xe4\xb8\xad 42's",
        "\xff\xfe", "\x1b[31m", "a\tb\nc",
        // files (read only)
        data + "/weights/notebook_f32.npy", data + "/weights/notebook.csv", data + "/weights/notebook.tsv",
        data + "/weights/with_inf.npy", data + "/weights/with_negative_zero.npy", data + "/bad/ragged.csv",
        data + "/bad/huge_shape.npy", data + "/lessons/hidden_3x5.csv", data + "/text/journey.txt",
        data + "/no-such-file", "/dev/null", data,
    };
}

// The words of the input, as described at the top.
std::vector<std::string> words_of(const std::uint8_t* data, std::size_t size) {
    static const std::vector<std::string> words = dictionary();
    std::vector<std::string> argv_words;
    for (std::size_t i = 0; i < size && argv_words.size() < k_max_words; ++i) {
        if (data[i] == 0xff && i + 1 < size) {
            const std::size_t length = std::min<std::size_t>(data[i + 1] % 64, size - i - 2);
            argv_words.emplace_back(reinterpret_cast<const char*>(data + i + 2), length);
            i += 1 + length;
        } else {
            argv_words.push_back(words[data[i] % words.size()]);
        }
    }
    return argv_words;
}

std::vector<const char*> argv_of(const std::vector<std::string>& words) {
    std::vector<const char*> argv{"embdemo"};
    for (const std::string& word : words) argv.push_back(word.c_str());
    argv.push_back(nullptr);
    return argv;
}

bool product_fits(std::uint64_t a, std::uint64_t b, std::uint64_t cap) { return b == 0 || a <= cap / b; }

// Small enough to compute many times a second; the caps of the program itself are tested elsewhere.
bool small_enough(const embdemo::Options& options) {
    if (options.lesson->caps.own_parser) return false;
    const std::uint64_t dim = options.request.dim;
    const std::uint64_t vocab = options.request.vocab_size;
    if (!product_fits(vocab, dim, k_max_table_values)) return false;
    // Each lesson's own settings (options.own), by their type.
    const auto* positions = std::any_cast<embdemo::PositionsRequest>(&options.own);
    if (positions && !product_fits(positions->context, dim, k_max_table_values)) return false;
    if (const auto* tokens = std::any_cast<embdemo::TokensRequest>(&options.own)) return tokens->text.size() <= k_max_text_bytes;
    const auto* bag = std::any_cast<embdemo::BagRequest>(&options.own);
    const std::uint64_t ids = std::max(options.id_batch.values.size(), bag ? bag->bags.ids.size() : 0);
    if (!product_fits(ids, vocab * dim, k_max_product_values)) return false;
    const auto* grad = std::any_cast<embdemo::GradOptions>(&options.own);
    return ids <= k_max_ids && (!grad || grad->steps <= 10);
}

// A memory file standing in for fd 1 or 2 during a run.
struct Capture {
    int fd = -1;
    int saved = -1;
};

Capture g_out, g_err;  // set up once: a fuzz target is one process running inputs one by one

std::string read_back(const Capture& capture) {
    const off_t size = ::lseek(capture.fd, 0, SEEK_END);
    std::string text(static_cast<std::size_t>(std::max<off_t>(size, 0)), '\0');
    if (size > 0 && ::pread(capture.fd, text.data(), text.size(), 0) != size) embdemo::fuzz::fail("read back a capture");
    return text;
}

struct Outcome {
    int status = 0;
    std::string out;
    std::string err;
};

embdemo::CommandLine parse(const std::vector<std::string>& words) {
    // One parser for every input, as a fuzz target is one process: building CLI11's app took
    // two thirds of an execution. Each parse starts from nothing given (options_test checks it).
    static embdemo::CommandLineParser parser;
    const std::vector<const char*> argv = argv_of(words);
    return parser.parse(static_cast<int>(argv.size() - 1), argv.data());
}

// run_app's run, parsed already: the sizes were checked on this parse, and CLI11's parse, the
// biggest part of a short run, is not done twice.
Outcome run(const embdemo::CommandLine& command_line) {
    std::fflush(stdout);
    std::clearerr(stdout);
    for (Capture* capture : {&g_out, &g_err}) {
        // fds 1 and 2 will share the capture's file offset: back to 0, or writes leave a hole.
        if (::ftruncate(capture->fd, 0) != 0 || ::lseek(capture->fd, 0, SEEK_SET) != 0) {
            embdemo::fuzz::fail("empty a capture");
        }
    }
    ::dup2(g_out.fd, 1);
    ::dup2(g_err.fd, 2);
    Outcome outcome;
    outcome.status = embdemo::run_command_line(command_line);
    std::fflush(stdout);
    std::fflush(stderr);
    ::dup2(g_out.saved, 1);
    ::dup2(g_err.saved, 2);
    outcome.out = read_back(g_out);
    outcome.err = read_back(g_err);
    return outcome;
}

bool lines_start_with(const std::string& text, std::string_view prefix) {
    for (std::size_t start = 0; start < text.size();) {
        if (text.compare(start, prefix.size(), prefix) != 0) return false;
        const std::size_t end = text.find('\n', start);
        if (end == std::string::npos) return false;
        start = end + 1;
    }
    return true;
}

// Colour (--color always) takes no columns: SGR sequences, ESC [ ... m, are left out.
std::string without_colour(std::string_view line) {
    std::string plain;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            i = std::min(line.find('m', i), line.size());
            continue;
        }
        plain += line[i];
    }
    return plain;
}

bool fits_80_columns(const std::string& out) {
    for (std::size_t start = 0; start < out.size();) {
        const std::size_t end = std::min(out.find('\n', start), out.size());
        if (embdemo::display_width(without_colour(std::string_view(out).substr(start, end - start))) > 80) return false;
        start = end + 1;
    }
    return true;
}

// The first property the run breaks, or nullptr.
const char* broken_property(const Outcome& outcome, bool text_view) {
    if (outcome.status == 2) {
        if (!outcome.out.empty()) return "exit 2 prints nothing on stdout";
        if (outcome.err.rfind("embdemo: error: ", 0) != 0) return "exit 2 says embdemo: error:";
        if (outcome.err.find('\n') != outcome.err.size() - 1) return "exit 2 prints one line on stderr";
        for (const char ch : std::string_view(outcome.err).substr(0, outcome.err.size() - 1)) {
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return "an error has no raw control byte";
        }
        return nullptr;
    }
    if (outcome.status == 1) return "exit 1 never happens in memory (an internal error)";
    if (outcome.status != 0 && outcome.status != 3) return "the exit status is 0, 1, 2 or 3";
    if (outcome.out.empty()) return "a successful run prints something";
    if (!lines_start_with(outcome.err, "embdemo: note: ")) return "stderr holds only notes after a run";
    if (text_view && !fits_80_columns(outcome.out)) return "the text view fits 80 columns";
    return nullptr;
}

void check_outcome(const std::vector<std::string>& words, const Outcome& outcome, bool text_view) {
    const char* property = broken_property(outcome, text_view);
    if (!property) return;
    std::fprintf(stderr, "embdemo");
    for (const std::string& word : words) std::fprintf(stderr, " '%s'", embdemo::escape_for_message(word).c_str());
    std::fprintf(stderr, "\nexit %d\n--- stdout (first 2000 bytes):\n%s\n--- stderr:\n%s\n", outcome.status,
                 outcome.out.substr(0, 2000).c_str(), outcome.err.c_str());
    embdemo::fuzz::fail(property);
}

// The formats a command line without --format runs in. While fuzzing, an execution runs the one
// the input's bytes pick (their sum mod 8): eight runs per input made the target eight times
// slower, and mutations reach every format. The replay (each committed input once) runs all
// eight, or with EMBDEMO_REPLAY_FORMATS=K the K formats after the one a fuzzing run picks: the
// sanitizer pass sets K = 2 (all eight took 6 minutes under ASan), and .ci/run's short fuzz run,
// which first runs every committed input, has checked the picked one under ASan already.
std::vector<const char*> formats_to_run(const std::uint8_t* data, std::size_t size) {
    static constexpr std::array<const char*, 8> formats{"text", "json", "csv", "tsv", "markdown", "svg", "html", "python"};
    unsigned sum = 0;
    for (std::size_t i = 0; i < size; ++i) sum += data[i];
    const std::size_t picked = sum % formats.size();
#ifdef EMBDEMO_FUZZ_REPLAY
    static const std::size_t count = [] {
        const char* value = std::getenv("EMBDEMO_REPLAY_FORMATS");
        const unsigned long k = value ? std::strtoul(value, nullptr, 10) : 0;
        return k >= 1 && k < formats.size() ? static_cast<std::size_t>(k) : std::size_t{0};
    }();
    if (count == 0) return {formats.begin(), formats.end()};
    std::vector<const char*> after;
    for (std::size_t i = 1; i <= count; ++i) after.push_back(formats[(picked + i) % formats.size()]);
    return after;
#else
    return {formats[picked]};
#endif
}

// --save-weights and --export-projector (also as --option=value) write files: not here.
bool writes_files(const std::vector<std::string>& words) {
    return std::any_of(words.begin(), words.end(), [](const std::string& word) {
        return word.rfind("--save-weights", 0) == 0 || word.rfind("--export-projector", 0) == 0;
    });
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // Output must depend only on the arguments: no colour, no terminal width.
    ::setenv("NO_COLOR", "1", 1);
    ::unsetenv("COLUMNS");
    ::setenv("EMBDEMO_DATA_DIR", EMBDEMO_GPT2_DATA_DIR "/..", 1);
    // Files are named as in the golden cases (weights/notebook.csv), whose arguments seed the corpus.
    if (::chdir(EMBDEMO_TEST_DATA_DIR) != 0) embdemo::fuzz::fail("chdir to tests/data");
    g_out = {::memfd_create("embdemo-stdout", 0), ::dup(1)};
    g_err = {::memfd_create("embdemo-stderr", 0), ::dup(2)};
    if (g_out.fd < 0 || g_err.fd < 0) embdemo::fuzz::fail("memfd_create");
    // Sanitizer reports must reach the real stderr even while fd 2 is captured.
    if (__sanitizer_set_report_fd) __sanitizer_set_report_fd(reinterpret_cast<void*>(static_cast<std::intptr_t>(g_err.saved)));
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> words = words_of(data, size);
    if (writes_files(words)) return 0;
    const embdemo::CommandLine parsed = parse(words);
    if (parsed.run && !small_enough(parsed.options)) return 0;
    if (!parsed.run || std::find(words.begin(), words.end(), "--format") != words.end()) {
        check_outcome(words, run(parsed), parsed.run && parsed.options.format == embdemo::OutputFormat::text);
        return 0;
    }
    for (const char* format : formats_to_run(data, size)) {
        words.push_back("--format");
        words.push_back(format);
        check_outcome(words, run(parse(words)), words.back() == "text");
        words.resize(words.size() - 2);
    }
    return 0;
}
