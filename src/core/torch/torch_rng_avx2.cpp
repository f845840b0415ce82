// torch's vectorised normal kernel (../shared/torch_rng.md §5.2) eight lanes at a time with AVX2
// and FMA, as torch's own binary runs it. Every line mirrors a step of the per-lane reference in
// torch_rng.cpp (cephes_log, cephes_sincos, normal_block); the section numbers are the spec's.
// Lanes never interact, so doing eight at once changes no bit: each fused multiply-add below is
// one of the spec's, written as an explicit intrinsic, and this file is compiled with
// -ffp-contract=off so the compiler fuses nothing else.
//
// Why __attribute__((target)) and not xsimd: xsimd picks its instruction set from the flags the
// whole translation unit is compiled with, so using its AVX2 batches would mean compiling this file
// with -mavx2. Inline functions from headers (std::, xsimd's own) instantiated here could then be
// AVX2 code that the linker shares with the rest of the program, which would crash on a CPU
// without AVX2. The target attribute confines AVX2 to the functions below; the program's baseline
// stays plain x86-64, and torch_rng.cpp calls in here only after cpu_has_avx2_fma() said yes.
#include "core/torch/torch_rng_avx2.hpp"

#include "core/torch/torch_rng_constants.hpp"
#include "core/cpu_features.hpp"

#if defined(__x86_64__) && defined(__GNUC__)

#include <immintrin.h>

#define EMBDEMO_AVX2_FMA __attribute__((target("avx2,fma")))

namespace embdemo::torch_rng_detail {
namespace {

EMBDEMO_AVX2_FMA inline __m256 splat(std::uint32_t bits) {
    return _mm256_set1_ps(float_from_bits(bits));
}

// §5.2 L(v) in eight lanes; see cephes_log in torch_rng.cpp for the idea behind each step.
EMBDEMO_AVX2_FMA inline __m256 cephes_log8(__m256 v) {
    // Step 9 first: lanes with !(v > 0) end as a NaN with all bits set, like the reference.
    const __m256 invalid = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_NGT_UQ);
    // Step 1.
    v = _mm256_max_ps(v, splat(k_min_normal_bits));
    // Step 2: exponent and mantissa in [0.5, 1).
    const __m256i exponent = _mm256_sub_epi32(
        _mm256_srli_epi32(_mm256_castps_si256(v), 23), _mm256_set1_epi32(127));
    const __m256 m = _mm256_or_ps(_mm256_and_ps(v, splat(k_mantissa_mask)), splat(k_half_bits));
    const __m256 one = splat(k_one_bits);
    __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(exponent), one);
    // Step 3: the lanes with m < sqrt(1/2) take t = m and e - 1; the others t = +0 and e - 0.
    const __m256 below = _mm256_cmp_ps(m, splat(k_sqrt_half_bits), _CMP_LT_OS);
    const __m256 t = _mm256_and_ps(below, m);
    e = _mm256_sub_ps(e, _mm256_and_ps(below, one));
    // Step 4.
    __m256 x = _mm256_add_ps(m, splat(k_minus_one_bits));
    x = _mm256_add_ps(t, x);
    // Step 5: Horner's rule, one fused multiply-add a step.
    __m256 y = splat(k_log_p_bits[0]);
    for (int k = 1; k <= 8; ++k) {
        y = _mm256_fmadd_ps(y, x, splat(k_log_p_bits[k]));
    }
    // Step 6: e*Q1 is rounded on its own before the fused add.
    const __m256 z = _mm256_mul_ps(x, x);
    y = _mm256_mul_ps(x, y);
    y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, splat(k_log_q1_bits)));
    // Step 7: fnmadd is -(z*0.5) + y in one rounding, i.e. fma(-z, 0.5, y).
    y = _mm256_fnmadd_ps(z, splat(k_half_bits), y);
    // Step 8.
    const __m256 r = _mm256_add_ps(x, y);
    return _mm256_or_ps(_mm256_fmadd_ps(e, splat(k_log_q2_bits), r), invalid);
}

