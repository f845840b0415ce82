// embdemo cost: what each form costs for n, V, d or a real model; counts only, nothing to load.
#include <string>
#include <vector>

#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/lessons/table_request.hpp"
#include "render/cost_report.hpp"
#include "render/cost_text.hpp"

namespace embdemo {

int run_cost(const Options& options) {
    const CostLesson lesson = run_cost_lesson(options.cost);
    const LessonView view = table_view(lesson, cost_report, [](const CostLesson& shown, const TextOptions&, View) {
        return render_cost_text(shown);
    });
    return write_view(options, view);
}

}  // namespace embdemo
