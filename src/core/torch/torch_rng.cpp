// PyTorch 1.13's CPU random stream (AVX2 kernels), reproduced bit for bit; the specification with
// every rounding step is ../shared/torch_rng.md, and the section numbers below refer to it.
// Bit-exactness rests on three rules: every fused multiply-add torch's binary performs is written
// here as an explicit std::fma/std::fmaf, this file is compiled with -ffp-contract=off so that
// the compiler fuses nothing else, and float arithmetic is done in float (no x87 excess precision).
// The per-lane code here is the reference for the vectorised normal path; torch_rng_avx2.cpp does
// the same arithmetic eight lanes at a time and is chosen at run time where the CPU has AVX2.
// It deliberately does not reproduce torch's DEFAULT (non-AVX) kernels, float64 tensors or the CUDA
// generator: nn.Embedding and nn.Linear on a float32 CPU tensor never use them on an AVX2 machine.
#include "core/torch/torch_rng.hpp"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "core/cpu_features.hpp"
#include "core/torch/torch_rng_avx2.hpp"
#include "core/torch/torch_rng_constants.hpp"

namespace embdemo {

static_assert(FLT_EVAL_METHOD == 0,
              "torch_rng needs float and double arithmetic rounded to their own type (no x87)");
static_assert(sizeof(float) == 4 && sizeof(double) == 8, "torch_rng needs IEEE binary32/64");

// The draws' integer work (the twist, the tempering, the conversion to uniforms) is built twice
// and its first call picks the build for this CPU (core/cpu_features): with AVX2's eight lanes
// instead of the baseline's four the GPT-2 table's 38.6 million uniforms are drawn in less than
// half the time (47 ms against 18-21 ms on the development machine), with the same bits: the work
// is on integers, and a 24-bit integer times 2^-24 is exact. The draws are the part of a table
// that no second thread can share. Each kernel's body is inlined into a baseline function and an
// AVX2 one (`target("avx2")`), which GCC then vectorises each for its own target; GCC's
// target_clones did the same but made libgcc detect every feature at start-up.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EMBDEMO_BODY __attribute__((always_inline)) inline
// `name`, running name##_body built for `isa` where has_isa() says the CPU has it, else built
// for the baseline; the choice is made once, at the first call.
#define EMBDEMO_BUILD_TWICE(name, isa, has_isa, params, args)                                   \
    __attribute__((target(isa))) void name##_for_isa params { name##_body args; }           \
    void name##_baseline params { name##_body args; }                                         \
    void name params {                                                                        \
        static void(*const chosen) params = has_isa() ? name##_for_isa : name##_baseline;   \
        chosen args;                                                                          \
    }
#else
#define EMBDEMO_BODY inline
#define EMBDEMO_BUILD_TWICE(name, isa, has_isa, params, args) \
    void name params { name##_body args; }
#endif

namespace {

using namespace torch_rng_detail;

// The scalar path's double constants (§5.3, last line): 2*pi and 2^-53 as doubles, both exact.
constexpr double k_two_pi_double = 6.283185307179586;
constexpr double k_two_pow_minus_53 = 1.1102230246251565e-16;
constexpr std::uint64_t k_low_53_bits = (std::uint64_t{1} << 53) - 1;

// How many blocks the vectorised path draws and finishes at a time: 16 KiB, which stays in the
// L1 cache between drawing the uniforms and turning them into normals.
constexpr std::size_t k_chunk_blocks = 256;

// §3: a float uniform in [0, 1) from the low 24 bits of one draw. The conversion goes through
// int32 only so that loops over it vectorise: a 24-bit value converts to the same float either way.
float uniform_from_draw(std::uint32_t draw) {
    return static_cast<float>(static_cast<std::int32_t>(draw & 0xFFFFFFu)) *
           float_from_bits(k_two_pow_minus_24_bits);
}

// §3: a double uniform in [0, 1) from the low 53 bits of random64().
double uniform_double(TorchGenerator& generator) {
    const std::uint64_t r = generator.random64();
    return static_cast<double>(r & k_low_53_bits) * k_two_pow_minus_53;
}

// §5.2 L(v): avx_mathfun's log256_ps for one lane, with the FMAs GCC put into torch's binary.
// Cephes' idea: write v = m * 2^e with m near 1, then log v = log m + e*log 2, where log m comes
// from a polynomial in x = m - 1 and log 2 is split in two parts (Q2 + Q1) for extra precision.
float cephes_log(float v) {
    if (!(v > 0.0f)) {
        // The kernel returns a NaN with all bits set for v <= 0; torch never gets here (v >= 2^-24).
        return float_from_bits(k_nan_all_bits);
    }
    // Step 1: flush subnormals up to the smallest normal so the exponent field is meaningful.
    v = std::fmax(v, float_from_bits(k_min_normal_bits));

    // Step 2: split v into its exponent E and a mantissa m in [0.5, 1).
    const std::uint32_t bits = bits_of(v);
    const int exponent = static_cast<int>(bits >> 23) - 127;
    const float m = float_from_bits((bits & k_mantissa_mask) | k_half_bits);
    float e = static_cast<float>(exponent) + 1.0f;

    // Step 3: for m < sqrt(1/2) use 2m instead (x = m + (m - 1) below), keeping x in
    // [sqrt(1/2) - 1, sqrt(2) - 1) where the polynomial is accurate.
    float t = 0.0f;
    if (m < float_from_bits(k_sqrt_half_bits)) {
        t = m;
        e = e - 1.0f;
    }
    // Step 4: two separately rounded additions (both exact here).
    float x = m + float_from_bits(k_minus_one_bits);  // m + (-1)
    x = t + x;

    // Step 5: the degree-8 polynomial by Horner's rule, each step one fused multiply-add.
    float y = float_from_bits(k_log_p_bits[0]);
    for (int k = 1; k <= 8; ++k) {
        y = std::fmaf(y, x, float_from_bits(k_log_p_bits[k]));
    }

    // Step 6: y = x^3 * P(x) + e*Q1; e*Q1 is rounded on its own before the fused add.
    const float z = x * x;
    y = x * y;
    const float e_q1 = e * float_from_bits(k_log_q1_bits);
    y = std::fmaf(y, z, e_q1);

    // Step 7: subtract x^2/2 (one fused multiply-add with -z).
    y = std::fmaf(-z, float_from_bits(k_half_bits), y);

    // Step 8: add x and the large part of e*log 2.
    const float r = x + y;
    return std::fmaf(e, float_from_bits(k_log_q2_bits), r);
}

struct SinCos {
    float sin;
    float cos;
};

// §5.2 SC(theta): avx_mathfun's sincos256_ps for one lane, theta >= 0.
// Cephes' idea: reduce theta by a multiple j of pi/4 to x in [-pi/4, pi/4], evaluate a sine and a
// cosine polynomial there, then pick and sign them by the octant j.
SinCos cephes_sincos(float theta) {
    // Step 1: work on |theta|; the sine's sign starts as theta's sign.
    const std::uint32_t theta_sign = bits_of(theta) & k_sign_bit;
    const float a = std::fabs(theta);

    // Step 2: the octant, rounded up to an even number: j = (trunc(a * 4/pi) + 1) & ~1.
    const float scaled = a * float_from_bits(k_four_over_pi_bits);
    std::int32_t j = static_cast<std::int32_t>(scaled);  // truncation, like cvttps2dq
    j = (j + 1) & ~std::int32_t{1};
    const float q = static_cast<float>(j);

    // Step 3: x = a - q*pi/4 in three fused steps (the constants are stored negated).
    float x = std::fmaf(q, float_from_bits(k_minus_dp_bits[0]), a);
    x = std::fmaf(q, float_from_bits(k_minus_dp_bits[1]), x);
    x = std::fmaf(q, float_from_bits(k_minus_dp_bits[2]), x);

    // Step 4.
    const float z = x * x;

    // Step 5: cos x ~ 1 - z/2 + z^2 * C(z).
    float pc = std::fmaf(float_from_bits(k_cos_c_bits[0]), z, float_from_bits(k_cos_c_bits[1]));
    pc = std::fmaf(pc, z, float_from_bits(k_cos_c_bits[2]));
    pc = z * pc;
    const float half_z = z * float_from_bits(k_half_bits);
    pc = std::fmaf(pc, z, -half_z);
    pc = pc + 1.0f;

    // Step 6: sin x ~ x + x * z * S(z).
    float ps = std::fmaf(float_from_bits(k_sin_s_bits[0]), z, float_from_bits(k_sin_s_bits[1]));
    ps = std::fmaf(ps, z, float_from_bits(k_sin_s_bits[2]));
    ps = z * ps;
    ps = std::fmaf(ps, x, x);

    // Step 7: in octants with bit 1 of j set, sine and cosine swap. The kernel selects with bit
    // masks and then adds the zeroed other polynomial; adding +0 turns -0 into +0, so do the same.
    const bool swap = (j & 2) != 0;
    const float sin_poly = (swap ? pc : ps) + 0.0f;
    const float cos_poly = (swap ? ps : pc) + 0.0f;

    // Step 8: the signs, as bit flips.
    std::uint32_t sin_sign = theta_sign;
    if ((j & 4) != 0) {
        sin_sign ^= k_sign_bit;
    }
    const std::uint32_t cos_sign = (((j - 2) & 4) == 0) ? k_sign_bit : 0u;
    return SinCos{float_from_bits(bits_of(sin_poly) ^ sin_sign),
                  float_from_bits(bits_of(cos_poly) ^ cos_sign)};
}

// §5.1 step 2 / §5.2: one 16-element block. On entry block[0..16) hold float uniforms; lane j
// pairs block[j] with block[8 + j] and writes the cosine normal to block[j] and the sine normal
// to block[8 + j]. The pair members are 8 apart because the kernel works on two 8-float vectors.
void normal_block(float* block, float mean, float std_dev) {
    const float minus_two = float_from_bits(k_minus_two_bits);
    const float two_pi = float_from_bits(k_two_pi_bits);
    for (std::size_t lane = 0; lane < k_lanes; ++lane) {
        const float u1 = 1.0f - block[lane];  // in (0, 1], so the log is finite
        const float u2 = block[k_lanes + lane];
        const float radius = std::sqrt(minus_two * cephes_log(u1));
        const float theta = two_pi * u2;
        const SinCos sc = cephes_sincos(theta);
        block[lane] = std::fmaf(radius * sc.cos, std_dev, mean);
        block[k_lanes + lane] = std::fmaf(radius * sc.sin, std_dev, mean);
    }
}

// The reference kernel: normal_block on each of `block_count` consecutive blocks.
void normal_blocks_reference(float* blocks, std::size_t block_count, float mean, float std_dev) {
    for (std::size_t b = 0; b < block_count; ++b) {
        normal_block(blocks + b * k_block, mean, std_dev);
    }
}

using BlockKernel = void (*)(float* blocks, std::size_t block_count, float mean, float std_dev);

BlockKernel block_kernel(NormalKernel kernel) {
    return kernel == NormalKernel::avx2 ? normal_blocks_avx2 : normal_blocks_reference;
}

EMBDEMO_BODY void uniforms_from_draws_body(const std::uint32_t* draws, float* out, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) out[i] = uniform_from_draw(draws[i]);
}

EMBDEMO_BUILD_TWICE(uniforms_from_draws, "avx2", cpu_has_avx2,
                    (const std::uint32_t* draws, float* out, std::size_t count), (draws, out, count))

// §5.1 step 1 for `count` elements: one float uniform each, in memory order, drawn in bulk.
void fill_uniforms(TorchGenerator& generator, float* out, std::size_t count) {
    constexpr std::size_t k_batch = 1024;
    std::uint32_t draws[k_batch];
    for (std::size_t start = 0; start < count; start += k_batch) {
        const std::size_t batch = std::min(k_batch, count - start);
        generator.random_block(draws, batch);
        uniforms_from_draws(draws, out + start, batch);
    }
}

// §5.1 steps 1 and 2 on the full blocks [0, full_end) with more than one thread. The draws are
// sequential, but they are the cheap part (about a third of the time), and a block's arithmetic
// reads only its own 16 uniforms. So the generator runs a few pieces ahead, writing uniforms into
// `out` exactly where one thread would, and every thread turns drawn pieces into normals. Whoever
// finds the lead short draws the next piece, so a thread the scheduler sets aside (the machine may
// be busy) holds up no one for longer than one piece. Every element gets the uniform of its own
// draw and the same arithmetic, so the bits are one thread's, and `generator` ends where one
// thread would leave it.
void normal_pieces_threaded(TorchGenerator& generator, float* out, std::size_t full_end,
                            float mean, float std_dev, BlockKernel kernel, NormalFillSplit split) {
    const std::size_t piece = split.piece_blocks * k_block;
    const std::size_t pieces = (full_end + piece - 1) / piece;
    const auto piece_size = [&](std::size_t p) { return std::min(piece, full_end - p * piece); };
    constexpr std::size_t k_pieces_ahead = 4;  // 256 KiB of uniforms: still in the caches
    std::mutex drawing;                        // holds `generator` while a piece is drawn
    std::size_t next_draw = 0;                 // guarded by `drawing`
    std::atomic<std::size_t> drawn{0};         // pieces whose uniforms are in `out`
    std::atomic<std::size_t> claimed{0};       // pieces taken to finish; never more than drawn
    const auto draw_next_piece = [&] {  // with `drawing` held
        if (next_draw == pieces) return;
        fill_uniforms(generator, out + next_draw * piece, piece_size(next_draw));
        drawn.store(++next_draw, std::memory_order_release);
    };
    const auto work = [&] {
        while (true) {
            std::size_t taken = claimed.load();
            const std::size_t ready = drawn.load(std::memory_order_acquire);
            if (ready < pieces && ready - taken < k_pieces_ahead && drawing.try_lock()) {
                draw_next_piece();
                drawing.unlock();
            } else if (taken < ready) {
                if (claimed.compare_exchange_weak(taken, taken + 1)) {
                    kernel(out + taken * piece, piece_size(taken) / k_block, mean, std_dev);
                }
            } else if (taken == pieces) {
                return;
            } else {
                // Nothing drawn to finish and another thread is drawing: wait for it (asleep, not
                // spinning, in case the scheduler has set it aside), then draw the piece after.
                const std::lock_guard<std::mutex> lock(drawing);
                draw_next_piece();
            }
        }
    };
    const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(split.threads, pieces));
    std::vector<std::thread> helpers;
    try {
        for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work);
    } catch (const std::system_error&) {
        // No more threads to be had: fewer share the pieces, with the same bits.
    }
    work();
    for (std::thread& thread : helpers) thread.join();
}

