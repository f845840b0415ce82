// The step-by-step part of `embdemo bag --trace`: for each traced bag, the running row after
// every id as PyTorch's kernel adds (or maximises) it, and for sum and mean the running row of
// M @ E in its own order, then where the two final rows part ways, with the values in full.
#pragma once

#include <string>

#include "core/bag_lesson.hpp"
#include "render/text.hpp"

namespace embdemo {

// Each bag's steps have a screen of their own: a long bag's running sums can grow well past
// the table's values, and the blocks above stay as they are without --trace.
std::string render_bag_trace(const BagLesson& lesson, const TextOptions& options);

}  // namespace embdemo
