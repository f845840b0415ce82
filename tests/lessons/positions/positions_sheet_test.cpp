// positions' sheet on random cases unlike the book's, for every encoding of the table (one id,
// repeats, batches, more than eight distinct ids, one column, ALiBi with 1 to 17 heads): every
// claim re-checked and printed in every format; ALiBi's slopes against the paper's own numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "core/lessons/positions_lesson.hpp"
#include "render/views/positions/view.hpp"
#include "../sheet_checks.hpp"

namespace embdemo {
namespace {

PositionsRequest random_request(std::mt19937_64& rng, int round) {
    const auto between = [&rng](std::uint64_t low, std::uint64_t high) { return sheet_checks::between(rng, low, high); };
    PositionsRequest request;
    request.encoding = k_position_encodings[static_cast<std::size_t>(round) % std::size(k_position_encodings)].encoding;
    request.vocab_size = round % 9 == 0 ? 1 : between(1, 40);
    request.dim = round % 11 == 0 ? 1 : between(1, 10);
    if (traits_of(request.encoding).turns_rows && request.dim % 2 == 1) ++request.dim;
    request.seed = between(0, 1u << 20);
    request.heads = between(1, 17);
    request.encoding_given = round % 3 == 0;
    request.vocab_inferred = round % 2 == 0;
    request.ids = sheet_checks::random_ids(rng, round, request.vocab_size, 12, 7);
    const IdBatch& ids = request.ids;
    request.context = ids.seq + between(0, 3);
    request.context_inferred = request.context == ids.seq;
    return request;
}

}  // namespace

TEST_CASE("positions: every claim on its sheet holds and is printed in every format, for every encoding") {
    std::mt19937_64 rng{20261202};
    for (int round = 0; round < 160; ++round) {
        const PositionsRequest request = random_request(rng, round);
        const PositionsLesson lesson = run_positions_lesson(request);
        const LessonSheet sheet = positions_sheet(lesson);
        CAPTURE(round);
        CAPTURE(std::string(encoding_name(request.encoding)));
        sheet_checks::check_sheet(sheet, report_values(positions_tables(request, nullptr)));
        CHECK(sheet.identical());  // drawn tables: no special values
    }
}

TEST_CASE("alibi_slopes: the paper's numbers, a power of two or not") {
    // get_slopes(8) = 1/2 .. 1/256, exactly.
    const std::vector<float> eight = alibi_slopes(8);
    for (std::size_t h = 0; h < 8; ++h) CHECK(eight[h] == std::ldexp(1.0f, -static_cast<int>(h) - 1));
    // get_slopes(6) = get_slopes(4) + get_slopes(8)[0::2][:2] = [1/4, 1/16, 1/64, 1/256] + [1/2, 1/8].
    CHECK(alibi_slopes(6) == std::vector<float>{0.25f, 0.0625f, 0.015625f, 0.00390625f, 0.5f, 0.125f});
    // get_slopes(3) = get_slopes(2) + get_slopes(4)[0::2][:1] = [1/16, 1/256] + [1/4].
    CHECK(alibi_slopes(3) == std::vector<float>{0.0625f, 0.00390625f, 0.25f});
    CHECK(alibi_slopes(1) == std::vector<float>{0.00390625f});
    // 16 heads: 2^(-h/2), irrational for odd h, rounded once to float32 (Python's value).
    CHECK(alibi_slopes(16)[0] == 0.70710677f);
}

TEST_CASE("alibi: D's first row is +0, not -0, so the bias on the diagonal is +0 in every form") {
    PositionsRequest request;
    request.vocab_size = 3;
    request.dim = 2;
    request.ids.values = {0, 1, 2};
    request.ids.batch = 1;
    request.ids.seq = 3;
    request.context = 3;
    request.encoding = PositionEncoding::alibi;
    request.heads = 3;
    const PositionsLesson lesson = run_positions_lesson(request);
    for (std::size_t h = 0; h < 3; ++h) CHECK_FALSE(std::signbit(lesson.alibi->distances.at(0, h)));
    CHECK(lesson.alibi->bias.rows == 6);
    CHECK(lesson.alibi->check.identical);
    CHECK(lesson.alibi->compared_scores == 18);
}

}  // namespace embdemo
