// The generic writers of a lesson sheet (render/sheet), tested once on a small sheet made here
// rather than per lesson: the text view, json, csv, markdown, the caption and the script, each by
// exact equality or by the lines that carry the sheet's data; and the plan read off the shapes.
#include <doctest/doctest.h>

#include <string>

#include "render/kit/lesson_report.hpp"
#include "render/sheet/sheet_writers.hpp"

namespace embdemo {
namespace {

// W (3 x 2, -0.0 in it) and W[ids] for ids [1, 1], beside its one-hot twin.
struct TinyLesson {
    IdBatch ids;
    Matrix weight{3, 2}, lookup{2, 2}, onehot{2, 2};
    LessonSheet sheet;

    explicit TinyLesson(float onehot_first = 1.0f) {
        ids.values = {1, 1};
        ids.batch = 1;
        ids.seq = 2;
        weight.values = {0.5f, -0.25f, 1.0f, 2.0f, -0.0f, 3.5f};
        lookup.values = {1.0f, 2.0f, 1.0f, 2.0f};
        onehot.values = {onehot_first, 2.0f, 1.0f, 2.0f};
        sheet.title = "A tiny lesson: W[ids]";
        sheet.schema = "embdemo-tiny/1";
        sheet.ids = &ids;
        sheet.parameters = {{"ids", "[1, 1]", "T = 2", "[1, 1]"}, {"vocab", "3", "", "3"}, {"hidden", "", "", "true"}};
        sheet.tables = {SheetTable{"weight", "w.weight", TableRole::weight, {3, 2}, &weight},
                        SheetTable{"lookup", "w(ids)", TableRole::per_id, {2, 2}, &lookup},
                        SheetTable{"onehot", "one_hot(ids) @ W", TableRole::per_id, {2, 2}, &onehot, false}};
        sheet.tables[0].selected = {1};
        sheet.tables[1].python = "looked";
        sheet.tables[1].what = "W[idx]";
        sheet.tables[2].python = "onehot";
        sheet.tables[2].what = "one_hot(idx) @ W";
        sheet.blocks = {SheetBlock::rows_of("W = w.weight   3 x 2   > marks the rows the ids use", "weight"),
                        SheetBlock::pair("The lookup, and one_hot(ids) @ W under it   2 x 2", "lookup", "onehot", "lookup",
                                         "one-hot")};
        sheet.checks.emplace_back("W[ids] and one_hot(ids) @ W", "lookup", "onehot", compare_exact(lookup, onehot), 4);
        SheetClaim claim{"Both ids pick row 1, so the two rows of W[ids] are equal.", "same_rows", "true",
                         "assert same_bits(looked[0], looked[1]), \"the rows differ\"\n", [] { return true; }};
        claim.paragraph = true;
        sheet.claims.push_back(claim);
        sheet.fields = {{"extra", "null"}};
        sheet.agree = "the two forms agree";
        sheet.disagree = "between the forms";
        sheet.script_what = "A tiny lesson.";
        sheet.script_run = "2 ids";
        sheet.script_imports = "import numpy\n";
        sheet.torch_lines = {"w = torch.nn.Embedding(3, 2)", "looked = w(idx).detach()"};
    }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("render_sheet_text: header, a weight block with its selected row marked, a pair block, the claims, the verdict") {
    const TinyLesson tiny;
    CHECK(render_sheet_text(tiny.sheet, TextOptions{}) ==
          "A tiny lesson: W[ids]\n"
          "  ids    [1, 1]  (T = 2)\n"
          "  vocab  3\n"
          "\n"
          "W = w.weight   3 x 2   > marks the rows the ids use\n"
          "    0   0.5000 -0.2500\n"
          "  > 1   1.0000  2.0000\n"
          "    2  -0.0000  3.5000\n"
          "\n"
          "The lookup, and one_hot(ids) @ W under it   2 x 2\n"
          "    ids[0]  id 1  lookup    1.0000  2.0000\n"
          "                  one-hot   1.0000  2.0000\n"
          "    ids[1]  id 1  lookup    1.0000  2.0000\n"
          "                  one-hot   1.0000  2.0000\n"
          "\n"
          "Both ids pick row 1, so the two rows of W[ids] are equal.\n"
          "verdict: IDENTICAL -- the two forms agree bit for bit (4 values)\n");
}

TEST_CASE("sheet_report: the head from the parameters, the JSON tables, the lesson's fields, the claims', the verdict") {
    const TinyLesson tiny;
    CHECK(render_lesson_json(sheet_report(tiny.sheet), {}) ==
          "{\n"
          "  \"schema\": \"embdemo-tiny/1\",\n"
          "  \"embdemo_version\": " + version_json_value() + ",\n"
          "  \"ids\": [1, 1],\n"
          "  \"vocab\": 3,\n"
          "  \"hidden\": true,\n"
          "  \"weight\": [\n"
          "    [0.5, -0.25],\n"
          "    [1, 2],\n"
          "    [-0, 3.5]\n"
          "  ],\n"
          "  \"lookup\": [\n"
          "    [1, 2],\n"
          "    [1, 2]\n"
          "  ],\n"
          "  \"extra\": null,\n"
          "  \"same_rows\": true,\n"
          "  \"identical\": true,\n"
          "  \"differing\": 0\n"
          "}\n");
    CHECK(render_lesson_delimited(sheet_report(tiny.sheet), ',', {}) ==
          "# weight (w.weight) 3 x 2\n0.5,-0.25\n1,2\n-0,3.5\n\n# lookup (w(ids)) 2 x 2\n1,2\n1,2\n");
}

TEST_CASE("render_sheet_markdown: the report's notes, then each claim and the verdict, escaped") {
    const TinyLesson tiny;
    const std::string markdown = render_sheet_markdown(tiny.sheet, 4);
    CHECK(markdown.rfind("## A tiny lesson: W[ids]\n\n- ids: `[1, 1]`\n", 0) == 0);
    CHECK(contains(markdown, "| 2 | -0.0000 | 3.5000 |\n"));
    CHECK(contains(markdown, "- differing: `0`\n\nBoth ids pick row 1, so the two rows of W\\[ids\\] are equal.\n\n"
                             "**verdict**: IDENTICAL -- the two forms agree bit for bit (4 values)\n"));
}

TEST_CASE("sheet_caption and render_sheet_python: every check's sentence, every claim, every named table's bits") {
    const TinyLesson tiny;
    CHECK(sheet_caption(tiny.sheet) == std::vector<std::string>{"W[ids] and one_hot(ids) @ W agree bit for bit: all 4 values.",
                                                                "Both ids pick row 1, so the two rows of W[ids] are equal."});
    const std::string python = render_sheet_python(tiny.sheet);
    CHECK(contains(python, "idx = torch.tensor([1, 1])\nw = torch.nn.Embedding(3, 2)\nlooked = w(idx).detach()\n"));
    CHECK(contains(python, "expected_looked = from_bits([0x3f800000, 0x40000000, 0x3f800000, 0x40000000], (2, 2))\n"
                           "assert same_bits(looked, expected_looked), \"PyTorch's W[idx] differs from embdemo's\"\n"));
    CHECK(contains(python, "assert same_bits(looked, onehot), \"embdemo found W[ids] and one_hot(ids) @ W identical\"\n"));
    // Each claim: its sentence as a markdown cell, then its check as a code cell.
    CHECK(contains(python, "\n# %% [markdown]\n# Both ids pick row 1, so the two rows of W[ids] are equal.\n\n# %%\n"
                           "assert same_bits(looked[0], looked[1]), \"the rows differ\"\n"));
    CHECK(contains(python, "the verdict (identical)"));
}

TEST_CASE("a sheet whose check differs says how many values differ, in the text, the JSON and the script") {
    const TinyLesson tiny(1.5f);
    CHECK_FALSE(tiny.sheet.identical());
    CHECK(sheet_verdict_detail(tiny.sheet) == "1 of 4 values differs between the forms");
    CHECK(contains(render_sheet_text(tiny.sheet, TextOptions{}), "verdict: DIFFERENT -- 1 of 4 values differs between the forms\n"));
    CHECK(contains(render_lesson_json(sheet_report(tiny.sheet), {}), "\"identical\": false,\n  \"differing\": 1\n"));
    CHECK(contains(render_sheet_python(tiny.sheet), "assert differing_bits(looked, onehot) == 1,"));
    CHECK(contains(render_sheet_python(tiny.sheet), "the verdict (differing as embdemo says)"));
}

TEST_CASE("the plan: json, csv and tsv print the JSON tables' values, the script embeds the named tables'") {
    const TinyLesson tiny;
    CHECK(report_values(tiny.sheet.tables) == 6 + 4);  // weight and lookup; onehot is not in the JSON
    CHECK(script_values(tiny.sheet.tables) == 4 + 4);  // lookup and onehot
}

}  // namespace embdemo
