// render/formats/html: the generic lesson page on a hand-made figure, and the explorer's embedded E.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/matrix.hpp"
#include "render/formats/html.hpp"
#include "text_checks.hpp"

using namespace embdemo;
using embdemo::testing::contains;

namespace {

// Two 1 x 2 matrices joined by "=": the smallest figure with every part the page embeds.
Figure small_figure() {
    FigureMatrix a{"A", "1 x 2", {"0", "1"}, {}};
    a.rows.push_back(FigureRow{false, "0", {"1.5", "<2>"}, {false, true}, 0, "< ids[0]", 0});
    FigureMatrix b{"B", "1 x 2", {"0", "1"}, {}};
    b.rows.push_back(FigureRow{false, "0", {"1.5", "2"}, {false, false}, k_no_key, "", -1});
    Figure figure;
    figure.title = "A = B";
    figure.keys = {"id 0: ids[0]"};
    figure.panels.push_back(FigurePanel{"Same numbers", {a, b}, {"="}, {{}}});
    figure.caption = {"A & B agree."};
    return figure;
}

// The bytes base64 stands for, decoded here independently of the encoder.
std::vector<unsigned char> from_base64(const std::string& text) {
    const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<unsigned char> bytes;
    unsigned buffer = 0;
    int bits = 0;
    for (const char ch : text) {
        if (ch == '=') break;
        buffer = buffer << 6 | static_cast<unsigned>(digits.find(ch));
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(static_cast<unsigned char>(buffer >> bits & 255));
        }
    }
    return bytes;
}

}  // namespace

TEST_CASE("lesson_page: a block that begins with a figure's matrix is its own step, pointing at it") {
    const std::string text = "Sizes  (the run)\n  V 4\n\nA = the table  1 x 2\n  0  1.5 2\n\nAx is no matrix\n\nB = the copy\n"
                             "  0  1.5 2\n\nverdict: same\n\nOne note.";
    const HtmlPage page = lesson_page("t", "", small_figure(), {text});
    REQUIRE(page.steps.size() == 5);
    CHECK(page.steps[0].heading == "Step 1 of 5: Sizes");
    CHECK(page.steps[0].matrix.empty());
    CHECK(page.steps[1].heading == "Step 2 of 5: A = the table");
    CHECK(page.steps[1].matrix == "A");
    CHECK(page.steps[1].body == "A = the table  1 x 2\n  0  1.5 2");
    CHECK(page.steps[2].matrix.empty());  // "Ax" is not "A": after a matrix's step, a block naming none starts one
    CHECK(page.steps[3].matrix == "B");
    CHECK(page.steps[3].body == "B = the copy\n  0  1.5 2");
    CHECK(page.steps[4].body == "verdict: same\n\nOne note.");  // neighbours naming no matrix: one step
    const std::string html = render_html(page);
    CHECK(contains(html, "<section class=\"step\" id=\"step-2\" data-rows=\"\" data-matrix=\"A\">"));
    CHECK(contains(html, "<g class=\"matrix\" data-matrix=\"A\">"));
}

TEST_CASE("lesson_page makes a step of each text's blocks, headed Step i of n, with nothing outlined") {
    const HtmlPage page = lesson_page("Tied <weights>", "Two views.", small_figure(), {"first\n  line", "second & last"});
    REQUIRE(page.steps.size() == 2);
    CHECK(page.steps[0].heading == "Step 1 of 2: first");
    CHECK(page.steps[1].body == "second & last");
    CHECK(page.steps[1].rows.empty());
    CHECK(page.steps[1].focus.empty());
    CHECK_FALSE(page.explorer);
    const std::string html = render_html(page);
    CHECK(contains(html, "<title>Tied &lt;weights&gt;</title>"));
    // Found as bytes: the text view's line breaks and indents are kept as they are.
    CHECK(html.find("<section class=\"step\" id=\"step-1\" data-rows=\"\">\n<h2>Step 1 of 2: first</h2>\n<pre>first\n  line</pre>") !=
          std::string::npos);
    CHECK(contains(html, "<pre>second &amp; last</pre>"));
    CHECK_FALSE(contains(html, "class=\"focus\""));
    CHECK(contains(html, "Step 1 of 2</span>"));
    // The figure, escaped, in its box sized from the drawing's own width.
    CHECK(contains(html, "<div class=\"figure-box\" style=\"--w: "));
    CHECK(contains(html, "&lt;2&gt;"));
    CHECK(contains(html, "A &amp; B agree."));
    CHECK(contains(html, "data-e-row=\"0\""));
    CHECK_FALSE(contains(html, "id=\"explore\""));
    CHECK(html.rfind("</body>\n</html>\n") == html.size() - 16);
}