// §5.1: the vectorised path, used for count >= 16.
void normal_fill_blocks(TorchGenerator& generator, float* out, std::size_t count, float mean,
                        float std_dev, BlockKernel kernel, NormalFillSplit split) {
    const std::size_t full_end = count - count % k_block;
    split.piece_blocks = std::max<std::size_t>(1, split.piece_blocks);
    if (split.threads > 1 && full_end > split.piece_blocks * k_block) {
        normal_pieces_threaded(generator, out, full_end, mean, std_dev, kernel, split);
    } else {
        // Steps 1 and 2 a chunk at a time. torch draws every uniform first and then finishes the
        // blocks, but a block reads only its own 16 uniforms and the draws keep their order, so
        // finishing each chunk as soon as it is drawn gives the same bits while it is in cache.
        for (std::size_t start = 0; start < full_end; start += k_chunk_blocks * k_block) {
            const std::size_t blocks = std::min(k_chunk_blocks, (full_end - start) / k_block);
            fill_uniforms(generator, out + start, blocks * k_block);
            kernel(out + start, blocks, mean, std_dev);
        }
    }
    if (count % k_block == 0) {
        return;
    }
    // Step 1 for the partial tail: these uniforms are drawn but step 3 overwrites them all.
    fill_uniforms(generator, out + full_end, count - full_end);
    // Step 3: a partial tail is not finished from its own uniforms: the last 16 elements are
    // redrawn (overwriting finished values of the last full block) and run as one more block.
    float* tail = out + (count - k_block);
    fill_uniforms(generator, tail, k_block);
    kernel(tail, 1, mean, std_dev);
}

