// `embdemo tied`'s views, the one include of its command: its sheet, which every format renders
// (render/sheet), and the panels of its figure, the one part it draws itself.
#pragma once

#include <string>
#include <vector>

#include "core/lessons/tied_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

inline constexpr const char* k_tied_json_schema = "embdemo-tied/1";

// The lesson's tables, from the request alone when `lesson` is null (the plan: shapes only, and
// which rows of a chapter's logits are kept), pointing into `lesson` otherwise.
std::vector<SheetTable> tied_tables(const TiedRequest& request, const TiedLesson* lesson);

// E, H, the logits and their top K, the layouts, the parameter counts (here and for GPT-2 small)
// and what tying does to E's gradient. `hidden_file` is --hidden FILE, else empty. Points into
// `lesson`, which must outlive it.
LessonSheet tied_sheet(const TiedLesson& lesson, const std::string& hidden_file);

// H @ E.T = logits, each row's top-k logits framed; the caption adds what the frames mean to the
// sheet's.
Figure tied_figure(const TiedLesson& lesson, int precision);

}  // namespace embdemo