// §5.2 SC(theta) in eight lanes; see cephes_sincos in torch_rng.cpp.
EMBDEMO_AVX2_FMA inline void cephes_sincos8(__m256 theta, __m256& sin_out, __m256& cos_out) {
    // Step 1.
    const __m256 sign = splat(k_sign_bit);
    const __m256 theta_sign = _mm256_and_ps(theta, sign);
    const __m256 a = _mm256_andnot_ps(sign, theta);
    // Step 2: the octant rounded up to even; cvtt truncates like the reference's cast.
    __m256i j = _mm256_cvttps_epi32(_mm256_mul_ps(a, splat(k_four_over_pi_bits)));
    j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
    const __m256 q = _mm256_cvtepi32_ps(j);
    // Step 3.
    __m256 x = _mm256_fmadd_ps(q, splat(k_minus_dp_bits[0]), a);
    x = _mm256_fmadd_ps(q, splat(k_minus_dp_bits[1]), x);
    x = _mm256_fmadd_ps(q, splat(k_minus_dp_bits[2]), x);
    // Step 4.
    const __m256 z = _mm256_mul_ps(x, x);
    // Step 5: fmsub is pc*z - z/2 in one rounding, i.e. fma(pc, z, -(z*0.5)).
    __m256 pc = _mm256_fmadd_ps(splat(k_cos_c_bits[0]), z, splat(k_cos_c_bits[1]));
    pc = _mm256_fmadd_ps(pc, z, splat(k_cos_c_bits[2]));
    pc = _mm256_mul_ps(z, pc);
    pc = _mm256_fmsub_ps(pc, z, _mm256_mul_ps(z, splat(k_half_bits)));
    pc = _mm256_add_ps(pc, splat(k_one_bits));
    // Step 6.
    __m256 ps = _mm256_fmadd_ps(splat(k_sin_s_bits[0]), z, splat(k_sin_s_bits[1]));
    ps = _mm256_fmadd_ps(ps, z, splat(k_sin_s_bits[2]));
    ps = _mm256_mul_ps(z, ps);
    ps = _mm256_fmadd_ps(ps, x, x);
    // Step 7: swap where bit 1 of j is set; adding +0 turns -0 into +0 as the kernel does.
    const __m256i two = _mm256_set1_epi32(2);
    const __m256 swap = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(j, two), two));
    const __m256 zero = _mm256_setzero_ps();
    const __m256 sin_poly = _mm256_add_ps(_mm256_blendv_ps(ps, pc, swap), zero);
    const __m256 cos_poly = _mm256_add_ps(_mm256_blendv_ps(pc, ps, swap), zero);
    // Step 8: bit 2 of j (or of j - 2, negated) moved to the sign bit.
    const __m256i four = _mm256_set1_epi32(4);
    const __m256i sin_flip = _mm256_slli_epi32(_mm256_and_si256(j, four), 29);
    const __m256i cos_flip =
        _mm256_slli_epi32(_mm256_andnot_si256(_mm256_sub_epi32(j, two), four), 29);
    sin_out = _mm256_xor_ps(sin_poly, _mm256_xor_ps(theta_sign, _mm256_castsi256_ps(sin_flip)));
    cos_out = _mm256_xor_ps(cos_poly, _mm256_castsi256_ps(cos_flip));
}

// One 16-element block: lanes 0..7 are u1's source, lanes 8..15 are u2 (§5.1 step 2).
EMBDEMO_AVX2_FMA inline void normal_block8(float* block, __m256 mean, __m256 std_dev) {
    const __m256 u1 = _mm256_sub_ps(splat(k_one_bits), _mm256_loadu_ps(block));
    const __m256 u2 = _mm256_loadu_ps(block + k_lanes);
    const __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(splat(k_minus_two_bits), cephes_log8(u1)));
    __m256 sin_theta;
    __m256 cos_theta;
    cephes_sincos8(_mm256_mul_ps(splat(k_two_pi_bits), u2), sin_theta, cos_theta);
    _mm256_storeu_ps(block, _mm256_fmadd_ps(_mm256_mul_ps(radius, cos_theta), std_dev, mean));
    _mm256_storeu_ps(block + k_lanes,
                     _mm256_fmadd_ps(_mm256_mul_ps(radius, sin_theta), std_dev, mean));
}

}  // namespace

bool cpu_has_avx2_fma() {
    return cpu_has_avx2() && cpu_has_fma();
}

EMBDEMO_AVX2_FMA void normal_blocks_avx2(float* blocks, std::size_t block_count, float mean,
                                         float std_dev) {
    const __m256 mean8 = _mm256_set1_ps(mean);
    const __m256 std8 = _mm256_set1_ps(std_dev);
    for (std::size_t b = 0; b < block_count; ++b) {
        normal_block8(blocks + b * k_block, mean8, std8);
    }
}

}  // namespace embdemo::torch_rng_detail

#else  // not x86-64 with GCC or Clang: only the reference kernel exists

#include <cstdlib>

namespace embdemo::torch_rng_detail {

bool cpu_has_avx2_fma() { return false; }

void normal_blocks_avx2(float*, std::size_t, float, float) {
    std::abort();  // unreachable: torch_rng.cpp asks cpu_has_avx2_fma() first
}

}  // namespace embdemo::torch_rng_detail

#endif
