// The step-by-step part of `embdemo bag --trace`: for each traced bag, the running row after
// every id as PyTorch's kernel adds (or maximises) it, and for sum and mean the running row of
// M @ E in its own order, then where the two final rows part ways, with the values in full.
// Also the phrases the bag's main view shares with it, so both give the same reasons.
#pragma once

#include <cstdint>
#include <string>

#include "core/lessons/bag_lesson.hpp"
#include "render/views/text.hpp"

namespace embdemo {

// Each bag's steps have a screen of their own: a long bag's running sums can grow well past
// the table's values, and the blocks above stay as they are without --trace.
std::string render_bag_trace(const BagLesson& lesson, const TextOptions& options);

// "adds in another order and divides before adding": how M @ E departs from the kernel in this
// run, or "" when it does not.
std::string route_clause(const BagRouteDifferences& ways, bool weighted);

// "-0.11146107 (bag) and -0.11146106 (M @ E), 1 ulp apart"; for +0 against -0 and for values
// that are not finite, what the difference is instead.
std::string pair_clause(float bag_value, float product_value, std::uint64_t ulps);

// "1 of 3 values", "both values", "all 16 values", "its only value": how many of `total` differ.
std::string how_many_differ(std::size_t differing, std::size_t total, const char* noun, const char* nouns);

}  // namespace embdemo
