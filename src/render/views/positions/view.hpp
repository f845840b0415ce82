// `embdemo positions`'s views, the one include of its command: its sheet, which every format
// renders (render/sheet), and the panels of its figure, the one part it draws itself.
#pragma once

#include <vector>

#include "core/lessons/positions_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

inline constexpr const char* k_positions_json_schema = "embdemo-positions/1";

// The lesson's tables, from the request alone when `lesson` is null (the plan: shapes only),
// pointing into `lesson` otherwise.
std::vector<SheetTable> positions_tables(const PositionsRequest& request, const PositionsLesson* lesson);

// E and the encoding's part (P, RoPE's rotation or ALiBi's bias), the lookups beside their one-hot
// products, what the encoding does and does not do, the repeated token, the encodings side by
// side. Points into `lesson`, which must outlive it.
LessonSheet positions_sheet(const PositionsLesson& lesson);

// E[ids] + P[0..T) (learned or sinusoidal P), RoPE(E[ids], t) with its scores, or ALiBi's lookup
// by distance; and the data loader's inputs and targets when the ids came from one.
Figure positions_figure(const PositionsLesson& lesson, int precision);

}  // namespace embdemo
