#include <doctest/doctest.h>

#include "core/limits.hpp"

using namespace embdemo;

TEST_CASE("check_demo_sizes accepts GPT-2's token table for a few ids") {
    CHECK_FALSE(check_demo_sizes(3, 50257, 768));
}

TEST_CASE("check_demo_sizes names the matrix and the memory it would need") {
    const auto problem = check_demo_sizes(1, 100000000, 768);
    REQUIRE(problem);
    CHECK(problem->find("embedding matrix E") != std::string::npos);
    CHECK(problem->find("76,800,000,000 values (286.1 GiB)") != std::string::npos);
}

TEST_CASE("check_demo_sizes survives sizes whose product overflows 64 bits") {
    const auto problem = check_demo_sizes(1, UINT64_MAX, UINT64_MAX);
    REQUIRE(problem);
    CHECK(problem->find("more than 2^64") != std::string::npos);
}

TEST_CASE("check_demo_sizes caps the work of the dense product") {
    const auto problem = check_demo_sizes(80, 50257, 768);
    REQUIRE(problem);
    CHECK(problem->find("multiply-adds") != std::string::npos);
}

TEST_CASE("check_demo_sizes: tied's logits by blocks take a chapter at GPT-2's size, and name the logits past the cap") {
    const OneHotHeld tied = OneHotHeld::none_logits_in_blocks;
    CHECK_FALSE(check_demo_sizes(5145, 50257, 768, tied));   // the book's story
    CHECK_FALSE(check_demo_sizes(28486, 50257, 768, tied));  // 1,099,484,852,736 multiply-adds, under 2^40
    const auto past = check_demo_sizes(28487, 50257, 768, tied);
    REQUIRE(past);
    CHECK(*past == "the logits H @ E.T would take 28,487 x 50,257 x 768 = 1,099,523,450,112 multiply-adds; the limit "
                   "is 1,099,511,627,776 (use fewer ids or a smaller vocab or dim)");
    const auto hidden = check_demo_sizes(2, 1, std::uint64_t{1} << 26, tied);  // H = 2 x 2^26
    REQUIRE(hidden);
    CHECK(hidden->find("the result (ids x dim) would be 2 x 67,108,864") != std::string::npos);
}

TEST_CASE("check_demo_sizes counts a narrow product's values of X, so that its cap holds for every d") {
    // d = 1: 512 x 2^26 values of X, each as long as 32 multiply-adds, are 2^40; one id more is
    // refused although its 2^35 multiply-adds are far under the cap (629 s of CPU for a 16 MiB text).
    const OneHotHeld lookup = OneHotHeld::in_blocks_budgeted;
    CHECK_FALSE(check_demo_sizes(512, std::uint64_t{1} << 26, 1, lookup));
    const auto past = check_demo_sizes(513, std::uint64_t{1} << 26, 1, lookup);
    REQUIRE(past);
    CHECK(*past == "the one-hot product would take 513 x 67,108,864 x 1 = 34,426,847,232 multiply-adds, and each of "
                   "its 34,426,847,232 values of X (ids x vocab) takes as long as 32 multiply-adds whatever d: about "
                   "1,101,659,111,424 in all; the limit is 1,099,511,627,776 (use fewer ids or a smaller vocab)");
    CHECK(check_demo_sizes(4000000, 50257, 1, lookup));  // about 16 MiB of text at d = 1
    CHECK(check_demo_sizes(4000000, 50257, 1, OneHotHeld::in_blocks));  // positions, factor
    // At d = 32 and above the count is the multiply-adds, as before.
    CHECK_FALSE(check_demo_sizes(512, std::uint64_t{1} << 21, 32, lookup));
    CHECK_FALSE(check_demo_sizes(16384, std::uint64_t{1} << 21, 32, lookup));  // 2^40 multiply-adds: at the cap
    const auto past_at_32 = check_demo_sizes(16385, std::uint64_t{1} << 21, 32, lookup);
    REQUIRE(past_at_32);
    CHECK(past_at_32->find(", and each") == std::string::npos);
    // tied's logits count as 128 multiply-adds each: 2^33 of them at most.
    const OneHotHeld tied = OneHotHeld::none_logits_in_blocks;
    CHECK_FALSE(check_demo_sizes(128, std::uint64_t{1} << 26, 1, tied));
    const auto logits = check_demo_sizes(129, std::uint64_t{1} << 26, 1, tied);
    REQUIRE(logits);
    CHECK(logits->find("each of its 8,657,043,456 logits (ids x vocab) takes as long as 128 multiply-adds") !=
          std::string::npos);
}

TEST_CASE("group_thousands groups digits in threes") {
    CHECK(group_thousands(0) == "0");
    CHECK(group_thousands(999) == "999");
    CHECK(group_thousands(50257) == "50,257");
    CHECK(group_thousands(1234567) == "1,234,567");
}
