// bag's sheet on random cases unlike the book's (V = 1, empty bags, bags of padding only, one
// bag, more than eight bags, repeated ids, per-sample weights of -0 and 0, every mode): every
// claim re-checked against the numbers by its own function, and each claim's sentence found in
// every format that carries prose.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "core/lessons/bag_lesson.hpp"
#include "render/views/bag/view.hpp"
#include "../sheet_checks.hpp"

namespace embdemo {
namespace {

BagRequest random_request(std::mt19937_64& rng, int round) {
    const auto between = [&rng](std::uint64_t low, std::uint64_t high) { return sheet_checks::between(rng, low, high); };
    BagRequest request;
    request.vocab_size = round % 7 == 0 ? 1 : between(1, 30);
    request.dim = between(1, 6);
    request.seed = between(0, 1u << 20);
    request.vocab_inferred = round % 2 == 0;
    request.mode = k_bag_modes[static_cast<std::size_t>(round) % std::size(k_bag_modes)].second;  // every mode
    const std::size_t bags = round % 5 == 0 ? 1 : between(1, 12);  // one bag, or more than eight
    request.bags.offsets = {0};
    for (std::size_t b = 0; b < bags; ++b) {
        const std::size_t size = between(0, 5);  // empty bags too
        for (std::size_t i = 0; i < size; ++i) request.bags.ids.push_back(between(0, request.vocab_size - 1));
        request.bags.offsets.push_back(request.bags.ids.size());
    }
    if (round % 4 == 1) request.padding_idx = static_cast<std::int64_t>(between(0, request.vocab_size - 1));
    if (request.mode == BagMode::sum && round % 2 == 1) {
        const float weights[] = {-0.0f, 0.0f, 0.5f, -1.5f, 3.0f, 1e-3f};
        for (std::size_t i = 0; i < request.bags.ids.size(); ++i) request.per_sample_weights.push_back(weights[rng() % 6]);
    }
    return request;
}

}  // namespace

TEST_CASE("bag: every claim on its sheet holds and is printed in every format that carries prose") {
    std::mt19937_64 rng{20261204};
    for (int round = 0; round < 150; ++round) {
        const BagRequest request = random_request(rng, round);
        const BagLesson lesson = run_bag_lesson(request);
        const LessonSheet sheet = bag_sheet(lesson);
        CAPTURE(round);
        REQUIRE(sheet.claims.size() == (request.mode == BagMode::max ? 1u : 2u));
        sheet_checks::check_sheet(sheet, report_values(bag_tables(request, nullptr)));
        CHECK(sheet.identical() == (lesson.difference.differing == 0));
        CHECK(sheet.checks.empty() == (request.mode == BagMode::max));  // max compares nothing
    }
}

TEST_CASE("bag: a claim's re-check fails when the numbers it states are wrong") {
    BagRequest request;
    request.vocab_size = 4;
    request.dim = 3;
    request.bags.ids = {2, 3, 1};
    request.bags.offsets = {0, 2, 3};
    BagLesson lesson = run_bag_lesson(request);
    const LessonSheet sheet = bag_sheet(lesson);
    for (const SheetClaim& claim : sheet.claims) CHECK(claim.holds());
    lesson.difference.differing += 1;  // the claims read the lesson they were made from
    CHECK_FALSE(sheet.claims[0].holds());
    lesson.difference.differing -= 1;
    lesson.torch_matmul.values[0] += 1.0f;
    CHECK_FALSE(sheet.claims[1].holds());

    request.mode = BagMode::max;
    BagLesson max = run_bag_lesson(request);
    const LessonSheet max_sheet = bag_sheet(max);
    CHECK(max_sheet.claims[0].holds());
    max.winners.values[0] = max.winners.values[0] == 2.0f ? 3.0f : 2.0f;  // another row won
    CHECK_FALSE(max_sheet.claims[0].holds());
}

}  // namespace embdemo
