// The table lessons (positions, tied, factor, bag) against values recorded from real torch
// 1.13.1 by tools/make_torch_lesson_vectors.py (tests/data/torch_lesson_vectors.txt): tables,
// sums and bag outputs bit for bit; the products torch hands to BLAS within the float32 error
// bound of a dot product (see within_dot_bound).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "core/positions_lesson.hpp"
#include "torch_cases.hpp"

namespace embdemo {
namespace {

const std::vector<testing::RecordedCase>& recorded_cases() {
    static const std::vector<testing::RecordedCase> cases =
        testing::load_recorded_cases(EMBDEMO_TEST_DATA_DIR "/torch_lesson_vectors.txt");
    return cases;
}

IdBatch recorded_ids(const testing::RecordedCase& recorded) {
    const auto ids = parse_id_batch(recorded.key("ids"));
    REQUIRE_MESSAGE(ids, recorded.label, ": ", ids.error());
    return ids.value();
}

std::size_t count_kind(const std::string& kind) {
    std::size_t count = 0;
    for (const auto& recorded : recorded_cases()) count += recorded.kind == kind;
    return count;
}

}  // namespace

TEST_CASE("positions: E, P and tok(ids) + pos(arange(T)) equal torch's bit for bit") {
    REQUIRE(count_kind("positions") >= 10);
    for (const auto& recorded : recorded_cases()) {
        if (recorded.kind != "positions") continue;
        CAPTURE(recorded.label);
        PositionsRequest request;
        request.ids = recorded_ids(recorded);
        request.vocab_size = recorded.number("vocab");
        request.dim = recorded.number("dim");
        request.seed = recorded.number("seed");
        request.context = recorded.number("context");
        const PositionsLesson lesson = run_positions_lesson(request);
        CHECK(testing::matches_recorded(recorded, "weight", lesson.weight));
        CHECK(testing::matches_recorded(recorded, "position_weight", lesson.position_weight));
        CHECK(testing::matches_recorded(recorded, "output", lesson.output));
        CHECK(lesson.output_check.identical);
        CHECK(lesson.token_check.identical);
        CHECK(lesson.position_check.identical);
    }
}

TEST_CASE("positions: the same id at two positions is found, and its rows differ") {
    PositionsRequest request;
    request.ids = parse_id_batch("1,1;0,1").value();
    request.vocab_size = 2;
    request.dim = 3;
    request.context = 2;
    const PositionsLesson lesson = run_positions_lesson(request);
    REQUIRE(lesson.repeated);
    CHECK(lesson.repeated->id == 1);
    CHECK(lesson.repeated->first == 0);
    CHECK(lesson.repeated->second == 1);
    CHECK(lesson.repeated->differing_columns == 3);
    // Same t in two rows of a batch is no repeat: "2;2" uses P[0] twice.
    request.ids = parse_id_batch("1;1").value();
    request.context = 1;
    CHECK_FALSE(run_positions_lesson(request).repeated);
}

}  // namespace embdemo
