#include "core/max_norm_lesson.hpp"

#include <algorithm>
#include <utility>

#include "core/torch_matmul.hpp"

namespace embdemo {

MaxNormLesson run_max_norm_lesson(const MaxNormRequest& request, Matrix weight) {
    MaxNormLesson lesson;
    lesson.request = request;
    lesson.weight = std::move(weight);
    const TokenIds& ids = request.ids.values;
    lesson.weight_after = lesson.weight;
    lesson.rows = embedding_renorm(lesson.weight_after, ids, request.max_norm);
    lesson.lookup = lookup(lesson.weight_after, ids);
    const Matrix x = one_hot(ids, lesson.weight.rows);
    lesson.onehot_drawn = torch_mm(x, lesson.weight);
    lesson.onehot_after = torch_mm(x, lesson.weight_after);
    lesson.drawn_check = compare_exact(lesson.lookup, lesson.onehot_drawn);
    lesson.after_check = compare_exact(lesson.lookup, lesson.onehot_after);
    // What a second call would see: the rescaled rows' norms are now M up to float32 rounding.
    for (const RenormRow& row : lesson.rows) {
        if (!row.rescaled) continue;
        const float norm = row_norm(lesson.weight_after.row(row.row), lesson.weight_after.cols, request.max_norm.norm_type);
        lesson.largest_norm_after = std::max(lesson.largest_norm_after, norm);
    }
    return lesson;
}

}  // namespace embdemo
