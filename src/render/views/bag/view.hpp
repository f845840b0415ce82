// `embdemo bag`'s views, the one include of its command: its sheet, which every format renders
// (render/sheet), the panels of its figure, and what its step-by-step view shares with them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/lessons/bag_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

inline constexpr const char* k_bag_json_schema = "embdemo-bag/1";

// The lesson's tables, from the request alone when `lesson` is null (the plan: shapes only),
// pointing into `lesson` otherwise.
std::vector<SheetTable> bag_tables(const BagRequest& request, const BagLesson* lesson);

// E, M, each bag's output beside the in-order M @ E (or max's winners), how far the two forms
// differ and why, and the --trace steps. Points into `lesson`, which must outlive it.
LessonSheet bag_sheet(const BagLesson& lesson);

// Each bag's rows of E reduced to one row; for sum and mean also M @ E, M multi-hot (counts,
// counts / bag length, or summed per-sample weights); for max the rows each bag picks, with the
// cells that won each column framed (max has no matrix form). The caption adds what the frames
// mean to the sheet's.
Figure bag_figure(const BagLesson& lesson, int precision);

// The ids of bag b, in bag order.
std::vector<std::uint64_t> bag_ids(const Bags& bags, std::size_t b);

// "empty: zeros" or "only padding_idx: zeros" when bag b's output is zeros for that reason, or "".
std::string bag_zeros_note(const BagLesson& lesson, std::size_t b);

// What M's entry (b, k) is in this lesson: "count of k in bag b", ...
const char* multihot_entry(const BagLesson& lesson);

}  // namespace embdemo
