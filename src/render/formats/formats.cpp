// The one place an output format is turned into a renderer. Adding a format: a value in
// OutputFormat, a case here, a writer.
#include "render/formats/lesson_view.hpp"

#include <utility>

#include "render/formats/ipynb.hpp"
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

ParseResult<Steps> missing() { return ParseResult<Steps>::fail("this lesson has no such view"); }

// The lesson's report written by `write` (json, csv, tsv or markdown).
template <typename Write>
ParseResult<Steps> from_report(const LessonView& view, const RenderSettings& settings, const Write& write) {
    if (!view.report) return missing();
    auto report = view.report(settings.show);
    if (!report) return ParseResult<Steps>::fail(report.error());
    return one_step(write(report.value()));
}

}  // namespace

// The only switch on the output format.
ParseResult<Steps> render_view(const LessonView& view, const RenderSettings& settings) {
    const auto& show = settings.show;
    switch (settings.format) {
        case OutputFormat::text:
            if (!view.text) return missing();
            return ParseResult<Steps>::ok(view.text(settings.text, settings.view));
        case OutputFormat::json:
            return from_report(view, settings, [&](const LessonReport& report) { return render_lesson_json(report, show); });
        case OutputFormat::csv:
            return from_report(view, settings,
                               [&](const LessonReport& report) { return render_lesson_delimited(report, ',', show); });
        case OutputFormat::tsv:
            return from_report(view, settings,
                               [&](const LessonReport& report) { return render_lesson_delimited(report, '\t', show); });
        case OutputFormat::markdown:
            if (view.markdown) return one_step(view.markdown(settings.precision));
            return from_report(view, settings, [&](const LessonReport& report) {
                return render_lesson_markdown(report, title_of(view), settings.precision);
            });
        case OutputFormat::svg:
            if (!view.figure) return missing();
            return one_step(render_svg(view.figure(settings.precision)));
        case OutputFormat::html:
            if (!view.page && !(view.figure && view.text)) return missing();
            return one_step(render_html(page_of(view, settings.precision)));
        case OutputFormat::python:
            if (!view.python) return missing();
            return one_step(view.python());
        case OutputFormat::ipynb:
            if (!view.python) return missing();
            return one_step(render_ipynb(view.python()));
    }
    return missing();
}

}  // namespace embdemo
