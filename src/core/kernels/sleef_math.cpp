#include "core/kernels/sleef_math.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <immintrin.h>

#include "core/cpu_features.hpp"

namespace embdemo {
namespace {

std::int32_t sleef_bits(float f) {
    std::int32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

float sleef_float(std::int32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

// 2^q as a float, for q within the normal exponents.
float pow2i(int q) { return sleef_float(static_cast<std::int32_t>(static_cast<std::uint32_t>(q + 0x7f) << 23)); }

// A value as the unevaluated sum hi + lo (SLEEF's vfloat2), and its operations with FMA.
struct DoubleFloat {
    float hi, lo;
};

DoubleFloat df_mul(DoubleFloat x, float y) {
    const float s = x.hi * y;
    return {s, std::fma(x.lo, y, std::fma(x.hi, y, -s))};
}

DoubleFloat df_add2(float x, float y) {
    const float s = x + y;
    const float v = s - x;
    return {s, (x - (s - v)) + (y - v)};
}

DoubleFloat df_add(DoubleFloat x, DoubleFloat y) {
    const float s = x.hi + y.hi;
    return {s, (((x.hi - s) + y.hi) + x.lo) + y.lo};
}

DoubleFloat df_add(DoubleFloat x, float y) {
    const float s = x.hi + y;
    return {s, ((x.hi - s) + y) + x.lo};
}

DoubleFloat df_div(DoubleFloat n, DoubleFloat d) {
    const float t = 1.0f / d.hi;
    const float s = n.hi * t;
    const float u = std::fma(t, n.hi, -s);
    const float v = std::fma(-d.lo, t, std::fma(-d.hi, t, 1.0f));
    return {s, std::fma(s, v, std::fma(n.lo, t, u))};
}

#define EMBDEMO_SLEEF_INLINE inline __attribute__((always_inline))

EMBDEMO_SLEEF_INLINE float expf_body(float d) {
    constexpr float k_r_ln2 = 1.442695040888963407359924681001892137426645954152985934135449406931f;
    constexpr float k_l2u = 0.693145751953125f, k_l2l = 1.428606765330187045e-06f;
    if (std::isnan(d)) return d;
    const int q = static_cast<int>(std::nearbyint(d * k_r_ln2));
    float s = std::fma(static_cast<float>(q), -k_l2u, d);
    s = std::fma(static_cast<float>(q), -k_l2l, s);
    float u = 0.000198527617612853646278381f;
    u = std::fma(u, s, 0.00139304355252534151077271f);
    u = std::fma(u, s, 0.00833336077630519866943359f);
    u = std::fma(u, s, 0.0416664853692054748535156f);
    u = std::fma(u, s, 0.166666671633720397949219f);
    u = std::fma(u, s, 0.5f);
    u = 1.0f + std::fma(s * s, u, s);
    if (d < -104.0f) return 0.0f;
    if (d > 104.0f) return std::numeric_limits<float>::infinity();
    return u * pow2i(q >> 1) * pow2i(q - (q >> 1));
}

#define EMBDEMO_AVX2_FMA __attribute__((target("avx2,fma")))

// expf_body in eight lanes, with the same operations in the same order: cvtps2dq rounds to
// nearest even as nearbyint does, and each _mm256_fmadd_ps is the std::fma it stands for.
EMBDEMO_AVX2_FMA __m256 expf8(__m256 d) {
    const __m256i q = _mm256_cvtps_epi32(_mm256_mul_ps(d, _mm256_set1_ps(1.442695040888963407359924681001892137426645954152985934135449406931f)));
    const __m256 q_float = _mm256_cvtepi32_ps(q);
    __m256 s = _mm256_fmadd_ps(q_float, _mm256_set1_ps(-0.693145751953125f), d);
    s = _mm256_fmadd_ps(q_float, _mm256_set1_ps(-1.428606765330187045e-06f), s);
    __m256 u = _mm256_set1_ps(0.000198527617612853646278381f);
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00139304355252534151077271f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00833336077630519866943359f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.0416664853692054748535156f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.166666671633720397949219f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.5f));
    u = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(_mm256_mul_ps(s, s), u, s));
    const auto pow2i8 = [](__m256i e) EMBDEMO_AVX2_FMA {
        return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(e, _mm256_set1_epi32(0x7f)), 23));
    };
    const __m256i half = _mm256_srai_epi32(q, 1);
    u = _mm256_mul_ps(_mm256_mul_ps(u, pow2i8(half)), pow2i8(_mm256_sub_epi32(q, half)));
    u = _mm256_andnot_ps(_mm256_cmp_ps(d, _mm256_set1_ps(-104.0f), _CMP_LT_OQ), u);
    u = _mm256_blendv_ps(u, _mm256_set1_ps(std::numeric_limits<float>::infinity()),
                         _mm256_cmp_ps(d, _mm256_set1_ps(104.0f), _CMP_GT_OQ));
    return _mm256_blendv_ps(u, d, _mm256_cmp_ps(d, d, _CMP_UNORD_Q));
}

EMBDEMO_AVX2_FMA void expf_all_avx2(float* values, std::size_t count) {
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) _mm256_storeu_ps(values + i, expf8(_mm256_loadu_ps(values + i)));
    for (; i < count; ++i) values[i] = expf_body(values[i]);
}

}  // namespace

float sleef_expf(float d) { return expf_body(d); }

void sleef_expf_all(float* values, std::size_t count) {
    static const bool avx2 = cpu_has_avx2() && cpu_has_fma();
    if (avx2) {
        expf_all_avx2(values, count);
        return;
    }
    for (std::size_t i = 0; i < count; ++i) values[i] = expf_body(values[i]);
}

float sleef_logf(float d) {
    if (std::isnan(d) || d < 0.0f) return std::numeric_limits<float>::quiet_NaN();
    if (d == 0.0f) return -std::numeric_limits<float>::infinity();
    if (std::isinf(d)) return d;
    const bool subnormal = d < std::numeric_limits<float>::min();
    if (subnormal) d = d * 18446744073709551616.0f;  // 2^64
    int e = ((sleef_bits(d * (1.0f / 0.75f)) >> 23) & 0xff) - 0x7f;
    const float m = sleef_float(sleef_bits(d) - static_cast<std::int32_t>(static_cast<std::uint32_t>(e) << 23));
    if (subnormal) e -= 64;
    DoubleFloat s = df_mul({0.69314718246459960938f, -1.904654323148236017e-09f}, static_cast<float>(e));
    const DoubleFloat x = df_div(df_add2(-1.0f, m), df_add2(1.0f, m));
    const float x2 = x.hi * x.hi;
    float t = 0.3027294874e+0f;
    t = std::fma(t, x2, 0.3996108174e+0f);
    t = std::fma(t, x2, 0.6666694880e+0f);
    s = df_add(s, DoubleFloat{x.hi * 2.0f, x.lo * 2.0f});
    s = df_add(s, (x2 * x.hi) * t);
    return s.hi + s.lo;
}

}  // namespace embdemo
