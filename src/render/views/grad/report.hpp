// `embdemo grad` for the machine formats (schema embdemo-grad/1 in docs/schema.md).
#pragma once

#include <cstdint>

#include "core/lessons/grad_lesson.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_grad_json_schema = "embdemo-grad/1";

LessonReport grad_report(const GradLesson& lesson);

// The plan: the most numbers grad_report's tables hold for a request (json, csv and tsv print every
// one): E, G, both gradients, dL/dX, and E after max_norm and the sparse values when asked; the
// sparse values counted at one row per id, their most. Checked against the report by
// tests/unit/lesson_plans_test.cpp.
std::uint64_t grad_report_values(const GradRequest& request);

}  // namespace embdemo
