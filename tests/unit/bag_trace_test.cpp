// `embdemo bag --trace`'s core: which steps are kept, which bags are traced, and that a trace
// redoes the lesson's arithmetic (the torch-recorded cases check it in lessons_torch_test.cpp).
#include <doctest/doctest.h>

#include "core/bag_lesson.hpp"
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

TEST_CASE("BagSteps keeps the first and the last steps and counts the ones between") {
    BagSteps steps;
    for (std::uint64_t id = 0; id < 20; ++id) steps.record({BagStep::Kind::add, id, 1.0f, 0, {}});
    REQUIRE(steps.head.size() == BagSteps::k_head);
    REQUIRE(steps.tail.size() == BagSteps::k_tail);
    CHECK(steps.head.front().id == 0);
    CHECK(steps.head.back().id == BagSteps::k_head - 1);
    CHECK(steps.tail.front().id == 20 - BagSteps::k_tail);
    CHECK(steps.tail.back().id == 19);
    CHECK(steps.elided == 20 - BagSteps::k_head - BagSteps::k_tail);

    BagSteps few;
    for (std::uint64_t id = 0; id < 7; ++id) few.record({BagStep::Kind::add, id, 1.0f, 0, {}});
    CHECK(few.head.size() == 6);
    CHECK(few.tail.size() == 1);
    CHECK(few.elided == 0);
}

TEST_CASE("a long mean bag is traced to the division, and its last row is the output's") {
    std::string ids = "0";
    for (int i = 1; i < 50; ++i) ids += "," + std::to_string(i % 7);
    const BagLesson lesson = run_bag_lesson(bag_request(ids.c_str(), BagMode::mean, 7, 3));
    const BagTrace trace = trace_bag(lesson, 0);
    CHECK(trace.bag_matches);
    CHECK(trace.product_matches);
    CHECK(trace.bag_steps.elided == 50 + 1 - BagSteps::k_head - BagSteps::k_tail);
    REQUIRE(!trace.bag_steps.tail.empty());
    CHECK(trace.bag_steps.tail.back().kind == BagStep::Kind::divide);
    CHECK(trace.bag_steps.tail.back().scale == 50.0f);
    // M @ E has one term per distinct id, in order of k.
    CHECK(trace.product_steps.head.size() == 6);
    CHECK(trace.product_steps.tail.size() == 1);
    CHECK(trace.product_steps.tail.back().id == 6);
}

TEST_CASE("padding ids are skipped steps without a row; max records how many columns each row wins") {
    BagRequest request = bag_request("2,0,3", BagMode::max, 4, 5);
    request.padding_idx = 0;
    const BagLesson lesson = run_bag_lesson(request);
    const BagTrace trace = trace_bag(lesson, 0);
    REQUIRE(trace.bag_steps.head.size() == 3);
    CHECK(trace.bag_steps.head[0].taken == 5);  // the first row takes every column
    CHECK(trace.bag_steps.head[1].kind == BagStep::Kind::skip_padding);
    CHECK(trace.bag_steps.head[1].row.empty());
    std::size_t won_by_3 = 0;
    for (std::size_t j = 0; j < 5; ++j) won_by_3 += lesson.winners.at(0, j) == 3.0f;
    CHECK(trace.bag_steps.head[2].taken == won_by_3);
    CHECK(trace.bag_matches);
}

TEST_CASE("--trace shows the first eight bags, and the one where M @ E differs most when it is later") {
    BagLesson lesson = run_bag_lesson(bag_request("1;2;3;1;2;3;1;2;3;1;2;3", BagMode::sum, 4, 2));
    lesson.difference = {};
    CHECK(traced_bags(lesson) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7});
    lesson.difference = {1, 10, 0, 1};
    CHECK(traced_bags(lesson) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 10});
    lesson.difference = {1, 3, 0, 1};
    CHECK(traced_bags(lesson).size() == 8);

    const BagLesson two = run_bag_lesson(bag_request("1;2", BagMode::sum, 4, 2));
    CHECK(traced_bags(two) == std::vector<std::size_t>{0, 1});
}

}  // namespace embdemo
