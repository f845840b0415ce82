// embdemo tied: the output layer reuses E, logits = H @ E.T, with H = E[ids] or --hidden FILE.
#include <string>
#include <utility>

#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/lessons/table_request.hpp"
#include "cli/weight_files.hpp"
#include "core/tied_lesson.hpp"
#include "render/tied_report.hpp"
#include "render/tied_text.hpp"

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
    const TiedLesson lesson = run_tied_lesson(request, std::move(hidden));
    const LessonView view = table_view(lesson, tied_report, [](const TiedLesson& shown, const TextOptions& text, View) {
        return render_tied_text(shown, text);
    });
    return write_view(options, view);
}

}  // namespace embdemo
