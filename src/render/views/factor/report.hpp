// `embdemo factor` for the machine formats (schema embdemo-factor/1 in docs/schema.md).
#pragma once

#include "core/lessons/factor_lesson.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_factor_json_schema = "embdemo-factor/1";

LessonReport factor_report(const FactorLesson& lesson);

}  // namespace embdemo
