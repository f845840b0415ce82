// Matrices for the tests that compare a blockwise product with the one BLAS call PyTorch makes:
// random values with special ones sprinkled in (where the order of a sum could show: nan
// payloads, inf, -0.0, subnormals), and bit-for-bit equality.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "core/matrix.hpp"

namespace embdemo {

inline float nan_with_payload(std::uint32_t payload, bool negative) {
    const std::uint32_t bits = (negative ? 0xffc00000u : 0x7fc00000u) | (payload & 0x3fffffu);
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

inline bool same_bits(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols &&
           std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) == 0;
}

// rows x cols from a fixed seed (mt19937's raw output only); with `specials`, about one value
// in 17 is -0.0, +-inf, a nan with a random payload and sign, or the smallest subnormal.
inline Matrix special_table(std::size_t rows, std::size_t cols, std::mt19937& engine, bool specials) {
    Matrix e(rows, cols);
    for (float& value : e.values) value = static_cast<float>(static_cast<std::int32_t>(engine() % 2001) - 1000) / 256.0f;
    if (!specials) return e;
    for (std::size_t k = 0; k < (rows * cols) / 17 + 1; ++k) {
        float& value = e.values[engine() % e.values.size()];
        switch (engine() % 5) {
            case 0: value = -0.0f; break;
            case 1: value = std::numeric_limits<float>::infinity(); break;
            case 2: value = -std::numeric_limits<float>::infinity(); break;
            case 3: value = nan_with_payload(static_cast<std::uint32_t>(engine()), engine() % 2 == 0); break;
            default: value = std::numeric_limits<float>::denorm_min(); break;
        }
    }
    return e;
}

}  // namespace embdemo
