// `embdemo factor`'s views, the one include of its command: its sheet, which every format renders
// (render/sheet), and the panels of its figure, the one part it draws itself.
#pragma once

#include <vector>

#include "core/lessons/factor_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

inline constexpr const char* k_factor_json_schema = "embdemo-factor/1";

// The lesson's tables, from the request alone when `lesson` is null (the plan: shapes only, for
// the printed-numbers cap before anything is drawn), pointing into `lesson` otherwise.
std::vector<SheetTable> factor_tables(const FactorRequest& request, const FactorLesson* lesson);

// E1, E2, both routes and their checks, the table E1 @ E2 and the parameter counts (here and for
// ALBERT). Points into `lesson`, which must outlive it.
LessonSheet factor_sheet(const FactorLesson& lesson);

// E1[ids] @ E2, and (one_hot(ids) @ E1) @ E2 with the cells where the routes differ framed; the
// caption is the sheet's.
Figure factor_figure(const FactorLesson& lesson, int precision);

}  // namespace embdemo
