#include <doctest/doctest.h>

#include "render/kit/lesson_report.hpp"

using namespace embdemo;

namespace {

// A 1 x 2 batch of 2-wide rows and a 2 x 1 table of counts, as a lesson would list them.
struct TinyTables {
    Matrix batch{2, 2};
    Matrix counts{2, 1};
    TinyTables() {
        batch.values = {0.5f, -1.0f, 2.0f, 0.25f};
        counts.values = {3.0f, 1.0f};
    }
};

LessonReport tiny_report(const Matrix& batch, const Matrix& table) {
    LessonReport report;
    report.head = {{"schema", "\"test/1\""}, {"ids", "[[1, 2]]"}};
    report.tables = {{"upstream", "G", &batch, rows_shape(1, 2, true, 2), false},
                     {"counts", "c", &table, rows_shape(1, 2, false, 1), true}};
    report.checks = {{"identical", "true"}};
    return report;
}

}  // namespace

TEST_CASE("a batch's rows nest as B x T x d in JSON, a flat list stays n x d") {
    CHECK(rows_shape(2, 3, true, 4) == std::vector<std::size_t>{2, 3, 4});
    CHECK(rows_shape(1, 3, false, 4) == std::vector<std::size_t>{3, 4});
}

TEST_CASE("render_lesson_json writes head, nested tables and checks in order") {
    const TinyTables tables;
    const LessonReport report = tiny_report(tables.batch, tables.counts);
    CHECK(render_lesson_json(report, {}) ==
          "{\n"
          "  \"schema\": \"test/1\",\n"
          "  \"embdemo_version\": " + version_json_value() + ",\n"
          "  \"ids\": [[1, 2]],\n"
          "  \"upstream\": [\n"
          "    [\n"
          "      [0.5, -1],\n"
          "      [2, 0.25]\n"
          "    ]\n"
          "  ],\n"
          "  \"counts\": [\n"
          "    [3],\n"
          "    [1]\n"
          "  ],\n"
          "  \"identical\": true\n"
          "}\n");
    CHECK(render_lesson_json(report, {"counts"}).find("upstream") == std::string::npos);
}

TEST_CASE("render_lesson_delimited labels each table, and prints one shown table bare") {
    const TinyTables tables;
    const LessonReport report = tiny_report(tables.batch, tables.counts);
    CHECK(render_lesson_delimited(report, ',', {}) ==
          "# upstream (G) 1 x 2 x 2\n0.5,-1\n2,0.25\n\n# counts (c) 2 x 1\n3\n1\n");
    CHECK(render_lesson_delimited(report, '\t', {"counts"}) == "3\n1\n");
    CHECK(table_names(report) == "upstream, counts");
}
