// embdemo grad: the backward pass two ways (scatter-add and one_hot(ids).T @ G), or with
// --optimizer a few torch.optim steps and which rows each one moves.
#include <string>
#include <utility>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/option_checks.hpp"
#include "cli/lessons/grad/settings.hpp"
#include "cli/run_memory.hpp"
#include "cli/weight_files.hpp"
#include "core/torch/init.hpp"
#include "render/views/figure.hpp"
#include "render/formats/html.hpp"
#include "render/views/grad/view.hpp"

namespace embdemo {
namespace {

// G from --upstream FILE: one row per id (B*T rows for a batch), d columns.
ParseResult<Matrix> load_upstream(const Options& options, std::uint64_t dim) {
    const std::uint64_t rows = options.request.ids.size();
    const ShapeCheck check = [&](std::uint64_t file_rows, std::uint64_t cols) -> std::optional<std::string> {
        if (file_rows == rows && cols == dim) return std::nullopt;
        return "holds " + std::to_string(file_rows) + " x " + std::to_string(cols) + " (allowed: " +
               std::to_string(rows) + " x " + std::to_string(dim) + ", one row of dL/d(lookup) per id, " +
               "a batch's B x T ids flattened in order)";
    };
    return load_matrix_file("--upstream", own_settings<GradOptions>(options).upstream_file, check,
                            std::to_string(rows) + " x " + std::to_string(dim) + ", n x d: one row of G per id");
}

// --optimizer: a few torch.optim steps, and which rows each one moves.
int run_training_steps(const Options& options) {
    TrainingArgs args;
    args.sizes() = options.request.sizes();
    args.ids = options.id_batch;
    const GradOptions& grad = own_settings<GradOptions>(options);
    if (grad.request.padding_idx) {
        args.embedding.padding_row = resolve_padding_idx(*grad.request.padding_idx, args.vocab_size).value();
    }
    args.embedding.scale_grad_by_freq = grad.request.scale_grad_by_freq;
    args.upstream = grad.request.upstream == UpstreamSource::ones ? UpstreamKind::ones : UpstreamKind::randn;
    args.optimizer = *grad.optimizer;
    args.steps = grad.steps;
    args.sparse = grad.request.sparse;
    const TrainingRun run = run_training(args);
    LessonView view;
    view.report = [&](const std::vector<std::string>&) { return ParseResult<LessonReport>::ok(training_report(args, run)); };
    view.text = [&](const TextOptions& text, View) { return std::vector<std::string>{render_train_text(args, run, text)}; };
    view.figure = [&](int precision) { return training_figure(args, run, precision); };
    view.python = [&] { return render_training_python(args, run); };
    return write_view(options, view);
}

// E for the request: a file's, the index pattern, or (left empty) the lesson draws its own.
ParseResult<Matrix> grad_weight(DemoRequest& demo) {
    if (demo.origin.kind == WeightOrigin::Kind::file) return load_weight_file(demo, {}, OneHotHeld::in_blocks);
    if (demo.origin.kind == WeightOrigin::Kind::index_pattern) {
        return ParseResult<Matrix>::ok(index_pattern_weight(demo.vocab_size, demo.dim));
    }
    return ParseResult<Matrix>::ok(Matrix{});
}

// What --weights decided, checked now that V is known: --top's bound and --padding-idx's range.
std::optional<std::string> check_against_vocab(const Options& options, GradRequest& request) {
    if (auto problem = grad_top_for_vocab(own_settings<GradOptions>(options), request.vocab_size, request)) return problem;
    if (request.padding_idx && !resolve_padding_idx(*request.padding_idx, request.vocab_size)) {
        return "--padding-idx " + std::to_string(*request.padding_idx) + ": is out of range for the " +
               std::to_string(request.vocab_size) + " rows of the --weights file (allowed: -" +
               std::to_string(request.vocab_size) + " to " + std::to_string(request.vocab_size - 1) + ")";
    }
    if (auto too_big = check_memory_budget(grad_buffers(options, request.vocab_size, request.dim), options.max_memory)) {
        return options.size_options + ": " + *too_big;
    }
    return std::nullopt;
}

LessonView grad_view(const GradLesson& lesson, const Options& options) {
    LessonView view;
    view.title = "Embedding backward two ways: scatter-add vs one_hot(ids).T @ G";
    view.report = [&lesson](const std::vector<std::string>&) { return ParseResult<LessonReport>::ok(grad_report(lesson)); };
    view.text = [&lesson](const TextOptions& text, View shown) {
        return std::vector<std::string>{render_grad_text(lesson, text, shown == View::trace)};
    };
    view.figure = [&lesson](int precision) { return grad_figure(lesson, precision); };
    view.page = [&lesson](int precision) { return grad_page(lesson, precision); };
    view.python = [&lesson, &options] { return render_grad_python(lesson, own_settings<GradOptions>(options).upstream_file); };
    return view;
}

}  // namespace

int run_grad(const Options& options) {
    if (own_settings<GradOptions>(options).optimizer) {
        const DemoRequest& sizes = options.request;
        if (auto too_big = check_memory_budget(grad_buffers(options, sizes.vocab_size, sizes.dim), options.max_memory)) {
            print_error(options.size_options + ": " + *too_big);
            return k_exit_usage;
        }
        return run_training_steps(options);
    }
    DemoRequest demo = options.request;
    auto weight = grad_weight(demo);
    if (!weight) {
        print_error(weight.error());
        return k_exit_usage;
    }
    GradRequest request = own_settings<GradOptions>(options).request;
    request.sizes() = demo.sizes();  // a --weights file has set V and d by now
    request.origin = demo.origin;
    if (auto problem = check_against_vocab(options, request)) {
        print_error(*problem);
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
    const unsigned threads = product_threads(request.ids.values.size(), request.vocab_size, request.dim);
    const GradLesson lesson =
        run_grad_lesson(request, std::move(weight.value()), std::move(upstream), threads, terminal_progress());
    return lesson_status(options, write_view(options, grad_view(lesson, options)), lesson.comparison.whole.identical);
}


namespace {

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

const OptionSpec k_grad_options[] = {
    own_value("--padding-idx", "K", "nn.Embedding's padding_idx, -V to V-1"),
    own_flag("--scale-grad-by-freq", "divide each row of G by its id's count"),
    own_value("--upstream", "G", "G: randn (default), ones, or a file"),
    own_value("--optimizer", "OPT", "take optimizer steps: sgd, adam, adamw"),
    own_value("--steps", "N", "with --optimizer: 1 to 100 (default 1)"),
    own_value("--lr", "LR", "learning rate (sgd 0.1, adam/adamw 0.001)"),
    own_value("--momentum", "M", "sgd's momentum (default 0)"),
    own_value("--weight-decay", "W", "default 0, adamw 0.01"),
    own_flag("--sparse", "nn.Embedding(sparse=True): the COO gradient"),
    own_value("--top", "K", "swaps listed per position by dL/dX, 1 to 10 (3)"),
};

}  // namespace

namespace {

// Every format: with --max-norm the figure, page and script show E before and after the renorm.
FormatSet grad_formats(const option_checks::RawOptions&) { return k_every_format; }

}  // namespace

extern const LessonSpec k_grad_lesson = [] {
    LessonSpec spec{"grad", "backward two ways: only used rows get a gradient"};
    spec.caps.trace = true;
    spec.caps.one_hot = OneHotHeld::in_blocks;  // one_hot(ids).T @ G and G @ E.T (core/lessons/grad_lesson.hpp)
    spec.caps.seed_draws_more = true;           // G, with --upstream randn
    spec.help = lesson_help(k_grad_options, "", k_grad_footer);
    spec.formats = grad_formats;
    spec.checks.own = check_grad;
    spec.run = run_grad;
    return spec;
}();

}  // namespace embdemo
