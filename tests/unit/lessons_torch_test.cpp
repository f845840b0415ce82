// The table lessons (positions, tied, factor, bag) against values recorded from real torch
// 1.13.1 by tools/make_torch_lesson_vectors.py (tests/data/torch_lesson_vectors.txt): tables,
// sums and bag outputs bit for bit; the products torch hands to BLAS within the float32 error
// bound of a dot product (see within_dot_bound).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/lessons/bag_lesson.hpp"
#include "core/kernels/embedding.hpp"
#include "core/lessons/factor_lesson.hpp"
#include "core/ids.hpp"
#include "core/torch/init.hpp"
#include "core/lessons/positions_lesson.hpp"
#include "core/kernels/rounding.hpp"
#include "core/lessons/tied_lesson.hpp"
#include "core/torch/torch_rng.hpp"
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

BagRequest recorded_bag_request(const testing::RecordedCase& recorded) {
    BagRequest request;
    const auto bags = parse_bags(recorded.key("bags"));
    REQUIRE_MESSAGE(bags, bags.error());
    request.bags = bags.value();
    request.vocab_size = recorded.number("vocab");
    request.dim = recorded.number("dim");
    request.seed = recorded.number("seed");
    const std::string& mode = recorded.key("mode");
    request.mode = mode == "sum" ? BagMode::sum : mode == "max" ? BagMode::max : BagMode::mean;
    if (recorded.key("padding") != "none") request.padding_idx = std::stoll(recorded.key("padding"));
    if (recorded.key("weights") != "none") {
        const auto weights = parse_bag_weights(recorded.key("weights"), request.bags);
        REQUIRE_MESSAGE(weights, weights.error());
        request.per_sample_weights = weights.value();
    }
    return request;
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

namespace embdemo {
namespace {

// |ours - torch| <= dot_tolerance for every logit: torch hands F.linear to BLAS (OpenBLAS on
// Debian), whose summation order and fused multiply-adds are its own; both results are within
// gamma_m * sum |a_k b_k| of the exact value. Returns the largest distance seen, in ulps.
std::uint64_t check_within_dot_bound(const testing::RecordedCase& recorded, const std::string& name,
                                     const Matrix& actual, const Matrix& a, const Matrix& b_rows) {
    const testing::RecordedTensor& expected = recorded.tensor(name);
    REQUIRE(expected.full);
    REQUIRE(actual.rows == expected.rows);
    REQUIRE(actual.cols == expected.cols);
    std::uint64_t worst = 0;
    for (std::size_t i = 0; i < actual.rows; ++i) {
        for (std::size_t k = 0; k < actual.cols; ++k) {
            double abs_sum = 0.0;
            for (std::size_t j = 0; j < a.cols; ++j) abs_sum += std::fabs(double(a.at(i, j)) * double(b_rows.at(k, j)));
            float torch_value = 0.0f;
            const std::uint32_t bits = expected.bits[i * expected.cols + k];
            std::memcpy(&torch_value, &bits, sizeof torch_value);
            const double diff = std::fabs(double(actual.at(i, k)) - double(torch_value));
            CHECK_MESSAGE(diff <= dot_tolerance(a.cols, abs_sum), recorded.label, ": ", name, "[", i, "][", k, "]");
            worst = std::max(worst, ulp_distance(actual.at(i, k), torch_value));
        }
    }
    return worst;
}

}  // namespace

TEST_CASE("tied: E bit for bit, logits within the dot-product bound of F.linear(H, E)") {
    REQUIRE(count_kind("tied") >= 10);
    std::uint64_t worst = 0;
    for (const auto& recorded : recorded_cases()) {
        if (recorded.kind != "tied") continue;
        CAPTURE(recorded.label);
        TiedRequest request;
        request.ids = recorded_ids(recorded);
        request.vocab_size = recorded.number("vocab");
        request.dim = recorded.number("dim");
        request.seed = recorded.number("seed");
        request.top = 1;
        Matrix hidden;
        if (recorded.key("hidden") == "randn") {
            // --hidden FILE in the CLI; here torch.randn(n, d) drawn right after E, as recorded.
            TorchGenerator generator(request.seed);
            torch_embedding_weight(generator, request.vocab_size, request.dim);
            hidden = torch_randn(generator, request.ids.values.size(), request.dim);
            request.hidden_given = true;
        }
        const TiedLesson lesson = run_tied_lesson(request, hidden);
        CHECK(testing::matches_recorded(recorded, "weight", lesson.weight));
        CHECK(testing::matches_recorded(recorded, "hidden", lesson.hidden));
        if (recorded.tensor("logits").full) {
            worst = std::max(worst, check_within_dot_bound(recorded, "logits", lesson.logits.values, lesson.hidden, lesson.weight));
        }
    }
    MESSAGE("largest logit difference from torch: ", worst, " ulp");
}

TEST_CASE("tied: linear_forward is the in-order dot product, and top-K orders ties by id") {
    Matrix h(1, 3);
    h.values = {1.0f, 1e8f, -1e8f};
    Matrix e(2, 3);
    e.values = {1.0f, 1.0f, 1.0f, 0.0f, 2.0f, 2.0f};
    const Matrix out = linear_forward(h, e);
    // (1 + 1e8) rounds to 1e8, minus 1e8 is 0: in order; a different order would give 1.
    CHECK(out.at(0, 0) == 0.0f);
    CHECK(out.at(0, 1) == 0.0f);
    TiedRequest request;
    request.ids = parse_id_batch("0").value();
    request.vocab_size = 2;
    request.dim = 3;
    request.top = 2;
    request.hidden_given = true;
    const TiedLesson lesson = run_tied_lesson(request, h);
    REQUIRE(lesson.top.size() == 1);
    REQUIRE(lesson.top[0].size() == 2);
    CHECK(lesson.top[0][0].id != lesson.top[0][1].id);
}

TEST_CASE("tied: GPT-2 small has 163,009,536 parameters untied and 124,412,160 tied (the book's ch. 4)") {
    const ParameterCounts counts = gpt2_parameters(Gpt2Config{});
    CHECK(counts.untied == 163009536u);
    CHECK(counts.tied == 124412160u);
}

}  // namespace embdemo

namespace embdemo {

TEST_CASE("factor: E1 and E2 bit for bit, proj(e1(ids)) within the dot-product bound, both routes identical") {
    REQUIRE(count_kind("factor") >= 10);
    std::uint64_t worst = 0;
    for (const auto& recorded : recorded_cases()) {
        if (recorded.kind != "factor") continue;
        CAPTURE(recorded.label);
        FactorRequest request;
        request.ids = recorded_ids(recorded);
        request.vocab_size = recorded.number("vocab");
        request.dim = recorded.number("dim");
        request.rank = recorded.number("rank");
        request.seed = recorded.number("seed");
        const FactorLesson lesson = run_factor_lesson(request);
        CHECK(testing::matches_recorded(recorded, "e1", lesson.e1));
        CHECK(testing::matches_recorded(recorded, "e2", lesson.e2));
        worst = std::max(worst, check_within_dot_bound(recorded, "output", lesson.output, lesson.lookup_e1,
                                                       transpose(lesson.e2)));
        CHECK(lesson.first_check.identical);
        CHECK(lesson.output_check.identical);
    }
    MESSAGE("largest factor output difference from torch: ", worst, " ulp");
}

TEST_CASE("factor: parameter counts, ALBERT's 23.0M against 3.9M") {
    const FactorParameters albert = factor_parameters(k_albert_vocab, k_albert_dim, k_albert_rank);
    CHECK(albert.full == 23040000u);
    CHECK(albert.factored == 3938304u);
    CHECK(factor_parameters(4, 8, 2).factored == 24u);
}

}  // namespace embdemo

namespace embdemo {

TEST_CASE("bag: weight and EmbeddingBag's output equal torch's bit for bit, in every mode") {
    REQUIRE(count_kind("bag") >= 20);
    std::uint64_t worst = 0;
    for (const auto& recorded : recorded_cases()) {
        if (recorded.kind != "bag") continue;
        CAPTURE(recorded.label);
        const BagRequest request = recorded_bag_request(recorded);
        const BagLesson lesson = run_bag_lesson(request);
        CHECK(testing::matches_recorded(recorded, "weight", lesson.weight));
        CHECK(testing::matches_recorded(recorded, "output", lesson.output));
        if (request.mode != BagMode::max) worst = std::max(worst, lesson.difference.ulps);
    }
    MESSAGE("largest difference between M @ E and the bag's output: ", worst, " ulp");
}

TEST_CASE("bag --trace: each bag's steps end on torch's output row and on M @ E's row, bit for bit") {
    std::size_t traced = 0;
    std::size_t differing = 0;
    for (const auto& recorded : recorded_cases()) {
        if (recorded.kind != "bag") continue;
        CAPTURE(recorded.label);
        const BagLesson lesson = run_bag_lesson(recorded_bag_request(recorded));
        std::size_t differing_values = 0;
        std::uint64_t worst = 0;
        for (std::size_t b = 0; b < lesson.request.bags.count(); ++b) {
            CAPTURE(b);
            const BagTrace trace = trace_bag(lesson, b);
            CHECK(trace.bag_matches);
            const std::vector<float> output(lesson.output.row(b), lesson.output.row(b) + lesson.output.cols);
            CHECK(std::memcmp(trace.bag_row.data(), output.data(), output.size() * sizeof(float)) == 0);
            if (lesson.request.mode == BagMode::max) {
                CHECK(trace.product_steps.head.empty());
                continue;
            }
            CHECK(trace.product_matches);
            const float* product = lesson.multihot_matmul.row(b);
            CHECK(std::memcmp(trace.product_row.data(), product, output.size() * sizeof(float)) == 0);
            differing += trace.bag_row != trace.product_row;
            differing_values += trace.difference.differing;
            const BagRouteDifferences& ways = trace.ways;
            CHECK(ways.reached);  // the walk from the kernel's arithmetic ends on M @ E's row
            // A bag that differs names a cause (one whose rows agree may still pass through two
            // changes that cancel; its view names none).
            if (trace.difference.differing > 0) CHECK(ways.any());
            worst = std::max(worst, trace.difference.ulps);
            CHECK(trace.difference.bag == b);
            ++traced;
        }
        // The bags' own differences add up to the lesson's.
        if (lesson.request.mode != BagMode::max) {
            CHECK(differing_values == lesson.difference.differing);
            CHECK(worst == lesson.difference.ulps);
        }
    }
    CHECK(traced > 20);
    CHECK(differing > 0);  // the recorded cases include bags where the two orders part ways
}

TEST_CASE("bag: the fused and the twice-rounded weighted sums differ, so the torch cases pin each path") {
    // 0.7f * 0.1f is not exact in float32: fmaf(w, x, acc) and acc + w * x part in the last bit.
    Matrix e(1, 1);
    e.values = {0.7f};
    BagRequest request;
    request.bags = parse_bags("0,0,0").value();
    request.vocab_size = 1;
    request.dim = 1;
    request.mode = BagMode::sum;
    request.per_sample_weights = {0.1f, 0.1f, 0.1f};
    const float fused = embedding_bag_forward(e, request, std::nullopt, nullptr).at(0, 0);
    float twice = 0.0f;
    for (int i = 0; i < 3; ++i) twice += 0.7f * 0.1f;
    CHECK(fused != twice);
}

TEST_CASE("parse_bags reads empty bags, and parse_bag_weights wants one weight per id") {
    const auto bags = parse_bags(";2,3;;1;");
    REQUIRE(bags);
    CHECK(bags.value().ids == std::vector<std::uint64_t>{2, 3, 1});
    CHECK(bags.value().offsets == std::vector<std::size_t>{0, 0, 2, 2, 3, 3});
    CHECK_FALSE(parse_bags(""));
    CHECK(parse_bags("2,x").error() == "bag 0 item 2 \"x\" is not a decimal integer");
    CHECK(parse_bag_weights("1;2", parse_bags("1,2;3").value()).error() ==
          "bag 0 has 1 weight but 2 ids (one weight per id)");
    CHECK(parse_bag_weights("1,2", parse_bags("1,2;3").value()).error() == "has 1 bag but --bags has 2");
    CHECK(parse_bag_weights("1,nan;3", parse_bags("1,2;3").value()).error() ==
          "bag 0 item 2 \"nan\" is not a decimal number");
    CHECK(parse_bag_weights("1,1e39;3", parse_bags("1,2;3").value()).error() ==
          "bag 0 item 2 \"1e39\" is not finite in float32");
    const auto weights = parse_bag_weights("0.1, -2;;", parse_bags("1,2;;").value());
    REQUIRE(weights);
    CHECK(weights.value() == std::vector<float>{0.1f, -2.0f});
}

}  // namespace embdemo
