// tied's sheet on random cases unlike the book's (V = 1, one id, repeats, batches, more than eight
// distinct ids, hidden states of nan, inf, -0 and zeros): every claim re-checked against the
// numbers by its own function, and each claim's sentence found in every format that carries prose.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/lessons/tied_lesson.hpp"
#include "render/views/tied/view.hpp"
#include "../sheet_checks.hpp"

namespace embdemo {
namespace {

TiedRequest random_request(std::mt19937_64& rng, int round) {
    const auto between = [&rng](std::uint64_t low, std::uint64_t high) { return sheet_checks::between(rng, low, high); };
    TiedRequest request;
    request.vocab_size = round % 7 == 0 ? 1 : between(1, 40);
    request.dim = between(1, 6);
    request.seed = between(0, 1u << 20);
    request.vocab_inferred = round % 2 == 0;
    request.ids = sheet_checks::random_ids(rng, round, request.vocab_size, 14, 3);
    request.top = static_cast<std::size_t>(between(1, request.vocab_size));
    request.hidden_given = round % 3 == 1;
    return request;
}

// A hidden state of special values: nan, inf, -0, +0 and plain numbers, or all zeros.
Matrix special_hidden(std::mt19937_64& rng, std::size_t rows, std::size_t cols, bool zeros) {
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(), -0.0f, 0.0f, 1.5f, -2.25f};
    Matrix hidden(rows, cols);
    for (float& value : hidden.values) value = zeros ? 0.0f : specials[rng() % 7];
    return hidden;
}

}  // namespace

TEST_CASE("tied: every claim on its sheet holds and is printed in every format that carries prose") {
    std::mt19937_64 rng{20261203};
    for (int round = 0; round < 150; ++round) {
        const TiedRequest request = random_request(rng, round);
        Matrix hidden;
        if (request.hidden_given) {
            hidden = special_hidden(rng, request.ids.values.size(), request.dim, round % 9 == 1);
        }
        const TiedLesson lesson = run_tied_lesson(request, std::move(hidden));
        const LessonSheet sheet = tied_sheet(lesson, request.hidden_given ? "h.npy" : "");
        CAPTURE(round);
        REQUIRE(sheet.claims.size() == (request.hidden_given ? 4u : 5u));
        sheet_checks::check_sheet(sheet, report_values(tied_tables(request, nullptr)));
        CHECK(sheet.checks.empty());  // tied compares nothing: no verdict in any format
        const std::string text = render_sheet_text(sheet, TextOptions{});
        CHECK(text.find("bit for bit") == std::string::npos);
    }
}

TEST_CASE("tied: a claim's re-check fails when the numbers it states are wrong") {
    TiedRequest request;
    request.vocab_size = 4;
    request.dim = 5;
    request.ids.values = {2, 3, 1};
    request.ids.batch = 1;
    request.ids.seq = 3;
    request.top = 2;
    TiedLesson lesson = run_tied_lesson(request, Matrix());
    const LessonSheet sheet = tied_sheet(lesson, "");
    for (const SheetClaim& claim : sheet.claims) CHECK(claim.holds());
    lesson.own_rank[1] = 1;  // the claims read the lesson they were made from
    CHECK_FALSE(sheet.claims[0].holds());
    lesson.own_rank[1] = 0;
    lesson.here.tied += 1;
    CHECK_FALSE(sheet.claims[2].holds());
    lesson.here.tied -= 1;
    lesson.gpt2.tied = 1;
    CHECK_FALSE(sheet.claims[3].holds());
    lesson.rows_used = 4;
    CHECK_FALSE(sheet.claims[4].holds());
}

TEST_CASE("tied: a chapter's logits keep only the rows a summary prints, and the plan knows it first") {
    TiedRequest request;
    request.vocab_size = 50257;
    request.dim = 2;
    request.ids.values.assign(400, 7);
    request.ids.seq = 400;
    request.top = 1;
    const std::vector<SheetTable> plan = tied_tables(request, nullptr);
    const SheetTable& logits = plan[2];
    CHECK(logits.held_rows.size() == 6);
    CHECK(logits.held_values() == 6u * 50257u);
    CHECK(table_values(logits) == 400u * 50257u);
    CHECK(logits.python.empty());  // too many to list: the script checks a sum a row
    const TiedLesson lesson = run_tied_lesson(request, Matrix());
    const std::string python = render_sheet_python(tied_sheet(lesson, ""));
    CHECK(python.find("expected_checksums = [") != std::string::npos);
    const std::string text = render_sheet_text(tied_sheet(lesson, ""), TextOptions{});
    CHECK(text.find("ids[399]  id 7") != std::string::npos);
}

}  // namespace embdemo
