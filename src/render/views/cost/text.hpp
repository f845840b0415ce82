// The text view of `embdemo cost`: the sizes and where they came from, a table per pass (forward,
// backward into E) with each method's multiply-adds, multiplications by zero, additions, bytes
// read and written and the memory X takes, then what the numbers say. Every sentence comes from
// the counts; exact counts are in the JSON, the table rounds large ones to fit 80 columns.
#pragma once

#include <cstdint>
#include <string>

#include "core/lessons/cost.hpp"

namespace embdemo {

std::string render_cost_text(const CostLesson& lesson);

// "0", "9,999", "786 k", "39.5 G": a count in at most 7 columns (3 significant digits from 10,000).
std::string short_count(std::uint64_t count);

// "65.4x", "64,144x": how many times `part` fits in `whole`, grouped once it is large.
std::string how_many_times(std::uint64_t whole, std::uint64_t part);

// "lookup", "dense X @ E", "CSR X.T @ G", "scatter-add": a method as the tables name it.
const char* cost_method_label(CostMethod method, CostPass pass);

// The lesson's row for one method and pass.
const CostRow& cost_row(const CostLesson& lesson, CostMethod method, CostPass pass);

}  // namespace embdemo
