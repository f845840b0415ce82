// embdemo tied: the output layer reuses E, logits = H @ E.T, with H = E[ids] or --hidden FILE.
#include <string>
#include <utility>

#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "cli/lessons/table_request.hpp"
#include "cli/weight_files.hpp"
#include "core/lessons/tied_lesson.hpp"
#include "render/views/tied_report.hpp"
#include "render/views/tied_text.hpp"

namespace embdemo {
namespace {

// H from --hidden FILE: one hidden state of d values per id.
ParseResult<Matrix> load_hidden(const Options& options, const TiedRequest& request) {
    const std::uint64_t rows = request.ids.values.size();
    const ShapeCheck check = [&](std::uint64_t file_rows, std::uint64_t cols) -> std::optional<std::string> {
        if (file_rows == rows && cols == request.dim) return std::nullopt;
        return "holds " + std::to_string(file_rows) + " x " + std::to_string(cols) + " (allowed: " +
               std::to_string(rows) + " x " + std::to_string(request.dim) +
               ", one hidden state of --dim values per id, a batch's B x T ids flattened in order)";
    };
    return load_matrix_file("--hidden", options.tied.hidden_file, check,
                            std::to_string(rows) + " x " + std::to_string(request.dim) +
                                ", n x d: one hidden state per id");
}

}  // namespace

int run_tied(const Options& options) {
    auto request = table_request<TiedRequest>(options);
    request.ids = options.id_batch;
    request.top = options.tied.top;
    request.hidden_given = !options.tied.hidden_file.empty();
    Matrix hidden;
    if (request.hidden_given) {
        auto loaded = load_hidden(options, request);
        if (!loaded) {
            print_error(loaded.error());
            return k_exit_usage;
        }
        hidden = std::move(loaded.value());
    }
    LinearBlockSettings blocks;
    blocks.threads = product_threads(request.ids.values.size(), request.vocab_size, request.dim);
    blocks.progress = terminal_progress("logits H @ E.T");
    const TiedLesson lesson = run_tied_lesson(request, std::move(hidden), blocks);
    const LessonView view = table_view(lesson, tied_report, [](const TiedLesson& shown, const TextOptions& text, View) {
        return render_tied_text(shown, text);
    }, tied_figure, [&options](const TiedLesson& shown) { return render_tied_python(shown, options.tied.hidden_file); });
    return write_view(options, view);
}


namespace {

constexpr const char* k_tied_footer = R"(--ids takes a batch too. E is nn.Embedding(V, D) after torch.manual_seed(SEED);
the output layer is nn.Linear(D, V, bias=False) with its weight set to E, as
GPT-2 ties out_head.weight = tok_emb.weight. H defaults to E[ids], a stand-in
for the final hidden state.

Examples:
  embdemo tied --ids 2,3,1 --dim 5                 logits = E[ids] @ E.T
  embdemo tied --ids 464,3290 --vocab 50257 --dim 768 --top 3   GPT-2 sizes
  embdemo tied --ids 2,3 --dim 5 --hidden h.npy    your own final hidden state
  embdemo tied --text-file story.txt --dim 768     a chapter: the n x V logits
                                                   are made a block of rows at
                                                   a time, never held whole
  embdemo tied --ids 2,3,1 --dim 5 --format json

Exit status: 0, 2 for bad input (including an unreadable --hidden file), 1 for
a failed write.)";

const OptionSpec k_tied_options[] = {
    value_option("--top", "K", "top-K token ids per position, 1 to V (default 5)", &option_checks::RawOptions::top),
    value_option("--hidden", "FILE", "H from a .npy/.csv/.tsv file, n x D (default E[ids])", &option_checks::RawOptions::hidden),
};

}  // namespace

extern const LessonSpec k_tied_lesson = {Lesson::tied, "tied", "the output layer reuses E: logits = H @ E.T", {true, false},
                                         lesson_help(k_tied_options, k_table_lesson_shared, k_tied_footer), fixed_formats<k_every_format>, run_tied};

}  // namespace embdemo
