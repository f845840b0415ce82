// `embdemo bag --trace`'s core: which steps are kept, which bags are traced, and that a trace
// redoes the lesson's arithmetic (the torch-recorded cases check it in lessons_torch_test.cpp).
#include <doctest/doctest.h>

#include "core/lessons/bag_lesson.hpp"
#include "core/ids.hpp"

namespace embdemo {
namespace {

BagRequest bag_request(const char* bags, BagMode mode, std::uint64_t vocab, std::uint64_t dim) {
    BagRequest request;
    request.bags = parse_bags(bags).value();
    request.mode = mode;
    request.vocab_size = vocab;
    request.dim = dim;
    return request;
}

}  // namespace

TEST_CASE("BagSteps shows the first and the last steps, and never hides a single step") {
    const auto record = [](std::uint64_t count) {
        BagSteps steps;
        for (std::uint64_t id = 0; id < count; ++id) steps.record({BagStep::Kind::add, id, 1.0f, 0, {}});
        return steps;
    };
    const auto shown_ids = [](const BagSteps& steps) {
        std::vector<std::uint64_t> ids;
        for (const BagStep* step : steps.shown()) ids.push_back(step->id);
        return ids;
    };
    const BagSteps many = record(20);
    CHECK(many.total() == 20);
    CHECK(many.hidden() == 20 - BagSteps::k_head - BagSteps::k_tail);
    CHECK(shown_ids(many) == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 17, 18, 19});

    CHECK(record(7).hidden() == 0);
    CHECK(shown_ids(record(7)).size() == 7);
    // Ten steps: hiding one would take a line to save a line, so all ten are shown.
    CHECK(record(10).hidden() == 0);
    CHECK(shown_ids(record(10)).size() == 10);
    CHECK(record(11).hidden() == 2);
    CHECK(shown_ids(record(11)) == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 8, 9, 10});
}

TEST_CASE("a long mean bag is traced to the division, and its last row is the output's") {
    std::string ids = "0";
    for (int i = 1; i < 50; ++i) ids += "," + std::to_string(i % 7);
    const BagLesson lesson = run_bag_lesson(bag_request(ids.c_str(), BagMode::mean, 7, 3));
    const BagTrace trace = trace_bag(lesson, 0);
    CHECK(trace.bag_matches);
    CHECK(trace.product_matches);
    CHECK(trace.bag_steps.total() == 50 + 1);
    CHECK(trace.bag_steps.hidden() == 50 + 1 - BagSteps::k_head - BagSteps::k_tail);
    REQUIRE(!trace.bag_steps.tail.empty());
    CHECK(trace.bag_steps.tail.back().kind == BagStep::Kind::divide);
    CHECK(trace.bag_steps.tail.back().scale == 50.0f);
    // M @ E has one term per distinct id, in order of k.
    CHECK(trace.product_steps.total() == 7);
    CHECK(trace.product_steps.hidden() == 0);
    CHECK(trace.product_steps.tail.back().id == 6);
}

TEST_CASE("padding ids are skipped steps without a row; max records how many columns each row wins") {
    BagRequest request = bag_request("2,0,3", BagMode::max, 4, 5);
    request.padding_idx = 0;
    const BagLesson lesson = run_bag_lesson(request);
    const BagTrace trace = trace_bag(lesson, 0);
    REQUIRE(trace.bag_steps.head.size() == 3);
    CHECK(trace.bag_steps.head[0].kind == BagStep::Kind::max_take);
    CHECK(trace.bag_steps.head[0].taken == 5);  // the first row takes every column
    CHECK(trace.bag_steps.head[1].kind == BagStep::Kind::skip_padding);
    CHECK(trace.bag_steps.head[1].row.empty());
    std::size_t won_by_3 = 0;
    for (std::size_t j = 0; j < 5; ++j) won_by_3 += lesson.winners.at(0, j) == 3.0f;
    CHECK(trace.bag_steps.head[2].kind == BagStep::Kind::max_offer);
    CHECK(trace.bag_steps.head[2].taken == won_by_3);
    CHECK(trace.bag_matches);
}

