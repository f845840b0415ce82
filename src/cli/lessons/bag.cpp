// embdemo bag: nn.EmbeddingBag as a multi-hot product, sum, mean or max.
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/lessons/table_request.hpp"
#include "core/bag_lesson.hpp"
#include "render/bag_report.hpp"
#include "render/bag_text.hpp"

namespace embdemo {

int run_bag(const Options& options) {
    auto request = table_request<BagRequest>(options);
    request.bags = options.bag.bags;
    request.mode = options.bag.mode;
    request.padding_idx = options.bag.padding_idx;
    request.per_sample_weights = options.bag.per_sample_weights;
    const BagLesson lesson = run_bag_lesson(request);
    const LessonView view = table_view(lesson, bag_report, [](const BagLesson& shown, const TextOptions& text, View view_kind) {
        return render_bag_text(shown, text, view_kind == View::trace);
    });
    // Exit 0 even when M @ E differs in the last bits: that is float32 summation order, not an error.
    return write_view(options, view);
}

}  // namespace embdemo
