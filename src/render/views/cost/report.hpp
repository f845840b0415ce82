// `embdemo cost` for the machine formats (schema embdemo-cost/1 in docs/schema.md): the sizes,
// where they came from, and one object per method and pass with exact counts.
#pragma once

#include "core/lessons/cost.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_cost_json_schema = "embdemo-cost/1";

LessonReport cost_report(const CostLesson& lesson);

}  // namespace embdemo
