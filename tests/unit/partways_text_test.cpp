// The narration of issue #15's sections follows the run, checked on cases away from the defaults.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/lessons/grad_lesson.hpp"
#include "core/lessons/max_norm_lesson.hpp"
#include "render/views/max_norm_text.hpp"
#include "render/views/partways_text.hpp"
#include "render/views/text.hpp"

using namespace embdemo;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void check_width(const std::string& text) {
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        CAPTURE(text.substr(start, end - start));
        CHECK(end - start <= 80);
        start = end + 1;
    }
}

// A paragraph wrapped with a two-space indent, on one line.
std::string unwrapped(std::string text) {
    for (std::size_t at = text.find("\n  "); at != std::string::npos; at = text.find("\n  ", at)) text.replace(at, 3, " ");
    return text;
}

GradLesson grad(const char* ids, std::uint64_t vocab, std::uint64_t dim, std::size_t top) {
    GradRequest request;
    request.ids = parse_id_batch(ids).value();
    request.vocab_size = vocab;
    request.dim = dim;
    request.seed = 5;
    request.top = top;
    request.sparse = true;
    request.padding_idx = 0;
    request.max_norm = MaxNorm{0.25, 1.0};
    return run_grad_lesson(request, {}, {});
}

}  // namespace

TEST_CASE("the renormalisation's narration names M, P and how many rows it rescaled") {
    const GradLesson lesson = grad("3,0,3,7", 9, 6, 1);
    const std::string text = render_grad_max_norm(lesson, TextOptions{});
    CHECK(contains(text, "max_norm=0.25, norm_type=1.0"));
    CHECK(contains(text, "above 0.25"));
    CHECK(contains(text, "(p = 1.0)"));
    CHECK(contains(text, "0.25 / (norm + 1e-7)"));
    std::size_t rescaled = 0;
    for (const RenormRow& row : lesson.renorm) rescaled += row.rescaled ? 1 : 0;
    CHECK(contains(text, std::to_string(rescaled) + " of the 3 distinct ids"));
    check_width(text);
}

TEST_CASE("the sparse narration counts the dropped padding positions and both nnz") {
    const GradLesson lesson = grad("3,0,3,7,0", 9, 6, 1);
    const std::string text = render_grad_sparse(lesson, TextOptions{});
    CHECK(contains(text, "nnz 3: indices [3, 3, 7]"));
    CHECK(contains(text, "nnz 2: indices [3, 7]"));
    CHECK(contains(text, "padding_idx=0: the 2 positions holding row 0 are dropped"));
    CHECK(contains(text, "= G[0] + G[2]"));
    CHECK(contains(text, "V 9, d 6"));
    check_width(text);
}

TEST_CASE("the swaps list one token with --top 1 and summarises past eight positions") {
    const GradLesson lesson = grad("1,2,3,4,5,6,7,8,1,2", 12, 3, 1);
    const std::string text = render_onehot_input(lesson, TextOptions{});
    CHECK(contains(text, "10 x 12"));
    CHECK(contains(text, "The lowest score per position is the swap"));
    CHECK(contains(text, "after max_norm"));
    CHECK(contains(text, "... 2 more positions"));
    CHECK_FALSE(contains(text, "G[8]"));
    check_width(text);
}

TEST_CASE("the max-norm lookup view says when nothing was rescaled and exits identical") {
    MaxNormRequest request;
    request.ids = parse_id_batch("0,1").value();
    request.demo.ids = request.ids.values;
    request.demo.vocab_size = 2;
    request.demo.dim = 2;
    request.max_norm = MaxNorm{1e6, 2.0};
    Matrix weight(2, 2);
    weight.values = {1.0f, 2.0f, 3.0f, 4.0f};
    const MaxNormLesson lesson = run_max_norm_lesson(request, weight);
    CHECK(lesson.drawn_check.identical);
    const std::string text = render_max_norm_text(lesson, TextOptions{});
    CHECK(contains(text, "no looked-up row had a norm above max_norm"));
    CHECK(contains(text, "None of the 2 distinct ids"));
    CHECK(contains(text, "max_norm=1000000.0"));
    check_width(text);
}

TEST_CASE("the renormalisation's verdict is worded from its counts") {
    const MaxNorm max_norm{1.5, 2.0};
    const RenormRow kept{4, 1.0f, false, 1.0f};
    const RenormRow rescaled{7, 3.0f, true, 0.5f};
    const auto verdict = [&](const std::vector<RenormRow>& rows) {
        const std::string text = render_renorm_rows(rows, max_norm);
        check_width(text);
        CHECK_FALSE(contains(text, " 0 of"));
        return unwrapped(text);
    };
    CHECK(contains(verdict({kept}), "The one distinct id's row had a norm (p = 2.0) of at most 1.5 and was kept"));
    CHECK(contains(verdict({rescaled}), "The one distinct id's row had a norm (p = 2.0) above 1.5 and was multiplied "
                                        "by 1.5 / (norm + 1e-7), once however often the id occurs."));
    CHECK(contains(verdict({kept, kept}), "None of the 2 distinct ids' rows had a norm (p = 2.0) above 1.5"));
    CHECK(contains(verdict({kept, rescaled, kept}), "1 of the 3 distinct ids' rows had a norm (p = 2.0) above 1.5 and was "
                                                    "multiplied"));
    CHECK(contains(verdict({rescaled, rescaled}), "2 of the 2 distinct ids' rows had a norm (p = 2.0) above 1.5 and were "
                                                  "multiplied"));
}
