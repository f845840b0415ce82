#include "cli/app.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/bench_exec.hpp"
#include "cli/exit_codes.hpp"
#include "cli/files.hpp"
#include "cli/option_checks.hpp"
#include "cli/options.hpp"
#include "cli/text_input.hpp"
#include "render/tokens_text.hpp"
#include "cli/outputs.hpp"
#include "cli/run_memory.hpp"
#include "cli/terminal.hpp"
#include "cli/weight_files.hpp"
#include "core/escape.hpp"
#include "core/init.hpp"
#include "core/labels.hpp"
#include "core/positions_lesson.hpp"
#include "core/tied_lesson.hpp"
#include "core/factor_lesson.hpp"
#include "core/bag_lesson.hpp"
#include "core/max_norm_lesson.hpp"
#include "core/report.hpp"
#include "render/cost_report.hpp"
#include "render/cost_text.hpp"
#include "render/delimited.hpp"
#include "render/explain.hpp"
#include "render/grad_report.hpp"
#include "render/grad_text.hpp"
#include "render/max_norm_report.hpp"
#include "render/max_norm_text.hpp"
#include "render/positions_report.hpp"
#include "render/positions_text.hpp"
#include "render/tied_report.hpp"
#include "render/tied_text.hpp"
#include "render/factor_report.hpp"
#include "render/factor_text.hpp"
#include "render/bag_report.hpp"
#include "render/bag_text.hpp"
#include "render/train_text.hpp"
#include "render/json.hpp"
#include "render/markdown.hpp"
#include "render/text.hpp"
#include "render/trace.hpp"
#include "render/walkthrough.hpp"
#include "render/figure.hpp"
#include "render/html.hpp"
#include "render/python_script.hpp"
#include "render/svg.hpp"

