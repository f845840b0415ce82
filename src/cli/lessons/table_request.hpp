// A table lesson's request with the sizes and seed validation filled (core/table_sizes.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/options.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/formats/lesson_view.hpp"
#include "render/views/python_script.hpp"

namespace embdemo {

template <typename Request>
Request table_request(const Options& options) {
    Request request;
    request.sizes() = options.request.sizes();
    return request;
}

// A lesson's view from its report, text, figure and script functions.
template <typename Lesson, typename ToReport, typename ToText, typename ToFigure, typename ToPython>
LessonView table_view(const Lesson& lesson, ToReport to_report, ToText to_text, ToFigure to_figure, ToPython to_python) {
    LessonView view;
    view.report = [&lesson, to_report](const std::vector<std::string>&) {
        return ParseResult<LessonReport>::ok(to_report(lesson));
    };
    view.text = [&lesson, to_text](const TextOptions& text, View shown) {
        return std::vector<std::string>{to_text(lesson, text, shown)};
    };
    view.figure = [&lesson, to_figure](int precision) { return to_figure(lesson, precision); };
    if constexpr (!std::is_same_v<ToPython, std::nullptr_t>) {  // nullptr: nothing PyTorch can re-run
        view.python = [&lesson, to_python] { return to_python(lesson); };
    }
    return view;
}

}  // namespace embdemo
