// `embdemo --max-norm M` for the machine formats (schema embdemo-max-norm/1): the parameters,
// E as drawn and after, the lookup, both one-hot products, the norms and the two checks.
#pragma once

#include "core/lessons/max_norm_lesson.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_max_norm_json_schema = "embdemo-max-norm/1";

LessonReport max_norm_report(const MaxNormLesson& lesson);

// The norms, one object per distinct id: {"row", "norm", "rescaled", "scale"}, as JSON.
std::string renorm_rows_json(const std::vector<RenormRow>& rows);

}  // namespace embdemo
