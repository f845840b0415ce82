// The text view of `embdemo cost`: the sizes and where they came from, a table per pass (forward,
// backward into E) with each method's multiply-adds, multiplications by zero, additions, bytes
// read and written and the memory X takes, then what the numbers say. Every sentence comes from
// the counts; exact counts are in the JSON, the table rounds large ones to fit 80 columns.
#pragma once

#include <cstdint>
#include <string>

#include "core/cost.hpp"

namespace embdemo {

std::string render_cost_text(const CostLesson& lesson);

// "0", "9,999", "786 k", "39.5 G": a count in at most 7 columns (3 significant digits from 10,000).
std::string short_count(std::uint64_t count);

}  // namespace embdemo
