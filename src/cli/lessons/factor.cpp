// embdemo factor: ALBERT's factorised table, E1[ids] @ E2 beside (one_hot(ids) @ E1) @ E2.
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/lessons/table_request.hpp"
#include "core/factor_lesson.hpp"
#include "render/factor_report.hpp"
#include "render/factor_text.hpp"

namespace embdemo {

int run_factor(const Options& options) {
    auto request = table_request<FactorRequest>(options);
    request.ids = options.id_batch;
    request.rank = options.factor.rank;
    const FactorLesson lesson = run_factor_lesson(request);
    const LessonView view = table_view(lesson, factor_report, [](const FactorLesson& shown, const TextOptions& text, View) {
        return render_factor_text(shown, text);
    });
    return lesson_status(options, write_view(options, view), lesson.first_check.identical && lesson.output_check.identical);
}

}  // namespace embdemo