TEST_CASE("--trace shows the first eight bags, and the one where M @ E differs most when it is later") {
    BagLesson lesson = run_bag_lesson(bag_request("1;2;3;1;2;3;1;2;3;1;2;3", BagMode::sum, 4, 2));
    lesson.difference = {};
    CHECK(traced_bags(lesson) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7});
    lesson.difference = {1, 10, 0, 1, 0, 0};
    CHECK(traced_bags(lesson) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 10});
    lesson.difference = {1, 3, 0, 1, 0, 0};
    CHECK(traced_bags(lesson).size() == 8);

    const BagLesson two = run_bag_lesson(bag_request("1;2", BagMode::sum, 4, 2));
    CHECK(traced_bags(two) == std::vector<std::size_t>{0, 1});
}

TEST_CASE("route_differences names only the changes that alter bits, and walks to M @ E's row") {
    const auto lesson_for = [](const char* bags, BagMode mode, std::uint64_t seed, std::vector<float> weights = {}) {
        BagRequest request = bag_request(bags, mode, 6, 8);
        request.seed = seed;
        request.per_sample_weights = std::move(weights);
        return run_bag_lesson(request);
    };
    BagRouteDifferences seen;  // each way named somewhere
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        CAPTURE(seed);
        // Distinct ids out of order, no weights: only the order can matter.
        const BagLesson shuffled = lesson_for("5,1,3,2", BagMode::sum, seed);
        const BagRouteDifferences order = route_differences(shuffled, 0);
        CHECK(order.reached);
        CHECK(order.reordered == (shuffled.difference.differing > 0));
        CHECK((!order.merged_repeats && !order.divided_first && !order.fused));
        seen.reordered |= order.reordered;
        // Two terms add alike in either order.
        CHECK(!route_differences(lesson_for("3,2", BagMode::sum, seed), 0).reordered);
        // Dividing by a power of two first is exact: a sorted mean of 4 distinct rows agrees.
        const BagLesson four = lesson_for("0,1,2,3", BagMode::mean, seed);
        CHECK(four.difference.differing == 0);
        CHECK(!route_differences(four, 0).any());
        // Weights of 1 make products exact: nothing to fuse.
        CHECK(!route_differences(lesson_for("3,2,1", BagMode::sum, seed, {1, 1, 1}), 0).fused);
        const BagRouteDifferences repeat = route_differences(lesson_for("2,3,3", BagMode::sum, seed), 0);
        CHECK(repeat.reached);
        seen.merged_repeats |= repeat.merged_repeats;
        const BagRouteDifferences thirds = route_differences(lesson_for("1,2,4", BagMode::mean, seed), 0);
        CHECK(thirds.reached);
        CHECK(!thirds.reordered);
        seen.divided_first |= thirds.divided_first;
        const BagRouteDifferences fused = route_differences(lesson_for("1,2", BagMode::sum, seed, {1.1f, 0.9f}), 0);
        CHECK(fused.reached);
        seen.fused |= fused.fused;
        // The run's ways come only from bags whose two rows differ.
        const BagLesson mixed = lesson_for("3,2;1,2,4;0", BagMode::mean, seed);
        const BagRouteDifferences all = route_differences(mixed, std::nullopt);
        CHECK(all.reached);
        CHECK(!all.reordered);  // only [3, 2] is out of order, and two terms add alike
    }
    CHECK(seen.reordered);
    CHECK(seen.merged_repeats);
    CHECK(seen.divided_first);
    CHECK(seen.fused);
    CHECK(!route_differences(lesson_for("1,2", BagMode::max, 1), 0).any());
}

TEST_CASE("the lesson's difference counts signed zeros and values that are not finite apart") {
    BagRequest request = bag_request("2", BagMode::sum, 3, 3);
    request.per_sample_weights = {-1e-45f};  // the fused product rounds to -0; +0 + -0 is +0
    const BagLesson tiny = run_bag_lesson(request);
    CHECK(tiny.difference.differing > 0);
    CHECK(tiny.difference.zero_signs == tiny.difference.differing);
    CHECK(tiny.difference.non_finite == 0);

    request = bag_request("2,2", BagMode::sum, 3, 3);
    request.per_sample_weights = {3e38f, 3e38f};  // M's entry overflows to inf; the bag's sum need not
    const BagLesson huge = run_bag_lesson(request);
    CHECK(huge.difference.non_finite > 0);
}

}  // namespace embdemo