// §6: one value of at::normal_distribution<double>, Box-Muller in double with glibc's libm.
// A pair costs four 32-bit draws; its sine half is kept in the generator for the next call.
float scalar_normal(TorchGenerator& generator, double mean, double std_dev) {
    if (generator.has_cached_normal()) {
        const double cached = generator.take_cached_normal();
        return static_cast<float>(std::fma(cached, std_dev, mean));
    }
    const double u1 = uniform_double(generator);
    const double u2 = uniform_double(generator);
    const double radius = std::sqrt(-2.0 * std::log(1.0 - u2));  // 1 - u2 is exact and > 0
    const double theta = k_two_pi_double * u1;
    generator.set_cached_normal(radius * std::sin(theta));
    const double value = radius * std::cos(theta);
    return static_cast<float>(std::fma(value, std_dev, mean));
}

}  // namespace

namespace {

// MT19937's constants (Matsumoto and Nishimura 1998; the values std::mt19937 is defined with).
constexpr std::uint32_t k_mt_matrix_a = 0x9908b0df;
constexpr std::uint32_t k_mt_upper_bit = 0x80000000;
constexpr std::uint32_t k_mt_lower_bits = 0x7fffffff;
constexpr std::size_t k_mt_shift = 397;
constexpr std::uint32_t k_mt_seed_multiplier = 1812433253;

std::uint32_t mt_temper(std::uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

// One twist step: the new word from the top bit of `word`, the low bits of `next` and the word
// `shift_word` 397 places further on.
std::uint32_t mt_mix(std::uint32_t word, std::uint32_t next, std::uint32_t shift_word) {
    const std::uint32_t y = (word & k_mt_upper_bit) | (next & k_mt_lower_bits);
    return shift_word ^ (y >> 1) ^ ((0u - (y & 1u)) & k_mt_matrix_a);
}

// The next 624 words of state in place. Three loops instead of one with "% 624" so that each is
// a plain vectorisable sweep: the first reads words 397 ahead that are still old, the second
// words 227 behind that are new.
EMBDEMO_BODY void twist_words_body(std::uint32_t* mt) {
    constexpr std::size_t n = 624;
    for (std::size_t i = 0; i < n - k_mt_shift; ++i) {
        mt[i] = mt_mix(mt[i], mt[i + 1], mt[i + k_mt_shift]);
    }
    for (std::size_t i = n - k_mt_shift; i < n - 1; ++i) {
        mt[i] = mt_mix(mt[i], mt[i + 1], mt[i + k_mt_shift - n]);
    }
    mt[n - 1] = mt_mix(mt[n - 1], mt[0], mt[k_mt_shift - 1]);
}

EMBDEMO_BODY void temper_words_body(const std::uint32_t* words, std::uint32_t* out, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) out[i] = mt_temper(words[i]);
}

EMBDEMO_BUILD_TWICE(twist_words, "avx2", cpu_has_avx2, (std::uint32_t* mt), (mt))
EMBDEMO_BUILD_TWICE(temper_words, "avx2", cpu_has_avx2,
                    (const std::uint32_t* words, std::uint32_t* out, std::size_t count), (words, out, count))

}  // namespace

