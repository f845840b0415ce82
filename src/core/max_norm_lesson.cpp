#include "core/max_norm_lesson.hpp"

#include <utility>

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
    lesson.onehot_drawn = matmul(x, lesson.weight);
    lesson.onehot_after = matmul(x, lesson.weight_after);
    lesson.drawn_check = compare_exact(lesson.lookup, lesson.onehot_drawn);
    lesson.after_check = compare_exact(lesson.lookup, lesson.onehot_after);
    // A second call renormalises the changed table: a rescaled row's norm rounds to about M,
    // and float32 rounding can leave it a hair above, so it may be rescaled again.
    // It visits the same distinct rows, so their norms now decide it; no copy of E is needed.
    for (const RenormRow& row : lesson.rows) {
        const double norm = row_norm(lesson.weight_after.row(row.row), lesson.weight_after.cols, request.max_norm.norm_type);
        if (norm > request.max_norm.max_norm) ++lesson.rescaled_again;
    }
    return lesson;
}

}  // namespace embdemo
