#include "core/kernels/rounding.hpp"

#include <cstring>

namespace embdemo {
namespace {

// The float's bits as a position on one number line: negative floats below +0, in order.
std::int64_t ordered(float value) {
    std::int32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits < 0 ? -static_cast<std::int64_t>(bits & 0x7fffffff) - 1 : bits;
}

}  // namespace

std::uint64_t ulp_distance(float a, float b) {
    const std::int64_t x = ordered(a);
    const std::int64_t y = ordered(b);
    return static_cast<std::uint64_t>(x > y ? x - y : y - x);
}

double dot_tolerance(std::size_t m, double abs_sum) {
    const double u = 1.0 / 16777216.0;  // 2^-24, float32's unit roundoff
    const double mu = static_cast<double>(m) * u;
    return 2.0 * mu / (1.0 - mu) * abs_sum;
}

}  // namespace embdemo