TorchGenerator::TorchGenerator(std::uint64_t seed) {
    m_state[0] = static_cast<std::uint32_t>(seed & 0xffffffffu);
    for (std::size_t i = 1; i < k_state_words; ++i) {
        const std::uint32_t previous = m_state[i - 1];
        m_state[i] = k_mt_seed_multiplier * (previous ^ (previous >> 30)) +
                     static_cast<std::uint32_t>(i);
    }
}

void TorchGenerator::twist() {
    twist_words(m_state.data());
    m_next = 0;
}

std::uint32_t TorchGenerator::random() {
    if (m_next == k_state_words) twist();
    return mt_temper(m_state[m_next++]);
}

void TorchGenerator::random_block(std::uint32_t* out, std::size_t count) {
    while (count > 0) {
        if (m_next == k_state_words) twist();
        const std::size_t take = std::min(count, k_state_words - m_next);
        temper_words(m_state.data() + m_next, out, take);
        m_next += take;
        out += take;
        count -= take;
    }
}

std::uint64_t TorchGenerator::random64() {
    const std::uint64_t high = random();
    const std::uint64_t low = random();
    return (high << 32) | low;
}

double TorchGenerator::take_cached_normal() {
    m_has_cached_normal = false;
    return m_cached_normal;
}

void TorchGenerator::set_cached_normal(double value) {
    m_has_cached_normal = true;
    m_cached_normal = value;
}

