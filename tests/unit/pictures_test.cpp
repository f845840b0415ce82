#include <doctest/doctest.h>

#include <cstring>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "core/lessons/grad_lesson.hpp"
#include "core/torch/init.hpp"
#include "core/lessons/report.hpp"
#include "render/views/figure.hpp"
#include "render/views/grad/text.hpp"
#include "render/formats/html.hpp"
#include "render/kit/number_format.hpp"
#include "render/views/python_script.hpp"
#include "render/formats/svg.hpp"
#include "render/kit/xml_text.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "text_checks.hpp"
#include "render/views/grad/view.hpp"

using namespace embdemo;
using embdemo::testing::contains;

namespace {

DemoReport seeded_report(TokenIds ids, std::uint64_t vocab, std::uint64_t dim) {
    DemoRequest request;
    request.ids = std::move(ids);
    request.shape = IdShape{1, request.ids.size(), false};
    request.vocab_size = vocab;
    request.dim = dim;
    return build_demo_report(request, torch_embedding_weight(vocab, dim, request.seed));
}

// The rows of a figure matrix that stand for table rows, in order (gaps left out).
std::vector<std::size_t> table_rows(const FigureMatrix& m) {
    std::vector<std::size_t> rows;
    for (const FigureRow& row : m.rows) {
        if (!row.gap) rows.push_back(static_cast<std::size_t>(row.table_row));
    }
    return rows;
}

std::vector<std::size_t> without_gaps(const std::vector<std::size_t>& positions) {
    std::vector<std::size_t> kept;
    for (const std::size_t p : positions) {
        if (p != k_gap) kept.push_back(p);
    }
    return kept;
}

// A table as a weights file could hold it (values PyTorch would never draw).
DemoReport file_report(Matrix weight, TokenIds ids, const char* path = "w.npy") {
    DemoRequest request;
    request.shape = IdShape{1, ids.size(), false};
    request.ids = std::move(ids);
    request.vocab_size = weight.rows;
    request.dim = weight.cols;
    request.origin.kind = WeightOrigin::Kind::file;
    request.origin.detail = path;
    return build_demo_report(request, std::move(weight));
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) out += line + '\n';
    return out;
}

GradLesson grad_lesson(std::vector<std::uint64_t> ids, std::uint64_t vocab, std::uint64_t dim) {
    GradRequest request;
    request.ids.values = std::move(ids);
    request.ids.seq = request.ids.values.size();
    request.vocab_size = vocab;
    request.dim = dim;
    return run_grad_lesson(request, {}, {});
}

}  // namespace

TEST_CASE("lookup_figure keys each id's row of E and points every id at it") {
    const DemoReport report = seeded_report({5, 0, 5}, 8, 4);
    const Figure figure = lookup_figure(report, 4);
    REQUIRE(figure.panels.size() == 2);
    const FigurePanel& lookup = figure.panels[0];
    const FigureMatrix& e = lookup.items[1];
    CHECK(e.rows[5].key == 0);  // id 5 appears first
    CHECK(e.rows[0].key == 1);
    CHECK(e.rows[3].key == k_no_key);
    CHECK(e.rows[5].note == "< ids[0], ids[2]");
    REQUIRE(lookup.arrows[0].size() == 3);
    CHECK(lookup.arrows[0][1].from == 1);
    CHECK(lookup.arrows[0][1].to == 0);   // ids[1] = 0 -> row 0 of E
    CHECK(lookup.arrows[1][2].from == 5);  // row 5 of E -> row 2 of the result
    CHECK(figure.keys == std::vector<std::string>{"id 5: ids[0], ids[2]", "id 0: ids[1]"});
    // X: the 1 of row i is marked in column ids[i], and only there.
    const FigureMatrix& x = figure.panels[1].items[0];
    CHECK(x.rows[0].marked[5]);
    CHECK(x.rows[0].cells[5] == "1");
    CHECK_FALSE(x.rows[0].marked[0]);
    CHECK(x.rows[1].marked[0]);
}

TEST_CASE("lookup_figure summarises E with the text view's own rows and columns") {
    const DemoReport report = seeded_report({464, 3290, 464, 50256}, 50257, 64);
    const Figure figure = lookup_figure(report, 4);
    const WeightRows shown = weight_rows(report);
    const Screen screen = text_screen(report, 4);
    const FigureMatrix& e = figure.panels[0].items[1];
    CHECK(table_rows(e) == without_gaps(shown.rows));
    CHECK(e.col_labels.size() == screen.cols.size());
    CHECK(e.rows.size() == shown.rows.size());
    // The value the text view prints is the value the figure prints.
    const std::string text_cell = format_row_cells(report.weight, 0, {screen.cols[0]}, screen.format);
    CHECK(e.rows[0].cells[0] == text_cell.substr(text_cell.find_first_not_of(' ')));
    CHECK(contains(figure.caption[1], "8 of 50,257 rows of E"));
}

