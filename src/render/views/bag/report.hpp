// `embdemo bag` for the machine formats (schema embdemo-bag/1 in docs/schema.md).
#pragma once

#include "core/lessons/bag_lesson.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_bag_json_schema = "embdemo-bag/1";

LessonReport bag_report(const BagLesson& lesson);

}  // namespace embdemo
