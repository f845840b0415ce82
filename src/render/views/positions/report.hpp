// `embdemo positions` for the machine formats (schema embdemo-positions/1 in docs/schema.md).
#pragma once

#include "core/lessons/positions_lesson.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_positions_json_schema = "embdemo-positions/1";

LessonReport positions_report(const PositionsLesson& lesson);

}  // namespace embdemo
