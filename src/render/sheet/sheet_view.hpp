// The LessonView of a lesson on a sheet: every format from the sheet's generic writers, and the
// figure's own panels (the one part a lesson draws itself) under the sheet's caption. The sheet
// and the figure function must outlive the view.
#pragma once

#include <functional>

#include "render/formats/lesson_view.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

LessonView sheet_view(const LessonSheet& sheet, std::function<Figure(int precision)> panels);

}  // namespace embdemo
