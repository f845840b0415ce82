// The notebook's demonstration: E[ids] beside one_hot(ids) @ E and nn.Linear, with the files it
// may save (--save-weights, --export-projector); with --max-norm, nn.Embedding's renorm first.
#include <string>
#include <utility>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/outputs.hpp"
#include "cli/run_memory.hpp"
#include "cli/weight_files.hpp"
#include "core/escape.hpp"
#include "core/torch/init.hpp"
#include "core/file_formats/labels.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/lessons/max_norm_lesson.hpp"
#include "io/text_input.hpp"
#include "render/kit/explain.hpp"
#include "render/views/figure.hpp"
#include "render/formats/html.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/views/lookup_report.hpp"
#include "render/views/markdown.hpp"
#include "render/views/max_norm_report.hpp"
#include "render/views/max_norm_text.hpp"
#include "render/views/python_script.hpp"
#include "render/views/trace.hpp"
#include "render/views/walkthrough.hpp"

namespace embdemo {
namespace {

// E from --weights, the run's size checked once the header is read, and again once the values
// are: a table with inf or nan needs nn.Linear's W = E.T made, and the BLAS (special_values).
ParseResult<Matrix> load_table_file(DemoRequest& request, const Options& options) {
    const auto check_run = [&options](const DemoRequest& sized) { return check_run_size(options, sized); };
    auto weight = load_weight_file(request, check_run, OneHotHeld::in_blocks_budgeted);
    if (!weight || all_finite(weight.value())) return weight;
    request.origin.special_values = true;
    if (auto too_big = check_run(request)) {
        return ParseResult<Matrix>::fail("--weights " + quote_for_message(request.origin.detail) +
                                         ": holds inf or nan, so nn.Linear's W = E.T is made for the BLAS: " + *too_big);
    }
    return weight;
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
        case WeightOrigin::Kind::file: return load_table_file(request, options);
    }
    return ParseResult<Matrix>::ok(torch_embedding_weight(request.vocab_size, request.dim, request.seed));
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

LessonView lookup_view(const DemoReport& report, const Options& options) {
    const DemoRequest& request = report.request;
    const auto linear_init = [&request] { return torch_linear_weight(request.vocab_size, request.dim, request.seed); };
    // The walkthrough and the page start from a text with GPT-2's pieces (the pattern and the
    // merges); validation loaded the vocabulary. Another tokenizer's ids start at the ids.
    const bool gpt2 = request.source.from_text() && request.source.tokenizer == TokenizerKind::gpt2;
    const Gpt2Vocabulary* vocab = gpt2 ? gpt2_vocabulary().value() : nullptr;
    LessonView view;
    view.report = [&report, &options](const std::vector<std::string>&) {
        return ParseResult<LessonReport>::ok(lookup_report(report, options.show, options.timing));
    };
    view.markdown = [&report, &options](int precision) { return render_markdown(report, precision, options.show); };
    view.text = [&report, &options, linear_init, vocab](const TextOptions& text, View shown) -> std::vector<std::string> {
        switch (shown) {
            case View::plain: break;
            case View::trace: return render_trace(report, options.trace_positions, text);
            case View::walkthrough: return render_walkthrough(report, linear_init(), text, vocab);
        }
        return {render_text(report, text)};
    };
    view.figure = [&report](int precision) { return lookup_figure(report, precision); };
    view.page = [&report, linear_init, vocab](int precision) { return lookup_page(report, linear_init(), precision, vocab); };
    view.python = [&report] { return render_lookup_python(report); };
    return view;
}

// With --max-norm: its own view and schema (embdemo-max-norm/1). Exit 3 when the lookup
// differs from one_hot(ids) @ E as drawn, that is whenever a looked-up row was rescaled.
int run_max_norm(const Options& options, const DemoRequest& demo, Matrix weight) {
    MaxNormRequest request;
    request.demo = demo;
    request.ids = options.id_batch;
    request.max_norm = *options.max_norm;
    const MaxNormLesson lesson = run_max_norm_lesson(request, std::move(weight));
    LessonView view;
    view.report = [&lesson](const std::vector<std::string>&) { return ParseResult<LessonReport>::ok(max_norm_report(lesson)); };
    view.text = [&lesson](const TextOptions& text, View) { return std::vector<std::string>{render_max_norm_text(lesson, text)}; };
    view.figure = [&lesson](int precision) { return max_norm_figure(lesson, precision); };
    view.python = [&lesson] { return render_max_norm_python(lesson); };
    std::size_t rescaled = 0;
    for (const RenormRow& row : lesson.rows) rescaled += row.rescaled ? 1 : 0;
    const std::string why = "the lookup differs from one_hot(ids) @ E as drawn in " +
                            std::to_string(lesson.drawn_check.differing) + " values: max_norm rescaled " +
                            std::to_string(rescaled) + (rescaled == 1 ? " row" : " rows") +
                            " of E before the lookup read " + (rescaled == 1 ? "it" : "them");
    return lesson_status(options, write_view(options, view),
                         lesson.drawn_check.identical && lesson.after_check.identical, why);
}

}  // namespace

int run_lookup(const Options& options) {
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
    const DemoReport report = build_demo_report(request, std::move(weight.value()), terminal_progress());
    FileTransaction transaction;
    if (const std::string problem = stage_output_files(options, report.weight, labels.value(), transaction);
        !problem.empty()) {
        print_error(problem);
        return k_exit_failure;
    }
    StagedFiles files;
    files.not_written = files_not_written(options);
    files.commit = [&options, &transaction] { return commit_output_files(options, transaction); };
    const bool identical = report.verdict.identical && report.linear_verdict.identical;
    const std::string why = report.difference ? "the lookup and the one-hot product differ, " +
                                                    explain_difference(*report.difference, request.shape)
                                              : "";
    return lesson_status(options, write_view(options, lookup_view(report, options), files), identical, why);
}


namespace {

// A machine format's printed numbers; a --weights file's sizes are checked once its header is read.
std::optional<std::string> check_lookup(const option_checks::RawOptions& raw, Options& options) {
    if (raw.weights) return std::nullopt;
    return check_output_size(options, options.request);
}

}  // namespace

// Its options are the main command's (k_shared_help), which every lesson shares; its --help says
// so above the main command's footer, since CLI11 lists none under the subcommand.
extern const LessonSpec k_lookup_lesson = [] {
    LessonSpec spec{"lookup", "the notebook's demonstration (the default)"};
    spec.help.footer_head = R"(embdemo lookup is embdemo without a lesson name: its options are the main
command's, which embdemo --help lists (--ids, --text, --vocab, --dim, --seed,
--init, --weights, --format, --show, --trace, --walkthrough, --max-norm, ...).

)";
    spec.caps.trace = true;
    spec.caps.demo_views = true;
    spec.caps.one_hot = OneHotHeld::in_blocks_budgeted;
    spec.formats = fixed_formats<k_every_format>;
    spec.checks.own = check_lookup;
    spec.run = run_lookup;
    return spec;
}();

}  // namespace embdemo
