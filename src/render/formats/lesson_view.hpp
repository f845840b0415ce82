// What every lesson hands the renderers: one LessonView, whatever the lesson. Each member
// renders one way of showing the run and is called only for the format asked for (a JSON of
// a GPT-2 table is never built for a text run). A member left empty is a format the lesson
// cannot carry; render_view (render/formats/formats.cpp) holds the only switch on the output format.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/parse_result.hpp"
#include "render/kit/figure_model.hpp"
#include "render/formats/html.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/formats/output_format.hpp"
#include "render/views/text.hpp"

namespace embdemo {

struct LessonView {
    // The heading of markdown notes and of the html page; empty: the text view's first line, so
    // the two never disagree.
    std::string title;
    // json, csv, tsv and (unless `markdown` is set) markdown; `show` is --show's names, in order.
    std::function<ParseResult<LessonReport>(const std::vector<std::string>& show)> report;
    // The lesson's own lecture notes, where it has more to say than its tables.
    std::function<std::string(int precision)> markdown;
    // The text view as steps (one for the plain view; several for the teaching views, so that
    // --pause can stop between them).
    std::function<std::vector<std::string>(const TextOptions&, View)> text;
    std::function<Figure(int precision)> figure;  // svg; and html, unless `page` is set
    std::function<HtmlPage(int precision)> page;  // html with the lesson's own steps
    std::function<std::string()> python;          // a PyTorch script that re-checks the run
};

struct RenderSettings {
    OutputFormat format = OutputFormat::text;
    View view = View::plain;
    TextOptions text;                 // for the text view
    int precision = 4;                // for markdown, svg, html
    std::vector<std::string> show;    // --show, for json, csv, tsv and markdown
};

// The output as steps (written with blank lines between them), or why it cannot be made.
ParseResult<std::vector<std::string>> render_view(const LessonView& view, const RenderSettings& settings);

}  // namespace embdemo
