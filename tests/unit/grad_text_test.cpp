#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "render/grad_text.hpp"

using namespace embdemo;

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

std::size_t widest_line(const std::string& text) {
    std::size_t widest = 0;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
        widest = std::max(widest, end - start);
    }
    return widest;
}

// Whether `part` is in `text`, reading a wrapped sentence's line break as a space.
bool contains(std::string text, const std::string& part) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("the grad view annotates unused, single and repeated rows from the run") {
    const std::string text = render_grad_text(lesson_for({2, 3, 1, 3}, 5, 4), TextOptions{});
    CHECK(contains(text, "unused: exactly 0"));
    CHECK(contains(text, "= G[2]"));
    CHECK(contains(text, "= G[1] + G[3]"));
    CHECK(contains(text, "(2 uses: they add up)"));
    CHECK(contains(text, "3 of 5 rows receive a gradient"));
    CHECK(contains(text, "the other 2 stay exactly 0."));
    CHECK(contains(text, "verdict: IDENTICAL -- all 20 values of dE agree bit for bit"));
}

TEST_CASE("the grad view says why padding_idx and scale_grad_by_freq make the two ways differ") {
    const std::string text = render_grad_text(lesson_for({0, 1, 1}, 3, 2, -3, true), TextOptions{});
    CHECK(contains(text, "padding_idx: no gradient"));
    CHECK(contains(text, "= G[1]/2 + G[2]/2"));
    CHECK(contains(text, "verdict: DIFFERENT"));
    CHECK(contains(text, "padding_idx=-3: the embedding's backward skips row 0"));
    CHECK(contains(text, "scale_grad_by_freq:"));
    CHECK(contains(text, "1 of 3 rows receive a gradient"));
}

TEST_CASE("the grad view at GPT-2 size fits 80 columns and counts the rows") {
    const std::string text = render_grad_text(lesson_for({5, 40000, 50256, 5}, 50257, 64), TextOptions{});
    CHECK(widest_line(text) <= 80);
    CHECK(contains(text, "3 of 50,257 rows receive a gradient"));
    CHECK(contains(text, "(unused rows: exactly 0 in both)"));
}
