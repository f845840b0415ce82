#include <doctest/doctest.h>

#include "render/kit/lesson_report.hpp"

#include <map>
#include <string>
#include <vector>

#include "render/formats/lesson_view.hpp"

using namespace embdemo;

namespace {

// A view whose every member records that it was called; its report holds one 1 x 2 table.
struct CountingView {
    std::map<std::string, int> calls;
    Matrix table{1, 2};
    LessonView view;

    CountingView() {
        table.values = {0.5f, -2.0f};
        view.title = "A lesson";
        view.report = [this](const std::vector<std::string>&) {
            ++calls["report"];
            LessonReport report;
            report.head = {{"schema", "\"test/1\""}};
            report.tables.emplace_back("t", "T", &table, std::vector<std::size_t>{1, 2});
            return ParseResult<LessonReport>::ok(std::move(report));
        };
        view.text = [this](const TextOptions&, View) {
            ++calls["text"];
            return std::vector<std::string>{"step one\n", "step two\n"};
        };
        view.figure = [this](int) {
            ++calls["figure"];
            Figure figure;
            figure.title = "F";
            return figure;
        };
        view.python = [this] {
            ++calls["python"];
            return std::string("print(1)\n");
        };
    }
};

RenderSettings settings_for(OutputFormat format) {
    RenderSettings settings;
    settings.format = format;
    return settings;
}

}  // namespace

TEST_CASE("render_view calls only the member the format needs") {
    const std::vector<std::pair<OutputFormat, std::map<std::string, int>>> cases = {
        {OutputFormat::text, {{"text", 1}}},
        {OutputFormat::json, {{"report", 1}}},
        {OutputFormat::csv, {{"report", 1}}},
        {OutputFormat::tsv, {{"report", 1}}},
        {OutputFormat::markdown, {{"report", 1}}},  // the title is the view's own
        {OutputFormat::svg, {{"figure", 1}}},
        {OutputFormat::html, {{"figure", 1}, {"text", 1}}},  // the figure above the text steps
        {OutputFormat::python, {{"python", 1}}},
    };
    for (const auto& [format, expected] : cases) {
        CountingView counting;
        const auto steps = render_view(counting.view, settings_for(format));
        CAPTURE(static_cast<int>(format));
        REQUIRE(static_cast<bool>(steps));
        CHECK(counting.calls == expected);
    }
}

TEST_CASE("render_view writes the report's table in each machine format and the text as steps") {
    CountingView counting;
    CHECK(render_view(counting.view, settings_for(OutputFormat::csv)).value() ==
          std::vector<std::string>{"# t (T) 1 x 2\n0.5,-2\n"});
    CHECK(render_view(counting.view, settings_for(OutputFormat::tsv)).value() ==
          std::vector<std::string>{"# t (T) 1 x 2\n0.5\t-2\n"});
    CHECK(render_view(counting.view, settings_for(OutputFormat::json)).value() ==
          std::vector<std::string>{"{\n  \"schema\": \"test/1\",\n  \"embdemo_version\": " + version_json_value() +
                                   ",\n  \"t\": [\n    [0.5, -2]\n  ]\n}\n"});
    CHECK(render_view(counting.view, settings_for(OutputFormat::markdown)).value().front().rfind("## A lesson\n", 0) == 0);
    CHECK(render_view(counting.view, settings_for(OutputFormat::text)).value().size() == 2);
}

TEST_CASE("a member left empty is a format the lesson does not carry") {
    LessonView empty;
    for (const OutputFormat format : {OutputFormat::text, OutputFormat::json, OutputFormat::csv, OutputFormat::tsv,
                                      OutputFormat::markdown, OutputFormat::svg, OutputFormat::html,
                                      OutputFormat::python}) {
        CHECK_FALSE(static_cast<bool>(render_view(empty, settings_for(format))));
    }
    CountingView figure_only;
    figure_only.view.text = nullptr;  // html needs the text steps under the figure
    CHECK_FALSE(static_cast<bool>(render_view(figure_only.view, settings_for(OutputFormat::html))));
    CHECK(static_cast<bool>(render_view(figure_only.view, settings_for(OutputFormat::svg))));
}
