// factor's sheet on random cases unlike the book's (V = 1, one id, repeats, more than eight
// distinct ids): every claim re-checked against the numbers by its own function, and each
// claim's sentence found, from the same data, in every format that carries prose.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "core/lessons/factor_lesson.hpp"
#include "render/views/factor/view.hpp"
#include "../sheet_checks.hpp"

namespace embdemo {
namespace {

FactorRequest random_request(std::mt19937_64& rng, int round) {
    const auto between = [&rng](std::uint64_t low, std::uint64_t high) { return sheet_checks::between(rng, low, high); };
    FactorRequest request;
    request.vocab_size = round % 7 == 0 ? 1 : between(1, 60);
    request.dim = between(2, 12);
    request.rank = between(1, request.dim - 1);
    request.seed = between(0, 1u << 20);
    request.vocab_inferred = round % 2 == 0;
    request.ids = sheet_checks::random_ids(rng, round, request.vocab_size, 14, 3);
    return request;
}

}  // namespace

TEST_CASE("factor: every claim on its sheet holds and is printed in every format that carries prose") {
    std::mt19937_64 rng{20261202};
    for (int round = 0; round < 120; ++round) {
        const FactorRequest request = random_request(rng, round);
        const FactorLesson lesson = run_factor_lesson(request);
        const LessonSheet sheet = factor_sheet(lesson);
        CAPTURE(round);
        REQUIRE(sheet.claims.size() == 3);
        sheet_checks::check_sheet(sheet, report_values(factor_tables(request, nullptr)));
        CHECK(sheet.identical() == (lesson.first_check.identical && lesson.output_check.identical));
    }
}

TEST_CASE("factor: a claim's re-check fails when the numbers it states are wrong") {
    FactorRequest request;
    request.vocab_size = 4;
    request.dim = 8;
    request.rank = 2;
    request.ids.values = {2, 3, 1};
    request.ids.batch = 1;
    request.ids.seq = 3;
    FactorLesson lesson = run_factor_lesson(request);
    const LessonSheet sheet = factor_sheet(lesson);
    for (const SheetClaim& claim : sheet.claims) CHECK(claim.holds());
    lesson.here.factored += 1;  // the claims read the lesson they were made from
    CHECK_FALSE(sheet.claims[1].holds());
    lesson.here.factored -= 1;
    lesson.albert.full = 1;
    CHECK_FALSE(sheet.claims[2].holds());
}

}  // namespace embdemo
