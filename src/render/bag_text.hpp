// The text view of `embdemo bag`: E with the rows the bags use marked, the multi-hot matrix M
// (sum and mean), each bag's output next to M @ E, or for max the winning row per column, and
// how far the two forms differ in ulps and why. Every number comes from the lesson.
#pragma once

#include <string>

#include "core/bag_lesson.hpp"
#include "render/text.hpp"

namespace embdemo {

// With `trace`, the first bags step by step (render/bag_trace_text.hpp) before the verdict.
std::string render_bag_text(const BagLesson& lesson, const TextOptions& options, bool trace = false);

}  // namespace embdemo