bool normal_kernel_available(NormalKernel kernel) {
    return kernel == NormalKernel::reference || cpu_has_avx2_fma();
}

NormalKernel fastest_normal_kernel() {
    return cpu_has_avx2_fma() ? NormalKernel::avx2 : NormalKernel::reference;
}

void normal_fill(TorchGenerator& generator, float* out, std::size_t count, float mean,
                 float std, NormalFillSplit split) {
    normal_fill_using(fastest_normal_kernel(), generator, out, count, mean, std, split);
}

void normal_blocks(NormalKernel kernel, float* blocks, std::size_t block_count, float mean,
                   float std) {
    block_kernel(kernel)(blocks, block_count, mean, std);
}

void normal_fill_using(NormalKernel kernel, TorchGenerator& generator, float* out,
                       std::size_t count, float mean, float std, NormalFillSplit split) {
    if (count >= k_block) {
        normal_fill_blocks(generator, out, count, mean, std, block_kernel(kernel), split);
        return;
    }
    // torch passes mean and std to the scalar path as doubles; a float widens exactly.
    for (std::size_t i = 0; i < count; ++i) {
        out[i] = scalar_normal(generator, static_cast<double>(mean), static_cast<double>(std));
    }
}

namespace {

EMBDEMO_BODY void uniform_fill_kernel_body(TorchGenerator& generator, float* out, std::size_t count, float range,
                                           float from) {
    for (std::size_t i = 0; i < count; ++i) {
        // One draw per element; x * range + from in a single rounding, as torch's binary does.
        out[i] = std::fmaf(uniform_from_draw(generator.random()), range, from);
    }
}

EMBDEMO_BUILD_TWICE(uniform_fill_kernel, "fma", cpu_has_fma,
                    (TorchGenerator& generator, float* out, std::size_t count, float range, float from),
                    (generator, out, count, range, from))

}  // namespace

