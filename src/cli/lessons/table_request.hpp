// The fields every table lesson's request shares, filled from the validated options.
#pragma once

#include <string>
#include <vector>

#include "cli/options.hpp"
#include "render/lesson_figures.hpp"
#include "render/lesson_view.hpp"

namespace embdemo {

template <typename Request>
Request table_request(const Options& options) {
    Request request;
    request.vocab_size = options.request.vocab_size;
    request.vocab_inferred = options.request.vocab_inferred;
    request.dim = options.request.dim;
    request.seed = options.request.seed;
    return request;
}

// A lesson's view from its report, text and figure functions.
template <typename Lesson, typename ToReport, typename ToText, typename ToFigure>
LessonView table_view(const Lesson& lesson, ToReport to_report, ToText to_text, ToFigure to_figure) {
    LessonView view;
    view.report = [&lesson, to_report](const std::vector<std::string>&) {
        return ParseResult<LessonReport>::ok(to_report(lesson));
    };
    view.text = [&lesson, to_text](const TextOptions& text, View shown) {
        return std::vector<std::string>{to_text(lesson, text, shown)};
    };
    view.figure = [&lesson, to_figure](int precision) { return to_figure(lesson, precision); };
    return view;
}

}  // namespace embdemo
