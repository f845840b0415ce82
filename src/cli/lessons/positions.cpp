// embdemo positions: token + position tables, E[ids] + P[0..T), and the data loader's batch.
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/lessons/table_request.hpp"
#include "core/positions_lesson.hpp"
#include "render/positions_report.hpp"
#include "render/positions_text.hpp"

namespace embdemo {

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
    const LessonView view = table_view(lesson, positions_report, [](const PositionsLesson& shown, const TextOptions& text, View) {
        return render_positions_text(shown, text);
    });
    const bool identical = lesson.token_check.identical && lesson.position_check.identical && lesson.output_check.identical;
    return lesson_status(options, write_view(options, view), identical);
}

}  // namespace embdemo