TEST_CASE("lesson_page with no text steps still makes a page") {
    const std::string html = render_html(lesson_page("T", "I", small_figure(), {}));
    CHECK(contains(html, "Step 1 of 0"));  // the counter; the script shows nothing to step through
    CHECK_FALSE(contains(html, "<section class=\"step\""));
}

TEST_CASE("page_explorer embeds E's float32 bits exactly, -0.0, inf and NaN included") {
    Matrix weight(2, 3);
    weight.values = {0.1f, -0.0f, INFINITY, std::nanf(""), 1e-45f, -3.4028235e38f};
    const HtmlExplorer explorer = page_explorer(weight, {1, 0, 1});
    CHECK(explorer.off.empty());
    CHECK(explorer.vocab_size == 2);
    CHECK(explorer.dim == 3);
    CHECK(explorer.ids == "1,0,1");
    const std::vector<unsigned char> bytes = from_base64(explorer.weights);
    REQUIRE(bytes.size() == weight.values.size() * 4);
    CHECK(std::memcmp(bytes.data(), weight.values.data(), bytes.size()) == 0);
    CHECK(explorer.weights.size() == 32);  // 24 bytes, no padding
    Matrix odd(1, 1);
    odd.values = {1.0f};
    CHECK(page_explorer(odd, {0}).weights == "AACAPw==");  // 00 00 80 3f
}

TEST_CASE("page_explorer past k_max_page_values carries E's edge rows and the run's ids, and the left-out rows' inf and nan") {
    const Matrix at_cap(k_max_page_values / 4, 4);
    CHECK(page_explorer(at_cap, {0}).rows.empty());
    Matrix past(k_max_page_values / 4 + 1, 4);
    for (std::size_t v = 0; v < past.values.size(); ++v) past.values[v] = static_cast<float>(v);
    past.at(7, 1) = INFINITY;          // the run's id: carried, not in `outside`
    past.at(100, 1) = -INFINITY;       // left out: column 1's first non-finite
    past.at(200, 1) = std::nanf("");   // left out, after row 100 in column 1: not needed
    std::uint32_t payload = 0x7fa00001;
    std::memcpy(&past.at(300, 3), &payload, sizeof payload);
    const HtmlExplorer explorer = page_explorer(past, {7, 16000, 7});
    CHECK(explorer.off.empty());
    CHECK(explorer.rows == std::vector<std::uint64_t>{0, 1, 2, 7, 16000, 16382, 16383, 16384});
    CHECK(explorer.outside == "1 100 ff800000;3 300 7fa00001");
    const std::vector<unsigned char> bytes = from_base64(explorer.weights);
    REQUIRE(bytes.size() == explorer.rows.size() * 4 * sizeof(float));
    for (std::size_t r = 0; r < explorer.rows.size(); ++r) {
        CHECK(std::memcmp(bytes.data() + r * 16, past.row(explorer.rows[r]), 16) == 0);
    }
    HtmlPage page = lesson_page("T", "I", Figure{}, {"a"});
    page.explorer = explorer;
    const std::string html = render_html(page);
    CHECK(contains(html, "data-rows=\"0 1 2 7 16000 16382 16383 16384\" data-outside=\"1 100 ff800000;3 300 7fa00001\""));
    CHECK(contains(html, "of the 8 ids whose rows this page carries"));
}

TEST_CASE("page_explorer carries rows up to k_max_page_values and is off, with the reason, when even E's edges are more") {
    const Matrix many(1000, 1024);  // 64 rows fit: the 6 edge rows and 58 of the run's ids
    TokenIds ids;
    for (std::uint64_t id = 100; id < 200; ++id) ids.push_back(id);
    CHECK(page_explorer(many, ids).rows.size() == k_max_page_values / 1024);
    const Matrix wide(10, k_max_page_values / 6 + 1);
    const HtmlExplorer off = page_explorer(wide, {0});
    CHECK(off.weights.empty());
    CHECK(contains(off.off, "a row of E has d = 10,923 values"));
    CHECK(contains(off.off, "only up to 65,536 values"));
    HtmlPage page = lesson_page("T", "I", Figure{}, {"a"});
    page.explorer = off;
    const std::string html = render_html(page);
    CHECK(contains(html, "<p id=\"explore-off\">Off for this run"));
    CHECK_FALSE(contains(html, "data-weights"));
    CHECK_FALSE(contains(html, "explore-ids"));
}

TEST_CASE("page_explorer starts the field with at most k_max_page_ids of the run's ids") {
    const Matrix weight(3, 2);
    const HtmlExplorer explorer = page_explorer(weight, TokenIds(40, 2));
    CHECK(std::count(explorer.ids.begin(), explorer.ids.end(), '2') == static_cast<long>(k_max_page_ids));
}