namespace embdemo {
namespace {

void print_error(const std::string& message) {
    std::fprintf(stderr, "embdemo: error: %s\n", message.c_str());
}

// Writes the whole result and makes sure it reached the file: a full disk or a closed pipe must
// not end in exit status 0. `not_written` names the files the run drops when this fails
// ("--save-weights \"e.npy\" was"). A reader that closed its pipe early (`embdemo ... | head -1`)
// chose to stop reading, which is no news to the user: exit 1 without a message, unless files
// were dropped.
// One write() for the whole text where the kernel takes it: stdio would cut it into 4 KiB calls, and
// a reader that leaves after the first line (`| head -1`) could close the pipe between two of them
// although all of it fit in the pipe.
int write_stdout(const std::string& text, const std::string& not_written = "") {
    errno = 0;
    int error = std::fflush(stdout) == 0 ? 0 : errno;
    const char* next = text.data();
    std::size_t left = text.size();
    while (error == 0 && left > 0) {
        const ssize_t written = ::write(STDOUT_FILENO, next, left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
            error = written < 0 ? errno : EIO;
            break;
        }
        next += written;
        left -= static_cast<std::size_t>(written);
    }
    if (error == 0) return k_exit_ok;
    if (error != EPIPE || !not_written.empty()) {
        print_error(std::string("cannot write to standard output: ") + (error ? std::strerror(error) : "write failed") +
                    (not_written.empty() ? "" : ", so " + not_written + " not written"));
    }
    return k_exit_failure;
}

// A closed pipe (SIGPIPE) and a file size limit (SIGXFSZ, `ulimit -f`) end a process by default,
// before it can remove its temporary files or say which file failed. Ignored, they make write()
// fail with EPIPE or EFBIG, which every write checks.
void ignore_write_signals() {
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
}

// E for the request, from wherever the options say it comes from. A file also decides the
// request's vocab and dim, and the run's size is checked as soon as its header is read.
ParseResult<Matrix> make_weight(DemoRequest& request, const Options& options) {
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch: break;
        case WeightOrigin::Kind::torch_randint:
            return ParseResult<Matrix>::ok(torch_randint_weight(
                request.vocab_size, request.dim, request.seed, k_randint_low, k_randint_high));
        case WeightOrigin::Kind::index_pattern:
            return ParseResult<Matrix>::ok(index_pattern_weight(request.vocab_size, request.dim));
        case WeightOrigin::Kind::file:
            return load_weight_file(request, [&options](const DemoRequest& sized) { return check_run_size(options, sized); });
    }
    return ParseResult<Matrix>::ok(torch_embedding_weight(request.vocab_size, request.dim, request.seed));
}

TextOptions text_options(const Options& options) {
    TextOptions text;
    text.precision = options.precision;
    text.width = output_width(stdout_is_terminal(), std::getenv("COLUMNS"));
    if (color_wanted(options.color, stdout_is_terminal(), std::getenv("NO_COLOR"), std::getenv("TERM"))) {
        text.palette = light_background(options.palette, std::getenv("COLORFGBG")) ? Palette::light
                                                                                   : Palette::dark;
    }
    return text;
}

// --format svg, html, python of the notebook lesson: the figure, the page, the script.
std::string render_demo_picture(const DemoReport& report, const Options& options) {
    const DemoRequest& request = report.request;
    switch (options.format) {
        case OutputFormat::svg: return render_svg(lookup_figure(report, options.precision));
        case OutputFormat::html:
            return render_html(lookup_page(report, torch_linear_weight(request.vocab_size, request.dim, request.seed),
                                           options.precision));
        default: break;
    }
    return render_lookup_python(report);
}

// The output as steps: one for the plain view and the machine formats, several for the
// teaching views, so that --pause can stop between them.
std::vector<std::string> render_steps(const DemoReport& report, const Options& options) {
    switch (options.format) {
        case OutputFormat::json: return {render_json(report, options.show)};
        case OutputFormat::csv: return {render_delimited(report, ',', options.show)};
        case OutputFormat::tsv: return {render_delimited(report, '\t', options.show)};
        case OutputFormat::markdown: return {render_markdown(report, options.precision, options.show)};
        case OutputFormat::svg:
        case OutputFormat::html:
        case OutputFormat::python: return {render_demo_picture(report, options)};
        case OutputFormat::text: break;
    }
    const TextOptions text = text_options(options);
    const DemoRequest& request = report.request;
    switch (options.view) {
        case View::plain: break;
        case View::trace: return render_trace(report, options.trace_positions, text);
        case View::walkthrough:
            return render_walkthrough(
                report, torch_linear_weight(request.vocab_size, request.dim, request.seed), text);
    }
    return {render_text(report, text)};
}

// Waits for Enter on a terminal. Returns false when the learner ends the lesson: "q" (then
// Enter), or Ctrl-D, which closes stdin.
bool wait_for_enter() {
    std::fputs("-- Enter: next step, q: quit --", stderr);
    std::fflush(stderr);
    std::string line;
    int c = 0;
    while ((c = std::getchar()) != EOF && c != '\n') line += static_cast<char>(c);
    std::fputs("\n", stderr);
    const auto first = line.find_first_not_of(" \t\r");
    const bool quit = first != std::string::npos && (line[first] == 'q' || line[first] == 'Q');
    return c != EOF && !quit;
}

// Writes the steps: all at once, or with --pause on a terminal one at a time, until the last
// one or until the learner quits (then the lesson simply ends there). Steps are separated by
// blank lines and written one by one rather than joined, so a large JSON result is not held twice.
int write_steps(const std::vector<std::string>& steps, bool pause, const std::string& not_written) {
    std::size_t next = 0;
    if (pause && stdin_is_terminal()) {
        while (next + 1 < steps.size()) {
            const int status = write_stdout(steps[next++] + '\n', not_written);
            if (status != k_exit_ok) return status;
            if (!wait_for_enter()) return k_exit_ok;
        }
    }
    for (std::size_t i = next; i < steps.size(); ++i) {
        const int status = i > next ? write_stdout("\n", not_written) : k_exit_ok;
        if (status != k_exit_ok) return status;
        if (const int written = write_stdout(steps[i], not_written); written != k_exit_ok) return written;
    }
    return k_exit_ok;
}

// "--save-weights \"e.npy\" was": the files a run drops when stdout fails, for the message.
std::string files_not_written(const Options& options) {
    std::string files;
    if (!options.save_weights.empty()) files = "--save-weights " + quote_for_message(options.save_weights);
    if (!options.export_projector.empty()) {
        files += (files.empty() ? "" : " and ") + std::string("--export-projector ") +
                 quote_for_message(options.export_projector);
    }
    if (files.empty()) return files;
    return files + (options.save_weights.empty() || options.export_projector.empty() ? " was" : " were");
}

ParseResult<std::vector<std::string>> read_labels(const Options& options, std::size_t vocab_size) {
    using Result = ParseResult<std::vector<std::string>>;
    if (options.labels.empty()) return Result::ok({});
    const auto fail = [&](const std::string& problem) {
        return Result::fail("--labels " + quote_for_message(options.labels) + ": " + problem);
    };
    const auto text = read_small_file(options.labels, k_max_labels_bytes);
    if (!text) return fail(text.error());
    auto labels = parse_labels(text.value(), vocab_size);
    if (!labels) return fail(labels.error());
    return labels;  // moved: `labels ? labels : ...` copied every line
}

// The lookup lesson with --max-norm: its own view and schema (embdemo-max-norm/1). Exit 3 when
// the lookup differs from one_hot(ids) @ E as drawn, that is whenever a looked-up row was rescaled.
int run_max_norm(const Options& options, const DemoRequest& demo, Matrix weight) {
    MaxNormRequest request;
    request.demo = demo;
    request.ids = options.id_batch;
    request.max_norm = *options.max_norm;
    const MaxNormLesson lesson = run_max_norm_lesson(request, std::move(weight));
    std::string out;
    switch (options.format) {
        case OutputFormat::json: out = render_lesson_json(max_norm_report(lesson), {}); break;
        case OutputFormat::csv: out = render_lesson_delimited(max_norm_report(lesson), ',', {}); break;
        case OutputFormat::tsv: out = render_lesson_delimited(max_norm_report(lesson), '\t', {}); break;
        case OutputFormat::markdown: {
            const std::string text = render_max_norm_text(lesson, TextOptions{});
            out = render_lesson_markdown(max_norm_report(lesson), text.substr(0, text.find('\n')), options.precision);
            break;
        }
        case OutputFormat::text: out = render_max_norm_text(lesson, text_options(options)); break;
        case OutputFormat::svg:
        case OutputFormat::html:
        case OutputFormat::python:  // refused with --max-norm when the options were validated
            throw std::logic_error("--max-norm has no picture or script view");
    }
    const int status = write_stdout(out);
    if (status != k_exit_ok) return status;
    if (lesson.drawn_check.identical && lesson.after_check.identical) return k_exit_ok;
    // CSV and TSV carry only numbers; say on stderr why the exit status is "differ".
    if (options.format == OutputFormat::csv || options.format == OutputFormat::tsv) {
        std::size_t rescaled = 0;
        for (const RenormRow& row : lesson.rows) rescaled += row.rescaled ? 1 : 0;
        std::fprintf(stderr, "embdemo: note: the lookup differs from one_hot(ids) @ E as drawn in %zu values: "
                             "max_norm rescaled %zu %s of E before the lookup read %s\n",
                     lesson.drawn_check.differing, rescaled, rescaled == 1 ? "row" : "rows", rescaled == 1 ? "it" : "them");
    }
    return k_exit_differ;
}

int run_demo(const Options& options) {
    if (auto problem = check_output_paths(options)) {
        print_error(*problem);
        return k_exit_usage;
    }
    DemoRequest request = options.request;
    // Seeded tables' sizes are known now; a file's once its header is read (make_weight).
    if (request.origin.kind != WeightOrigin::Kind::file) {
        if (auto too_big = check_run_size(options, request)) {
            print_error(options.size_options + ": " + *too_big);
            return k_exit_usage;
        }
    }
    auto weight = make_weight(request, options);
    if (!weight) {
        print_error(weight.error());
        return k_exit_usage;
    }
    const auto labels = read_labels(options, request.vocab_size);
    if (!labels) {
        print_error(labels.error());
        return k_exit_usage;
    }
    if (options.max_norm) return run_max_norm(options, request, std::move(weight.value()));
    const DemoReport report = build_demo_report(request, std::move(weight.value()));
    // Render everything before writing anything, so that a failure cannot leave half a result.
    const std::vector<std::string> steps = render_steps(report, options);
    // Files are written in full first but appear only once stdout has been written: a run that
    // fails anywhere (a full disk, a closed pipe) leaves no file behind.
    FileTransaction files;
    if (const std::string problem = stage_output_files(options, report.weight, labels.value(), files);
        !problem.empty()) {
        print_error(problem);
        return k_exit_failure;
    }
    const int status = write_steps(steps, options.pause, files_not_written(options));
    if (status != k_exit_ok) return status;
    if (const std::string problem = commit_output_files(options, files); !problem.empty()) {
        print_error(problem);
        return k_exit_failure;
    }
    if (report.verdict.identical && report.linear_verdict.identical) return k_exit_ok;
    // CSV and TSV carry only numbers; say on stderr why the exit status is "differ".
    const bool data_only = options.format == OutputFormat::csv || options.format == OutputFormat::tsv;
    if (data_only && report.difference) {
        std::fprintf(stderr, "embdemo: note: the lookup and the one-hot product differ, %s\n",
                     explain_difference(*report.difference, report.request.shape).c_str());
    }
    return k_exit_differ;
}

// G from --upstream FILE: one row per id (B*T rows for a batch), d columns.
ParseResult<Matrix> load_upstream(const Options& options, std::uint64_t dim) {
    const std::uint64_t rows = options.request.ids.size();
    const ShapeCheck check = [&](std::uint64_t file_rows, std::uint64_t cols) -> std::optional<std::string> {
        if (file_rows == rows && cols == dim) return std::nullopt;
        return "holds " + std::to_string(file_rows) + " x " + std::to_string(cols) + " (allowed: " +
               std::to_string(rows) + " x " + std::to_string(dim) + ", one row of dL/d(lookup) per id, " +
               "a batch's B x T ids flattened in order)";
    };
    return load_matrix_file("--upstream", options.grad.upstream_file, check,
                            std::to_string(rows) + " x " + std::to_string(dim) + ", n x d: one row of G per id");
}

// --optimizer: a few torch.optim steps, and which rows each one moves.
int run_training_steps(const Options& options) {
    TrainingArgs args;
    args.ids = options.id_batch;
    args.vocab_size = options.request.vocab_size;
    args.dim = options.request.dim;
    args.seed = options.request.seed;
    if (options.grad.padding_idx) {
        args.embedding.padding_row = resolve_padding_idx(*options.grad.padding_idx, args.vocab_size).value();
    }
    args.embedding.scale_grad_by_freq = options.grad.scale_grad_by_freq;
    args.upstream = options.grad.upstream == UpstreamSource::ones ? UpstreamKind::ones : UpstreamKind::randn;
    args.optimizer = *options.grad.optimizer;
    args.steps = options.grad.steps;
    args.sparse = options.grad.sparse;
    const TrainingRun run = run_training(args);
    return write_stdout(options.format == OutputFormat::json ? render_train_json(args, run)
                                                             : render_train_text(args, run, text_options(options)));
}

int run_grad(const Options& options) {
    if (options.grad.optimizer) {
        const DemoRequest& sizes = options.request;
        if (auto too_big = check_memory_budget(grad_buffers(options, sizes.vocab_size, sizes.dim), options.max_memory)) {
            print_error(options.size_options + ": " + *too_big);
            return k_exit_usage;
        }
        return run_training_steps(options);
    }
    DemoRequest demo = options.request;
    Matrix weight;
    if (demo.origin.kind == WeightOrigin::Kind::file) {
        auto loaded = load_weight_file(demo);
        if (!loaded) {
            print_error(loaded.error());
            return k_exit_usage;
        }
        weight = std::move(loaded.value());
    } else if (demo.origin.kind == WeightOrigin::Kind::index_pattern) {
        weight = index_pattern_weight(demo.vocab_size, demo.dim);
    }
    GradRequest request;
    request.ids = options.id_batch;
    request.vocab_size = demo.vocab_size;
    request.vocab_inferred = demo.vocab_inferred;
    request.dim = demo.dim;
    request.seed = demo.seed;
    request.origin = demo.origin;
    request.padding_idx = options.grad.padding_idx;
    request.scale_grad_by_freq = options.grad.scale_grad_by_freq;
    request.upstream = options.grad.upstream;
    request.max_norm = options.max_norm;
    request.sparse = options.grad.sparse;
    GradOptions grad = options.grad;
    if (auto problem = option_checks::grad_top_for_vocab(grad, request.vocab_size)) {
        print_error(*problem);
        return k_exit_usage;
    }
    request.top = grad.top;
    if (request.padding_idx && !resolve_padding_idx(*request.padding_idx, request.vocab_size)) {
        print_error("--padding-idx " + std::to_string(*request.padding_idx) + ": is out of range for the " +
                    std::to_string(request.vocab_size) + " rows of the --weights file (allowed: -" +
                    std::to_string(request.vocab_size) + " to " + std::to_string(request.vocab_size - 1) + ")");
        return k_exit_usage;
    }
    if (auto too_big = check_memory_budget(grad_buffers(options, request.vocab_size, request.dim), options.max_memory)) {
        print_error(options.size_options + ": " + *too_big);
        return k_exit_usage;
    }
    Matrix upstream;
    if (request.upstream == UpstreamSource::file) {
        auto loaded = load_upstream(options, request.dim);
        if (!loaded) {
            print_error(loaded.error());
            return k_exit_usage;
        }
        upstream = std::move(loaded.value());
    }
    const GradLesson lesson = run_grad_lesson(request, std::move(weight), std::move(upstream));
    std::string out;
    switch (options.format) {
        case OutputFormat::json: out = render_lesson_json(grad_report(lesson), {}); break;
        case OutputFormat::csv: out = render_lesson_delimited(grad_report(lesson), ',', {}); break;
        case OutputFormat::tsv: out = render_lesson_delimited(grad_report(lesson), '\t', {}); break;
        case OutputFormat::markdown:
            out = render_lesson_markdown(grad_report(lesson), "Embedding backward two ways: scatter-add vs one_hot(ids).T @ G",
                                         options.precision);
            break;
        case OutputFormat::text: out = render_grad_text(lesson, text_options(options), options.view == View::trace); break;
        case OutputFormat::svg: out = render_svg(grad_figure(lesson, options.precision)); break;
        case OutputFormat::html: out = render_html(grad_page(lesson, options.precision)); break;
        case OutputFormat::python: out = render_grad_python(lesson, options.grad.upstream_file); break;
    }
    const int status = write_stdout(out);
    if (status != k_exit_ok) return status;
    return lesson.comparison.whole.identical ? k_exit_ok : k_exit_differ;
}

// embdemo cost: counts only, nothing to load or check.
int run_cost(const Options& options) {
    const CostLesson lesson = run_cost_lesson(options.cost);
    return write_stdout(options.format == OutputFormat::json ? render_lesson_json(cost_report(lesson), {})
                                                             : render_cost_text(lesson));
}

// embdemo bench: returns only when embdemo-bench could not be started.
int run_bench(const Options& options) {
    std::fflush(stdout);
    print_error(exec_bench(options.bench_args));
    return k_exit_failure;
}

// ---- The table lessons: positions (and tied, factor, bag) ----

// Fills the request fields every table lesson shares from the validated options.
template <typename Request>
Request table_request(const Options& options) {
    Request request;
    request.vocab_size = options.request.vocab_size;
    request.vocab_inferred = options.request.vocab_inferred;
    request.dim = options.request.dim;
    request.seed = options.request.seed;
    return request;
}

// Writes a lesson's machine format from its report, or its text view; only the one asked for
// is rendered.
template <typename Lesson, typename ToReport, typename ToText>
int write_lesson(const Options& options, const Lesson& lesson, ToReport to_report, ToText to_text) {
    switch (options.format) {
        case OutputFormat::json: return write_stdout(render_lesson_json(to_report(lesson), {}));
        case OutputFormat::csv: return write_stdout(render_lesson_delimited(to_report(lesson), ',', {}));
        case OutputFormat::tsv: return write_stdout(render_lesson_delimited(to_report(lesson), '\t', {}));
        case OutputFormat::markdown: {
            // The notes' title is the text view's own first line, so the two never disagree.
            const std::string text = to_text(lesson, TextOptions{});
            return write_stdout(render_lesson_markdown(to_report(lesson), text.substr(0, text.find('\n')),
                                                       options.precision));
        }
        case OutputFormat::text:
        case OutputFormat::svg:     // refused for these lessons by check_picture_format
        case OutputFormat::html:
        case OutputFormat::python: break;
    }
    return write_stdout(to_text(lesson, text_options(options)));
}

int run_positions(const Options& options) {
    auto request = table_request<PositionsRequest>(options);
    request.ids = options.id_batch;
    request.context = options.positions.context;
    request.context_inferred = options.positions.context_inferred;
    request.encoding = options.positions.encoding;
    request.encoding_given = options.positions.encoding_given;
    request.targets = options.positions.targets;
    request.loader = options.positions.loader;
    request.windows = options.positions.windows;
    const PositionsLesson lesson = run_positions_lesson(request);
    const int status = write_lesson(options, lesson, positions_report, render_positions_text);
    if (status != k_exit_ok) return status;
    const bool identical = lesson.token_check.identical && lesson.position_check.identical && lesson.output_check.identical;
    return identical ? k_exit_ok : k_exit_differ;
}

int run_tied(const Options& options) {
    auto request = table_request<TiedRequest>(options);
    request.ids = options.id_batch;
    request.top = options.tied.top;
    request.hidden_given = !options.tied.hidden_file.empty();
    Matrix hidden;
    if (request.hidden_given) {
        const std::uint64_t rows = request.ids.values.size();
        const ShapeCheck check = [&](std::uint64_t file_rows, std::uint64_t cols) -> std::optional<std::string> {
            if (file_rows == rows && cols == request.dim) return std::nullopt;
            return "holds " + std::to_string(file_rows) + " x " + std::to_string(cols) + " (allowed: " +
                   std::to_string(rows) + " x " + std::to_string(request.dim) +
                   ", one hidden state of --dim values per id, a batch's B x T ids flattened in order)";
        };
        auto loaded = load_matrix_file("--hidden", options.tied.hidden_file, check,
                                       std::to_string(rows) + " x " + std::to_string(request.dim) +
                                           ", n x d: one hidden state per id");
        if (!loaded) {
            print_error(loaded.error());
            return k_exit_usage;
        }
        hidden = std::move(loaded.value());
    }
    const TiedLesson lesson = run_tied_lesson(request, std::move(hidden));
    return write_lesson(options, lesson, tied_report, render_tied_text);
}

int run_factor(const Options& options) {
    auto request = table_request<FactorRequest>(options);
    request.ids = options.id_batch;
    request.rank = options.factor.rank;
    const FactorLesson lesson = run_factor_lesson(request);
    const int status = write_lesson(options, lesson, factor_report, render_factor_text);
    if (status != k_exit_ok) return status;
    return lesson.first_check.identical && lesson.output_check.identical ? k_exit_ok : k_exit_differ;
}

int run_bag(const Options& options) {
    auto request = table_request<BagRequest>(options);
    request.bags = options.bag.bags;
    request.mode = options.bag.mode;
    request.padding_idx = options.bag.padding_idx;
    request.per_sample_weights = options.bag.per_sample_weights;
    const BagLesson lesson = run_bag_lesson(request);
    // Exit 0 even when M @ E differs in the last bits: that is float32 summation order, not an error.
    const bool trace = options.view == View::trace;
    return write_lesson(options, lesson, bag_report,
                        [trace](const BagLesson& shown, const TextOptions& text) { return render_bag_text(shown, text, trace); });
}

int run_tokens(const Options& options) {
    const Gpt2Vocabulary& vocab = *gpt2_vocabulary().value();  // validate loaded it
    const TokensLesson lesson = run_tokens_lesson(vocab, options.tokens);
    if (options.format == OutputFormat::json) {
        const auto json = render_tokens_json(lesson, vocab);
        if (!json) {
            print_error(json.error());
            return k_exit_usage;
        }
        return write_stdout(json.value());
    }
    return write_stdout(render_tokens_text(lesson, vocab));
}

}  // namespace

