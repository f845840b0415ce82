// Tests of the torch-compatible generator and its two fills (src/core/torch/torch_rng.hpp): the
// Mersenne Twister stream and torch's seeding, the draw accounting of each path, the scalar path's
// cached normal, the 16-block tail rule and the kaiming bound. Expected values come from
// ../shared/torch_rng.md §12 (real torch 1.13.1). The exhaustive comparison with recorded torch
// weights lives in init_test.cpp.
//
// Values from the spec's table are written as 9-significant-digit literals: that is enough for
// every float32 to survive the round trip to decimal and back, so comparing the bit pattern of the
// literal with the bit pattern of our result is still an exact comparison.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/torch/torch_rng.hpp"

namespace embdemo {
namespace {

std::uint32_t bits_of(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

std::string hex(std::uint32_t bits) {
    std::ostringstream out;
    out << "0x" << std::hex;
    out.width(8);
    out.fill('0');
    out << bits;
    return out.str();
}

// Checks that `actual` starts with `expected`, bit for bit, naming the first differing index.
void check_starts_with(const std::vector<float>& actual, std::initializer_list<float> expected,
                       const std::string& what) {
    REQUIRE(actual.size() >= expected.size());
    std::size_t index = 0;
    for (const float want : expected) {
        const std::uint32_t want_bits = bits_of(want);
        const std::uint32_t got_bits = bits_of(actual[index]);
        CHECK_MESSAGE(got_bits == want_bits, what, " index ", index, ": expected ", hex(want_bits),
                      " (", want, "), got ", hex(got_bits), " (", actual[index], ")");
        ++index;
    }
}

std::vector<float> normal_values(TorchGenerator& generator, std::size_t count) {
    std::vector<float> values(count);
    normal_fill(generator, values.data(), values.size());
    return values;
}

std::vector<float> linear_values(TorchGenerator& generator, std::size_t in_features,
                                 std::size_t out_features) {
    std::vector<float> values(in_features * out_features);
    const double bound = kaiming_uniform_bound(in_features);
    uniform_fill(generator, values.data(), values.size(), -bound, bound);
    return values;
}

// The next draw of `generator` must be draw number `consumed` of the plain MT19937 stream: this
// is how the tests count how many 32-bit draws a fill used.
void check_draws_consumed(TorchGenerator& generator, std::uint64_t seed, unsigned long consumed) {
    std::mt19937 reference(static_cast<std::mt19937::result_type>(seed & 0xffffffffu));
    reference.discard(consumed);
    CHECK(generator.random() == static_cast<std::uint32_t>(reference()));
}

}  // namespace

TEST_CASE("TorchGenerator produces std::mt19937's stream seeded with the low 32 bits") {
    const std::uint64_t seeds[] = {0,
                                   1,
                                   5,
                                   123,
                                   (std::uint64_t{1} << 31) - 1,
                                   (std::uint64_t{1} << 32) + 5,
                                   (std::uint64_t{1} << 63) - 1,
                                   ~std::uint64_t{0}};
    for (const std::uint64_t seed : seeds) {
        CAPTURE(seed);
        TorchGenerator generator(seed);
        std::mt19937 reference(static_cast<std::mt19937::result_type>(seed & 0xffffffffu));
        // 2000 draws cross the 624-word regeneration three times.
        int mismatches = 0;
        for (int i = 0; i < 2000; ++i) {
            if (generator.random() != static_cast<std::uint32_t>(reference())) {
                ++mismatches;
            }
        }
        CHECK(mismatches == 0);
    }
}

TEST_CASE("TorchGenerator's 10000th draw from seed 5489 is the value the C++ standard requires") {
    TorchGenerator generator(5489);
    std::uint32_t value = 0;
    for (int i = 0; i < 10000; ++i) {
        value = generator.random();
    }
    CHECK(value == 4123659995u);
}

TEST_CASE("seeds that agree in their low 32 bits give identical streams") {
    TorchGenerator a((std::uint64_t{1} << 32) + 5);
    TorchGenerator b(5);
    TorchGenerator c(~std::uint64_t{0});  // what torch.manual_seed(-1) uses
    TorchGenerator d(0xffffffffu);
    TorchGenerator e((std::uint64_t{1} << 63) - 1);
    for (int i = 0; i < 1000; ++i) {
        CHECK(a.random() == b.random());
        const std::uint32_t from_c = c.random();
        CHECK(from_c == d.random());
        CHECK(from_c == e.random());
    }
}

TEST_CASE("random_block continues the stream exactly as single draws would") {
    // Blocks of every awkward length, interleaved with single draws, across many twists.
    TorchGenerator generator(123);
    std::mt19937 reference(123);
    std::vector<std::uint32_t> block;
    int mismatches = 0;
    for (const std::size_t length : {0u, 1u, 623u, 624u, 625u, 5u, 1248u, 2000u, 7u, 3000u}) {
        block.assign(length, 0);
        generator.random_block(block.data(), length);
        for (const std::uint32_t draw : block) {
            mismatches += draw != static_cast<std::uint32_t>(reference()) ? 1 : 0;
        }
        mismatches += generator.random() != static_cast<std::uint32_t>(reference()) ? 1 : 0;
    }
    CHECK(mismatches == 0);
}

TEST_CASE("random64 puts the first 32-bit draw in the high word") {
    TorchGenerator combined(42);
    TorchGenerator single(42);
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t high = single.random();
        const std::uint64_t low = single.random();
        CHECK(combined.random64() == ((high << 32) | low));
    }
}

TEST_CASE("a fresh generator has no cached normal and the cache round-trips a double") {
    TorchGenerator generator(7);
    CHECK_FALSE(generator.has_cached_normal());
    generator.set_cached_normal(-0.125);
    CHECK(generator.has_cached_normal());
    CHECK(generator.take_cached_normal() == -0.125);
    CHECK_FALSE(generator.has_cached_normal());
}

TEST_CASE("normal_fill reproduces torch's seed-123 values on both paths") {
    SUBCASE("Embedding(1,1), scalar path") {
        TorchGenerator generator(123);
        check_starts_with(normal_values(generator, 1), {-0.111467116f}, "1x1");
    }
    SUBCASE("Embedding(3,5), scalar path") {
        TorchGenerator generator(123);
        check_starts_with(normal_values(generator, 15),
                          {-0.111467116f, 0.120362945f, -0.369634509f, -0.240417972f,
                           -1.19692433f},
                          "3x5");
    }
    SUBCASE("Embedding(4,4), one full block") {
        TorchGenerator generator(123);
        check_starts_with(normal_values(generator, 16),
                          {0.337370187f, -0.177777216f, -0.303527594f, -0.588011861f,
                           0.348605186f},
                          "4x4");
    }
    SUBCASE("Embedding(4,5), a block and a redrawn tail") {
        TorchGenerator generator(123);
        check_starts_with(normal_values(generator, 20),
                          {0.337370187f, -0.177777216f, -0.303527594f, -0.588011861f,
                           1.58096957f},
                          "4x5");
    }
    SUBCASE("Embedding(17,1), only element 0 survives from the first block") {
        TorchGenerator generator(123);
        check_starts_with(normal_values(generator, 17),
                          {0.337370187f, -1.02047193f, -0.16895628f, 0.917764604f, 1.58096957f},
                          "17x1");
    }
}

TEST_CASE("uniform_fill with the kaiming bound reproduces torch's seed-123 Linear weights") {
    SUBCASE("Linear(4,5), weight 5x4") {
        TorchGenerator generator(123);
        check_starts_with(linear_values(generator, 4, 5),
                          {-0.203888059f, 0.016562283f, -0.248329282f, 0.18855679f,
                           -0.426027536f},
                          "Linear(4,5)");
    }
    SUBCASE("Linear(50257,8), weight 8x50257") {
        TorchGenerator generator(123);
        check_starts_with(linear_values(generator, 50257, 8),
                          {-0.00181896158f, 0.000147758314f, -0.00221543829f, 0.00168218557f,
                           -0.00380075094f},
                          "Linear(50257,8)");
    }
}

TEST_CASE("the scalar path's cached normal survives a vectorised fill and is used next") {
    // After one manual_seed(123): Embedding(3,5) makes 8 Box-Muller pairs and leaves the 16th
    // value cached; Embedding(4,5) takes the block path and ignores the cache; Embedding(1,1)
    // then returns the cached value instead of drawing.
    TorchGenerator generator(123);
    check_starts_with(normal_values(generator, 15),
                      {-0.111467116f, 0.120362945f, -0.369634509f, -0.240417972f, -1.19692433f},
                      "#1 3x5");
    CHECK(generator.has_cached_normal());
    check_starts_with(normal_values(generator, 20),
                      {-1.32495737f, 0.178428441f, -2.13375306f, 1.05235779f, -1.2202903f},
                      "#2 4x5");
    CHECK(generator.has_cached_normal());
    check_starts_with(normal_values(generator, 1), {0.972821116f}, "#3 1x1");
    CHECK_FALSE(generator.has_cached_normal());
}

TEST_CASE("a second scalar fill starts with the value the first one cached") {
    TorchGenerator generator(123);
    normal_values(generator, 15);
    check_starts_with(normal_values(generator, 15),
                      {0.972821116f, -0.0386162177f, -0.886101425f, -0.470900148f,
                       -0.426901072f},
                      "#2 3x5");
    // 15 values with one taken from the cache: 14 generated, an even number, so none is left.
    CHECK_FALSE(generator.has_cached_normal());
}

TEST_CASE("two vectorised fills in a row continue the stream") {
    TorchGenerator generator(123);
    normal_values(generator, 20);
    check_starts_with(normal_values(generator, 20),
                      {-0.388483077f, -0.934345901f, -0.499144107f, -1.08665264f,
                       -0.204444751f},
                      "#2 4x5");
}

TEST_CASE("uniform fills after a vectorised normal fill continue the stream") {
    // Seed 0: Embedding(1000,33), then Linear(33,64) and Linear(64,33) on the same generator.
    TorchGenerator generator(0);
    check_starts_with(normal_values(generator, 1000 * 33),
                      {-1.12583983f, -1.1523602f, -0.250578582f, -0.433878809f, 0.848710358f},
                      "#1 embedding 1000x33");
    check_starts_with(linear_values(generator, 33, 64),
                      {-0.0354228392f, -0.115758173f, 0.131127879f, 0.108633786f,
                       -0.0446783118f},
                      "#2 linear 64x33");
    check_starts_with(linear_values(generator, 64, 33),
                      {0.0561126769f, -0.0591109097f, -0.00501710176f, 0.0148828477f,
                       0.105019316f},
                      "#3 linear 33x64");
}

TEST_CASE("normal_fill draws n values, plus 16 when n is not a multiple of 16") {
    for (const std::size_t count : {16u, 17u, 20u, 31u, 32u, 33u, 1000u}) {
        CAPTURE(count);
        TorchGenerator generator(99);
        normal_values(generator, count);
        CHECK_FALSE(generator.has_cached_normal());
        check_draws_consumed(generator, 99, count + (count % 16 != 0 ? 16 : 0));
    }
}

TEST_CASE("the scalar path draws four 32-bit values per Box-Muller pair") {
    for (std::size_t count = 1; count < 16; ++count) {
        CAPTURE(count);
        TorchGenerator generator(99);
        normal_values(generator, count);
        CHECK(generator.has_cached_normal() == (count % 2 == 1));
        check_draws_consumed(generator, 99, 4 * ((count + 1) / 2));
    }
}

TEST_CASE("filling zero elements draws nothing and leaves the cache alone") {
    TorchGenerator generator(99);
    normal_fill(generator, nullptr, 0);
    uniform_fill(generator, nullptr, 0, -1.0, 1.0);
    CHECK_FALSE(generator.has_cached_normal());
    check_draws_consumed(generator, 99, 0);
}

TEST_CASE("the tail rule keeps only element 0 of randn(17) equal to randn(16)") {
    TorchGenerator sixteen(5);
    TorchGenerator seventeen(5);
    const std::vector<float> a = normal_values(sixteen, 16);
    const std::vector<float> b = normal_values(seventeen, 17);
    CHECK(bits_of(a[0]) == bits_of(b[0]));
    CHECK(bits_of(a[1]) != bits_of(b[1]));
}

TEST_CASE("uniform_fill draws one value per element and leaves the cache alone") {
    TorchGenerator generator(99);
    generator.set_cached_normal(0.5);
    std::vector<float> values(37);
    uniform_fill(generator, values.data(), values.size(), -0.25, 0.25);
    CHECK(generator.has_cached_normal());
    check_draws_consumed(generator, 99, 37);
}

TEST_CASE("uniform_fill from 0 to 1 gives exactly k * 2^-24 from the low 24 bits of each draw") {
    TorchGenerator generator(2024);
    std::mt19937 reference(2024);
    std::vector<float> values(1000);
    uniform_fill(generator, values.data(), values.size(), 0.0, 1.0);
    for (const float value : values) {
        const std::uint32_t low_bits = static_cast<std::uint32_t>(reference()) & 0xFFFFFFu;
        CHECK(value == std::ldexp(static_cast<float>(low_bits), -24));
    }
}

TEST_CASE("uniform_fill stays inside the kaiming bound") {
    TorchGenerator generator(3);
    const std::vector<float> values = linear_values(generator, 33, 200);
    const float bound = static_cast<float>(kaiming_uniform_bound(33));
    for (const float value : values) {
        CHECK(value >= -bound);
        CHECK(value < bound);
    }
}

TEST_CASE("kaiming_uniform_bound rounds to the same float as 1/sqrt(fan_in)") {
    // torch computes sqrt(3) * sqrt(2 / (1 + sqrt(5)^2)) / sqrt(fan_in) in double; the double
    // differs from 1/sqrt(fan_in) in most cases, but the float32 bound never does (spec §4).
    int mismatches = 0;
    std::size_t first_mismatch = 0;
    for (std::size_t fan_in = 1; fan_in <= 1000000; ++fan_in) {
        const float expected = static_cast<float>(1.0 / std::sqrt(static_cast<double>(fan_in)));
        const float actual = static_cast<float>(kaiming_uniform_bound(fan_in));
        if (bits_of(actual) != bits_of(expected) && mismatches++ == 0) {
            first_mismatch = fan_in;
        }
    }
    CHECK_MESSAGE(mismatches == 0, "first mismatch at fan_in ", first_mismatch);
    CHECK(kaiming_uniform_bound(1) == doctest::Approx(1.0));
    CHECK(kaiming_uniform_bound(0) == 0.0);
}

}  // namespace embdemo