// Built twice, and the first call picks the build for this CPU: where it has FMA, std::fmaf is
// one instruction instead of a call into libm per element; elsewhere libm's correctly rounded
// fmaf gives the same bits. -ffp-contract=off still keeps the compiler from fusing anything else.
void uniform_fill(TorchGenerator& generator, float* out, std::size_t count, double from,
                  double to) {
    // §4: the bounds are rounded to float first and the range is a float subtraction.
    const float from_f = static_cast<float>(from);
    const float to_f = static_cast<float>(to);
    const float range = to_f - from_f;
    uniform_fill_kernel(generator, out, count, range, from_f);
}

double kaiming_uniform_bound(std::size_t fan_in) {
    if (fan_in == 0) {
        // torch skips zero-element tensors entirely; there is no bound to report.
        return 0.0;
    }
    // torch/nn/init.py, each double operation rounded as written there:
    // gain = calculate_gain('leaky_relu', sqrt(5)) = sqrt(2 / (1 + a**2)), std = gain/sqrt(fan_in),
    // bound = sqrt(3) * std. (a**2 is 5.000000000000001 because sqrt(5) is rounded.)
    const double a = std::sqrt(5.0);
    const double gain = std::sqrt(2.0 / (1.0 + a * a));
    const double std_dev = gain / std::sqrt(static_cast<double>(fan_in));
    return std::sqrt(3.0) * std_dev;
}

}  // namespace embdemo
