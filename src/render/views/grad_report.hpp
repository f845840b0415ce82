// `embdemo grad` for the machine formats (schema embdemo-grad/1 in docs/schema.md).
#pragma once

#include "core/lessons/grad_lesson.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_grad_json_schema = "embdemo-grad/1";

LessonReport grad_report(const GradLesson& lesson);

}  // namespace embdemo
