// `embdemo tied` for the machine formats (schema embdemo-tied/1 in docs/schema.md).
#pragma once

#include "core/lessons/tied_lesson.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_tied_json_schema = "embdemo-tied/1";

LessonReport tied_report(const TiedLesson& lesson);

}  // namespace embdemo
