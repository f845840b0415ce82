#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "render/views/grad/text.hpp"
#include "text_checks.hpp"

using namespace embdemo;
using embdemo::testing::contains;
using embdemo::testing::widest_line;

namespace {

GradLesson lesson_for(std::vector<std::uint64_t> ids, std::size_t vocab, std::size_t dim,
                      std::optional<std::int64_t> padding = std::nullopt, bool scale = false) {
    GradRequest request;
    request.ids.values = ids;
    request.ids.seq = ids.size();
    request.vocab_size = vocab;
    request.dim = dim;
    request.padding_idx = padding;
    request.scale_grad_by_freq = scale;
    return run_grad_lesson(request, {}, {});
}

}  // namespace

TEST_CASE("the grad view annotates unused, single and repeated rows from the run") {
    const std::string text = render_grad_text(lesson_for({2, 3, 1, 3}, 5, 4), TextOptions{}, false);
    CHECK(contains(text, "unused: exactly 0"));
    CHECK(contains(text, "= G[2]"));
    CHECK(contains(text, "= G[1] + G[3]"));
    CHECK(contains(text, "(2 uses: they add up)"));
    CHECK(contains(text, "3 of 5 rows receive a gradient"));
    CHECK(contains(text, "the other 2 stay exactly 0."));
    CHECK(contains(text, "verdict: IDENTICAL -- all 20 values of dE agree bit for bit"));
}

TEST_CASE("the rows-with-gradient sentence is worded for one row, all rows and none") {
    const auto said = [](const GradLesson& lesson) { return render_grad_text(lesson, TextOptions{}, false); };
    CHECK(contains(said(lesson_for({0}, 1, 2)), "The one row receives a gradient from the embedding's backward."));
    CHECK(contains(said(lesson_for({0}, 1, 2, 0)), "The one row receives no gradient from the embedding's backward: "));
    CHECK(contains(said(lesson_for({2, 0, 1}, 3, 2)), "All 3 rows receive a gradient from the embedding's backward."));
    CHECK(contains(said(lesson_for({1, 1}, 3, 2, 1)), "None of the 3 rows receives a gradient"));
    for (const GradLesson& lesson : {lesson_for({0}, 1, 2), lesson_for({2, 0, 1}, 3, 2), lesson_for({1, 1}, 3, 2, 1)}) {
        CHECK_FALSE(contains(said(lesson), "the other 0"));
    }
}

TEST_CASE("the grad view says why padding_idx and scale_grad_by_freq make the two ways differ") {
    const std::string text = render_grad_text(lesson_for({0, 1, 1}, 3, 2, -3, true), TextOptions{}, false);
    CHECK(contains(text, "padding_idx: no gradient"));
    CHECK(contains(text, "= G[1]/2 + G[2]/2"));
    CHECK(contains(text, "verdict: DIFFERENT"));
    CHECK(contains(text, "padding_idx=-3: the embedding's backward skips row 0"));
    CHECK(contains(text, "scale_grad_by_freq:"));
    CHECK(contains(text, "1 of 3 rows receives a gradient"));
}

TEST_CASE("the grad view at GPT-2 size fits 80 columns and counts the rows") {
    const std::string text = render_grad_text(lesson_for({5, 40000, 50256, 5}, 50257, 64), TextOptions{}, false);
    CHECK(widest_line(text) <= 80);
    CHECK(contains(text, "3 of 50,257 rows receive a gradient"));
    CHECK(contains(text, "(unused rows: exactly 0 in both)"));
}

TEST_CASE("grad --trace builds each used row step by step and says where the two ways part") {
    const std::string text = render_grad_text(lesson_for({2, 0, 2}, 3, 2, 0), TextOptions{}, true);
    CHECK(contains(text, "Row 0 of dE: id 0 at ids[1]"));
    CHECK(contains(text, "scatter-add dE[0] stays 0: padding_idx=0 gets no gradient"));
    CHECK(contains(text, "this row differs between the two ways: the one-hot form knows nothing of padding_idx"));
    CHECK(contains(text, "Row 2 of dE: id 2 at ids[0], ids[2]"));
    CHECK(contains(text, "+= G[0]"));
    CHECK(contains(text, "+= G[2]"));
    CHECK(contains(text, "= 1*G[0, 0] + 0*G[1, 0] + 1*G[2, 0]"));
    CHECK(contains(text, "the same bits as the scatter-add"));
    CHECK_FALSE(contains(render_grad_text(lesson_for({2, 0, 2}, 3, 2, 0), TextOptions{}, false), "Row 0 of dE"));
}