TEST_CASE("render_svg escapes text and refers to nothing outside itself") {
    const std::string svg = render_svg(lookup_figure(seeded_report({2, 3, 1}, 4, 5), 4));
    CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"", 0) == 0);
    CHECK(contains(svg, "&lt; ids[0]"));
    CHECK_FALSE(contains(svg, "< ids[0]"));
    CHECK_FALSE(contains(svg, "href=\"http"));
    CHECK_FALSE(contains(svg, "data-e-row"));  // the page's hooks stay in the page
    CHECK(contains(render_svg_element(lookup_figure(seeded_report({2, 3, 1}, 4, 5), 4)), "data-e-row=\"2\""));
    CHECK(std::count_if(svg.begin(), svg.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 128; }) == 0);
    CHECK(escape_xml("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;");
}

TEST_CASE("lookup_page outlines every id's row, and the traced id's row in step 6") {
    const DemoReport report = seeded_report({5, 0, 5}, 8, 4);
    const HtmlPage page = lookup_page(report, torch_linear_weight(8, 4, 123), 4);
    // Step 6 of the walkthrough is taller than a screen: it goes on in step 7, outlining the same row.
    REQUIRE(page.steps.size() == 8);
    CHECK(page.steps[0].rows == std::vector<std::uint64_t>{0, 5});
    CHECK(page.steps[5].rows == std::vector<std::uint64_t>{5});
    CHECK(page.steps[6].rows == std::vector<std::uint64_t>{5});
    CHECK(page.steps[5].focus == "Outlined in the figure: row 5 of E (ids[0]).");
    CHECK(page.steps[6].heading == "Step 7 of 8: the product equals the lookup (continued)");
    CHECK(page.steps[2].heading == "Step 3 of 8: looking up ids");
    const std::string html = render_html(page);
    CHECK(contains(html, "<section class=\"step\" id=\"step-6\" data-rows=\"5\">"));
    // The one URL is the SVG namespace, a name rather than something to fetch.
    CHECK(html.find("http") == html.find("http://www.w3.org/2000/svg\""));
    CHECK(html.find("http", html.find("http") + 1) == std::string::npos);
}

TEST_CASE("lookup_page's step 6 outlines the row of the first difference when the two differ") {
    Matrix weight(3, 2);
    weight.values = {1, 2, INFINITY, 4, 5, 6};
    const DemoReport report = file_report(weight, {2, 0});
    REQUIRE_FALSE(report.verdict.identical);
    const HtmlPage page = lookup_page(report, torch_linear_weight(3, 2, 123), 4);
    CHECK(page.steps[5].rows == std::vector<std::uint64_t>{report.request.ids[report.difference->position]});
}

TEST_CASE("grad_page has one step per used row, outlining that row of dE") {
    const HtmlPage page = grad_page(grad_lesson({3, 1, 3}, 5, 3), 4);
    // The overview takes three screens of at most 28 lines, each outlining the used rows.
    REQUIRE(page.steps.size() == 5);
    CHECK(page.steps[0].rows == std::vector<std::uint64_t>{1, 3});
    CHECK(page.steps[2].rows == std::vector<std::uint64_t>{1, 3});
    CHECK(page.steps[4].rows == std::vector<std::uint64_t>{3});
    CHECK(page.steps[4].heading == "Step 5 of 5: row 3 of dE");
    CHECK(contains(page.steps[4].body, "Row 3 of dE: id 3 at ids[0], ids[2]"));
    for (const HtmlStep& step : page.steps) CHECK(std::count(step.body.begin(), step.body.end(), '\n') < 28);
}

TEST_CASE("grad_figure scatters every G row into its id's row of dE") {
    const GradLesson lesson = grad_lesson({3, 1, 3}, 5, 3);
    const Figure figure = grad_figure(lesson, 4);
    const FigurePanel& scatter = figure.panels[0];
    REQUIRE(scatter.arrows[0].size() == 3);
    CHECK(scatter.arrows[0][0].to == 3);
    CHECK(scatter.arrows[0][1].to == 1);
    const FigureMatrix& xt = figure.panels[1].items[0];  // X.T: row k, column i is 1 when ids[i] == k
    CHECK(xt.rows[3].marked == std::vector<bool>{true, false, true});
    CHECK(table_rows(figure.panels[1].items[2]) == without_gaps(grad_layout(lesson, 4).rows));
}

