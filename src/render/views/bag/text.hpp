// The text view of `embdemo bag`: E with the rows the bags use marked, the multi-hot matrix M
// (sum and mean), each bag's output next to M @ E, or for max the winning row per column, and
// how far the two forms differ in ulps and why. Every number comes from the lesson.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/lessons/bag_lesson.hpp"
#include "render/views/text.hpp"

namespace embdemo {

// With `trace`, the first bags step by step (render/views/bag/trace_text.hpp) before the verdict.
std::string render_bag_text(const BagLesson& lesson, const TextOptions& options, bool trace = false);

// The ids of bag b, in bag order.
std::vector<std::uint64_t> bag_ids(const Bags& bags, std::size_t b);

// "empty: zeros" or "only padding_idx: zeros" when bag b's output is zeros for that reason, or "".
std::string bag_zeros_note(const BagLesson& lesson, std::size_t b);

// What M's entry (b, k) is in this lesson: "count of k in bag b", ...
const char* multihot_entry(const BagLesson& lesson);

// "PyTorch's M @ bag.weight (through the BLAS, on this machine) equals the bag's output bit for bit."
std::string bag_torch_matmul_sentence(const BagLesson& lesson);

// "the in-order M @ E equals the bag's output bit for bit", or how the two differ (sum, mean).
std::string bag_verdict_detail(const UlpDifference& diff);

}  // namespace embdemo
