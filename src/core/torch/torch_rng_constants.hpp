// The float constants of torch's vectorised normal kernel (../shared/torch_rng.md §5.3) as bit
// patterns, shared by the two implementations of that kernel: the per-lane reference in
// torch_rng.cpp and the eight-lane AVX2 one in torch_rng_avx2.cpp. Internal to the RNG: nothing
// outside src/core/torch/torch_rng*.cpp includes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace embdemo::torch_rng_detail {

// Builds a float from its IEEE-754 bit pattern, so that every constant is exactly the one in
// torch's binary and no decimal-to-binary conversion can move it by an ulp.
inline float float_from_bits(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

inline std::uint32_t bits_of(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// The comments give the approximate value.
constexpr std::uint32_t k_one_bits = 0x3f800000;           // 1.0
constexpr std::uint32_t k_minus_one_bits = 0xbf800000;     // -1.0
constexpr std::uint32_t k_minus_two_bits = 0xc0000000;     // -2.0
constexpr std::uint32_t k_two_pi_bits = 0x40c90fdb;        // 2*pi rounded to float
constexpr std::uint32_t k_two_pow_minus_24_bits = 0x33800000;  // 2^-24
constexpr std::uint32_t k_min_normal_bits = 0x00800000;    // 2^-126, smallest normal float
constexpr std::uint32_t k_mantissa_mask = 0x807fffff;      // sign and mantissa, exponent cleared
constexpr std::uint32_t k_half_bits = 0x3f000000;          // 0.5, i.e. the exponent of [0.5, 1)
constexpr std::uint32_t k_sqrt_half_bits = 0x3f3504f3;     // sqrt(1/2)
constexpr std::uint32_t k_log_p_bits[9] = {
    0x3d9021bb, 0xbdebd1b8, 0x3def251a, 0xbdfe5d4f, 0x3e11e9bf,
    0xbe2aae50, 0x3e4cceac, 0xbe7ffffc, 0x3eaaaaaa,
};
constexpr std::uint32_t k_log_q1_bits = 0xb95e8083;  // -2.12194440e-4
constexpr std::uint32_t k_log_q2_bits = 0x3f318000;  // 0.693359375
constexpr std::uint32_t k_four_over_pi_bits = 0x3fa2f983;
constexpr std::uint32_t k_minus_dp_bits[3] = {0xbf490000, 0xb97da000, 0xb3222169};  // -pi/4 split
constexpr std::uint32_t k_cos_c_bits[3] = {0x37ccf5ce, 0xbab6061a, 0x3d2aaaa5};
constexpr std::uint32_t k_sin_s_bits[3] = {0xb94ca1f9, 0x3c08839e, 0xbe2aaaa3};
constexpr std::uint32_t k_sign_bit = 0x80000000;
constexpr std::uint32_t k_nan_all_bits = 0xffffffff;  // what the log returns for v <= 0

// §5.1: the vectorised path works on blocks of 16 values, pairing element j with element 8 + j.
constexpr std::size_t k_block = 16;
constexpr std::size_t k_lanes = 8;

}  // namespace embdemo::torch_rng_detail
