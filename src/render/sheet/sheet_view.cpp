#include "render/sheet/sheet_view.hpp"

#include <utility>

#include "render/sheet/sheet_writers.hpp"

namespace embdemo {

LessonView sheet_view(const LessonSheet& sheet, std::function<Figure(int precision)> panels) {
    LessonView view;
    view.title = sheet.title;
    view.report = [&sheet](const std::vector<std::string>&) { return ParseResult<LessonReport>::ok(sheet_report(sheet)); };
    view.markdown = [&sheet](int precision) { return render_sheet_markdown(sheet, precision); };
    view.text = [&sheet](const TextOptions& text, View shown) {
        return std::vector<std::string>{render_sheet_text(sheet, text, shown == View::trace)};
    };
    view.figure = [&sheet, panels = std::move(panels)](int precision) {
        // The sheet's sentences first, then what only the panels show (tied's framed cells).
        Figure figure = panels(precision);
        std::vector<std::string> caption = sheet_caption(sheet);
        caption.insert(caption.end(), figure.caption.begin(), figure.caption.end());
        figure.caption = std::move(caption);
        return figure;
    };
    view.python = [&sheet] { return render_sheet_python(sheet); };
    return view;
}

}  // namespace embdemo
