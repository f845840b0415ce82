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

TEST_CASE("group_thousands groups digits in threes") {
    CHECK(group_thousands(0) == "0");
    CHECK(group_thousands(999) == "999");
    CHECK(group_thousands(50257) == "50,257");
    CHECK(group_thousands(1234567) == "1,234,567");
}
