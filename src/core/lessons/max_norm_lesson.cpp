#include "core/lessons/max_norm_lesson.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/kernels/onehot_products.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {

RenormAfter::Kind classify_norm_after(float norm, double max_norm) {
    if (std::isnan(norm)) return RenormAfter::Kind::nan_norm;
    if (std::isinf(norm)) return RenormAfter::Kind::inf_norm;
    if (std::fabs(static_cast<double>(norm) - max_norm) <= 1e-6 * max_norm) return RenormAfter::Kind::at_max_norm;
    return static_cast<double>(norm) > max_norm ? RenormAfter::Kind::above : RenormAfter::Kind::below;
}

MaxNormLesson run_max_norm_lesson(const MaxNormRequest& request, Matrix weight) {
    MaxNormLesson lesson;
    lesson.request = request;
    lesson.weight = std::move(weight);
    const TokenIds& ids = request.ids.values;
    lesson.weight_after = lesson.weight;
    lesson.rows = embedding_renorm(lesson.weight_after, ids, request.max_norm);
    lesson.lookup = lookup(lesson.weight_after, ids);
    lesson.onehot_drawn = onehot_mm(ids, lesson.weight);
    lesson.onehot_after = onehot_mm(ids, lesson.weight_after);
    lesson.drawn_check = compare_exact(lesson.lookup, lesson.onehot_drawn);
    lesson.after_check = compare_exact(lesson.lookup, lesson.onehot_after);
    // What a second call would see: usually the rescaled rows' norms are now M up to float32
    // rounding, but a row holding inf becomes nan (inf * scale), and one whose norm overflowed
    // float32 is scaled by 0.
    for (const RenormRow& row : lesson.rows) {
        if (!row.rescaled) continue;
        const float norm = row_norm(lesson.weight_after.row(row.row), lesson.weight_after.cols, request.max_norm.norm_type);
        lesson.after.push_back({row.row, norm, classify_norm_after(norm, request.max_norm.max_norm)});
        if (std::isfinite(norm)) lesson.largest_norm_after = std::max(lesson.largest_norm_after, norm);
    }
    return lesson;
}

}  // namespace embdemo
