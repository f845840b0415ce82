#include <doctest/doctest.h>

#include <cmath>
#include <charconv>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "render/kit/number_format.hpp"

using namespace embdemo;

TEST_CASE("fixed mode prints four decimals aligned with a sign column, like PyTorch") {
    const std::vector<float> values{0.3374f, -1.8061f, 1.5810f};
    const NumberFormat format = choose_number_format(values, 4);
    CHECK(format.mode == NumberFormat::Mode::fixed);
    CHECK(format.width == 7);
    CHECK(format_number(0.3374f, format) == " 0.3374");
    CHECK(format_number(-1.8061f, format) == "-1.8061");
}

TEST_CASE("whole numbers print in integer mode with a trailing point") {
    const std::vector<float> values{0, 1, 20, 24};
    const NumberFormat format = choose_number_format(values, 4);
    CHECK(format.mode == NumberFormat::Mode::integer);
    CHECK(format_number(20.0f, format) == "20.");
    CHECK(format_number(0.0f, format) == " 0.");
}

TEST_CASE("all-zero matrices print as 0. like torch.zeros") {
    const NumberFormat format = choose_number_format({0.0f, 0.0f}, 4);
    CHECK(format_number(0.0f, format) == "0.");
}

TEST_CASE("a wide range of magnitudes switches to scientific notation") {
    const std::vector<float> values{1.0e-5f, 2.0f};
    const NumberFormat format = choose_number_format(values, 4);
    CHECK(format.mode == NumberFormat::Mode::scientific);
    CHECK(format_number(1.0e-5f, format) == "1.0000e-05");
}

TEST_CASE("non-finite values are spelled nan and inf") {
    const NumberFormat format = choose_number_format({1.5f}, 4);
    CHECK(format_number(std::numeric_limits<float>::quiet_NaN(), format) == "   nan");
    CHECK(format_number(-std::numeric_limits<float>::infinity(), format) == "  -inf");
}

TEST_CASE("shortest_round_trip reads back as the same float32 through a double") {
    std::mt19937 random(7);
    for (int i = 0; i < 200000; ++i) {
        std::uint32_t bits = random();
        float value = 0;
        std::memcpy(&value, &bits, sizeof value);
        if (!std::isfinite(value)) continue;
        const std::string text = shortest_round_trip(value);
        double reread = 0;
        std::from_chars(text.data(), text.data() + text.size(), reread);
        const float back = static_cast<float>(reread);
        std::uint32_t back_bits = 0;
        std::memcpy(&back_bits, &back, sizeof back_bits);
        CAPTURE(text);
        REQUIRE(back_bits == bits);
    }
}

TEST_CASE("shortest_round_trip is short") {
    CHECK(shortest_round_trip(0.5f) == "0.5");
    CHECK(shortest_round_trip(-0.0f) == "-0");
    CHECK(shortest_round_trip(20.0f) == "20");
    CHECK(shortest_round_trip(0.337370187f) == "0.3373702");
}