namespace {

// Every failure as an exit status: an exception is caught here and printed as one error line.
template <typename Run>
int guarded(const Run& run) {
    try {
        return run();
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
    } catch (const std::exception& error) {
        print_error(std::string("internal error: ") + error.what());
    }
    return k_exit_failure;
}

int dispatch(const CommandLine& command_line) {
    // embdemo-bench inherits ignored signals across exec: it keeps the caller's.
    if (command_line.options.lesson != Lesson::bench) ignore_write_signals();
    if (!command_line.run) {
        if (!command_line.error.empty()) {
            print_error(command_line.error);
            return command_line.exit_code;
        }
        const int status = write_stdout(command_line.stdout_text);
        return status != k_exit_ok ? status : command_line.exit_code;
    }
    if (command_line.options.lesson == Lesson::grad) return run_grad(command_line.options);
    if (command_line.options.lesson == Lesson::cost) return run_cost(command_line.options);
    if (command_line.options.lesson == Lesson::bench) return run_bench(command_line.options);
    if (command_line.options.lesson == Lesson::positions) return run_positions(command_line.options);
    if (command_line.options.lesson == Lesson::tied) return run_tied(command_line.options);
    if (command_line.options.lesson == Lesson::factor) return run_factor(command_line.options);
    if (command_line.options.lesson == Lesson::bag) return run_bag(command_line.options);
    if (command_line.options.lesson == Lesson::tokens) return run_tokens(command_line.options);
    return run_demo(command_line.options);
}

}  // namespace

int run_command_line(const CommandLine& command_line) {
    return guarded([&] { return dispatch(command_line); });
}

int run_app(int argc, const char* const argv[]) {
    return guarded([&] { return run_command_line(parse_command_line(argc, argv)); });
}

}  // namespace embdemo
