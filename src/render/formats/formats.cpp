// The one place an output format is turned into a renderer. Adding a format: a value in
// OutputFormat, a case here, a writer.
#include "render/formats/lesson_view.hpp"

#include <utility>

#include "render/formats/svg.hpp"

namespace embdemo {
namespace {

using Steps = std::vector<std::string>;

// One step, moved in: a braced list would copy a GPT-2 table's text.
ParseResult<Steps> one_step(std::string text) {
    Steps steps;
    steps.push_back(std::move(text));
    return ParseResult<Steps>::ok(std::move(steps));
}

std::string title_of(const LessonView& view) {
    if (!view.title.empty() || !view.text) return view.title;
    const Steps steps = view.text(TextOptions{}, View::plain);
    const std::string& first = steps.empty() ? std::string() : steps.front();
    return first.substr(0, first.find('\n'));
}

// The lesson's own page, or its figure above its text view's steps.
HtmlPage page_of(const LessonView& view, int precision) {
    if (view.page) return view.page(precision);
    TextOptions text;
    text.precision = precision;
    return lesson_page(title_of(view), "", view.figure(precision), view.text(text, View::plain));
}

ParseResult<Steps> from_report(const LessonView& view, const RenderSettings& settings) {
    auto report = view.report(settings.show);
    if (!report) return ParseResult<Steps>::fail(report.error());
    switch (settings.format) {
        case OutputFormat::json: return one_step(render_lesson_json(report.value(), settings.show));
        case OutputFormat::csv: return one_step(render_lesson_delimited(report.value(), ',', settings.show));
        case OutputFormat::tsv: return one_step(render_lesson_delimited(report.value(), '\t', settings.show));
        default: break;
    }
    return one_step(render_lesson_markdown(report.value(), title_of(view), settings.precision));
}

}  // namespace

bool can_render(const LessonView& view, OutputFormat format) {
    switch (format) {
        case OutputFormat::text: return static_cast<bool>(view.text);
        case OutputFormat::json:
        case OutputFormat::csv:
        case OutputFormat::tsv: return static_cast<bool>(view.report);
        case OutputFormat::markdown: return view.markdown || view.report;
        case OutputFormat::svg: return static_cast<bool>(view.figure);
        case OutputFormat::html: return view.page || (view.figure && view.text);
        case OutputFormat::python: return static_cast<bool>(view.python);
    }
    return false;
}

ParseResult<Steps> render_view(const LessonView& view, const RenderSettings& settings) {
    if (!can_render(view, settings.format)) return ParseResult<Steps>::fail("this lesson has no such view");
    switch (settings.format) {
        case OutputFormat::text: return ParseResult<Steps>::ok(view.text(settings.text, settings.view));
        case OutputFormat::json:
        case OutputFormat::csv:
        case OutputFormat::tsv: return from_report(view, settings);
        case OutputFormat::markdown:
            if (view.markdown) return one_step(view.markdown(settings.precision));
            return from_report(view, settings);
        case OutputFormat::svg: return one_step(render_svg(view.figure(settings.precision)));
        case OutputFormat::html: return one_step(render_html(page_of(view, settings.precision)));
        case OutputFormat::python: return one_step(view.python());
    }
    return ParseResult<Steps>::fail("unknown format");
}

}  // namespace embdemo