TEST_CASE("grad --max-norm: the figure draws E before and after the renorm above dE, the page adds its step") {
    for (const double max_norm : {0.5, 100.0}) {
        GradLesson plain = grad_lesson({3, 1, 3}, 5, 3);
        GradRequest request = plain.request;
        request.max_norm = MaxNorm{max_norm, 2.0};
        const GradLesson lesson = run_grad_lesson(request, {}, {});
        CHECK(lesson.grad_lookup.values == plain.grad_lookup.values);
        const Figure figure = grad_figure(lesson, 4);
        REQUIRE(figure.panels.size() == 3);
        const FigurePanel& renorm = figure.panels[0];
        std::vector<std::uint64_t> rescaled;
        for (const RenormRow& row : lesson.renorm) {
            if (row.rescaled) rescaled.push_back(row.row);
        }
        const HtmlPage page = grad_page(lesson, 4);
        REQUIRE(page.steps.size() == 6);
        CHECK(contains(page.steps[3].heading, "Step 4 of 6: max_norm"));
        CHECK(page.steps[3].rows == rescaled);
        CHECK(contains(figure.title, "max_norm=" + std::string(max_norm == 0.5 ? "0.5" : "100.0")));
        if (max_norm == 0.5) {
            // Rows 1 and 3 of seed 123 have norms 1.95 and 0.38: only row 1 is rescaled.
            CHECK(rescaled == std::vector<std::uint64_t>{1});
            REQUIRE(renorm.items.size() == 2);
            CHECK(renorm.items[0].name == "E as drawn");
            CHECK(renorm.items[1].name == "E after emb(ids)");
            CHECK(renorm.arrows[0].size() == 1);
            CHECK(renorm.items[1].rows[1].note == "x " + shortest_round_trip(lesson.renorm[0].scale));
            CHECK(renorm.items[1].rows[1].marked == std::vector<bool>{true, true, true});
            CHECK(contains(joined(figure.caption), "1 of the 2 distinct ids' rows had a norm (p = 2.0) above 0.5"));
        } else {
            CHECK(rescaled.empty());
            REQUIRE(renorm.items.size() == 1);
            CHECK(contains(renorm.title, "rescales no row"));
            CHECK(contains(joined(figure.caption), "None of the 2 distinct ids' rows"));
        }
        CHECK(contains(joined(figure.caption), "dE is what it is without max_norm"));
        // dE below is the gradient without max_norm, drawn as before.
        const Figure without = grad_figure(plain, 4);
        REQUIRE(figure.panels[1].items[1].rows.size() == without.panels[0].items[1].rows.size());
        for (std::size_t r = 0; r < without.panels[0].items[1].rows.size(); ++r) {
            CHECK(figure.panels[1].items[1].rows[r].cells == without.panels[0].items[1].rows[r].cells);
        }
    }
}

TEST_CASE("the grad --max-norm script builds the module with max_norm and checks E after the forward") {
    GradRequest request = grad_lesson({3, 1, 3}, 5, 3).request;
    request.max_norm = MaxNorm{0.5, std::numeric_limits<double>::infinity()};
    request.padding_idx = 1;
    const std::string script = render_grad_python(run_grad_lesson(request, {}, {}), "");
    CHECK(contains(script, "M, P = 0.5, float(\"inf\")"));
    CHECK(contains(script, "torch.nn.Embedding(5, 3, padding_idx=1, max_norm=M, norm_type=P)"));
    CHECK(contains(script, "drawn = embedding.weight.detach().clone()"));
    CHECK(contains(script, "assert same_bits(after[used], expected_after)"));
    CHECK(contains(script, "from_pretrained(drawn.clone(), freeze=False, padding_idx=1)    # no max_norm"));
    CHECK(script.find("drawn = ") < script.find("G = torch.randn"));
}

TEST_CASE("the Python scripts spell float32 values as their bits, NaN payloads and -0.0 included") {
    Matrix weight(2, 3);
    weight.values = {-0.0f, 20.0f, 0.1f, 1e-30f, -3.5f, 1.0f / 3.0f};
    std::uint32_t payload = 0x7fa00001;  // a signalling NaN: no decimal literal spells it
    std::memcpy(&weight.values[2], &payload, sizeof payload);
    const std::string script = render_lookup_python(file_report(weight, {1, 0}));
    CHECK(contains(script, "expected_lookup = from_bits([0x0da24260, 0xc0600000, 0x3eaaaaab, 0x80000000, 0x41a00000, "
                           "0x7fa00001], (2, 3))"));
    CHECK(contains(script, "numpy.load(\"w.npy\")"));
    CHECK(contains(script, "idx = torch.tensor([1, 0])"));
}

TEST_CASE("a script opens a file whose name is not UTF-8 by its very bytes") {
    Matrix weight(1, 1);
    DemoReport report = file_report(weight, {0});
    report.request.origin.detail = "w\xff\".npy";
    const std::string script = render_lookup_python(report);
    CHECK(contains(script, "numpy.load(os.fsdecode(b\"w\\xff\\\".npy\"))"));
    CHECK(script.find("import os\n") != std::string::npos);
}

TEST_CASE("the grad script writes every id, however many") {
    std::vector<std::uint64_t> ids(40, 2);
    ids.back() = 1;
    const std::string script = render_grad_python(grad_lesson(ids, 3, 2), "");
    CHECK_FALSE(contains(script, "more ..."));
    CHECK(contains(script, "2, 2, 1])"));
    CHECK(contains(script, "assert same_bits(grad_onehot[used], expected_onehot)"));  // 39 terms, exactly
    CHECK(contains(script, "used = torch.tensor([1, 2])"));
}
