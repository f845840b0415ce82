// one_hot(ids, V) @ E blocked like a GEMM (the loop nest of BLIS / Goto's algorithm), with the
// two rules that keep it bit for bit the in-order reference:
//
//   1. k stays in order for every output. A tile of rows x columns of `out` is held in registers
//      while k runs through a block of E's rows; between blocks the running sums are stored to
//      `out` and loaded back, which rounds nothing (a float stored is the float loaded). A BLAS
//      instead sums each block from zero and adds the block's total to C, another order.
//   2. Each term is one rounded multiply, then one rounded add (no FMA), the term as the first
//      operand of the add. x86 returns the first operand's payload when both operands of an add
//      are NaN, and the reference, as GCC compiles it (`c += a * b`), adds the sum to the term.
//      The add is written in assembly so that no compiler can swap its operands.
//
//   for j0 in 0..d step k_col_block:            columns of out and E (the packed E stays small)
//     for k0 in 0..V step k_depth_block:        a block of E's rows, packed into column strips
//       for i0 in 0..n step k_row_block:        a block of ids, their one-hot rows packed
//         for each strip of tile.cols columns:  (the strip stays in L1 across the row panels)
//           for each panel of tile.rows rows:
//             tile: out[rows][cols] += X[rows][k] * E[k][cols] for k in k0..k0+kc, in order
//
// Packing pays when many panels of rows reuse a packed block. For at most k_stream_rows ids (one
// or two panels: the GPT-2 demo has 3) every value of E is used once or twice, and copying all
// of E to use it once cost more than the arithmetic (the product of 3 ids took 34 ms, now 17):
// the tiles then read a row-major E where it lies, 16 rows of k at a time, and only a right edge
// narrower than a strip is packed, so that no tile reads past a row. (nn.Linear's W = E.T is read
// here as E: onehot_products.hpp.)
//
// Vectors run across columns j only, so no vector lane ever holds two terms of one sum.
// The file is compiled with -ffp-contract=off (embdemo_reproducible_fp) like the reference.
#include "core/kernels/onehot_dense.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/kernels/rows.hpp"
#include "core/cpu_features.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define EMBDEMO_DENSE_X86 1
#define EMBDEMO_AVX __attribute__((target("avx")))
#endif

namespace embdemo {
namespace {

// Block sizes for the development machine (docs/performance.md): a packed strip of E
// (k_depth_block x 16 floats, 16 KiB) stays in L1 while the panels of k_row_block one-hot rows
// (144 KiB) stream from L2; the packed E (k_depth_block x k_col_block floats) fits in L2 or L3.
constexpr std::size_t k_depth_block = 256;
constexpr std::size_t k_row_block = 144;
constexpr std::size_t k_col_block = 1536;
// E read in place, 16 rows at a time (48 KiB at GPT-2's width): a tile's strip then walks 16
// rows that the hardware prefetcher follows, where 256 rows in flight left it behind (3 ids:
// 16.5-17 ms against 34 ms; 8, 32 and 64 rows measured 21-28, 25-28 and 34 ms on the
// development machine; software prefetches of the next rows gained nothing).
constexpr std::size_t k_stream_depth_block = 16;

// One tile: c[rows][cols] (row stride ldc) += a's kc one-hot columns times b's kc rows, in order
// of k. a is packed k-major (a[k * rows + i]); b's row k starts at b + k * ldb (packed: ldb = cols;
// a row-major E read in place: ldb = d).
using TileFunction = void (*)(const float* a, const float* b, std::size_t ldb, std::size_t kc, float* c,
                              std::size_t ldc);
struct Tile {
    std::size_t rows, cols;
    TileFunction run;
};

#if defined(EMBDEMO_DENSE_X86)
// term + sum, the term first (see rule 2 above): vaddps src2, src1, dst computes src1 + src2.
EMBDEMO_AVX inline __m256 add_term(__m256 term, __m256 sum) {
    __m256 result;
    __asm__("vaddps %2, %1, %0" : "=x"(result) : "x"(term), "x"(sum));
    return result;
}

// addps src, dst computes dst + src: the term is the destination, the first operand.
inline __m128 add_term(__m128 term, __m128 sum) {
    __asm__("addps %1, %0" : "+x"(term) : "x"(sum));
    return term;
}

inline float add_term(float term, float sum) {
    __asm__("addss %1, %0" : "+x"(term) : "x"(sum));
    return term;
}

// 6 rows x 16 columns: 12 ymm sums, 2 ymm of E, the broadcast X value and the product, 16 of
// AVX's 16 registers. Per k, 12 multiplies and 12 adds; each sum waits 6 multiply-add pairs for
// its next add, longer than an add's latency, so the adds never stall on one another.
EMBDEMO_AVX void tile_avx(const float* a, const float* b, std::size_t ldb, std::size_t kc, float* c,
                          std::size_t ldc) {
    constexpr int rows = 6;
    __m256 left[rows], right[rows];
#pragma GCC unroll 6
    for (int i = 0; i < rows; ++i) {
        left[i] = _mm256_loadu_ps(c + i * ldc);
        right[i] = _mm256_loadu_ps(c + i * ldc + 8);
    }
    for (std::size_t k = 0; k < kc; ++k, a += rows, b += ldb) {
        const __m256 e_left = _mm256_loadu_ps(b);
        const __m256 e_right = _mm256_loadu_ps(b + 8);
#pragma GCC unroll 6
        for (int i = 0; i < rows; ++i) {
            const __m256 x = _mm256_broadcast_ss(a + i);  // X[i][k]: 0 or 1, multiplied all the same
            left[i] = add_term(_mm256_mul_ps(x, e_left), left[i]);
            right[i] = add_term(_mm256_mul_ps(x, e_right), right[i]);
        }
    }
#pragma GCC unroll 6
    for (int i = 0; i < rows; ++i) {
        _mm256_storeu_ps(c + i * ldc, left[i]);
        _mm256_storeu_ps(c + i * ldc + 8, right[i]);
    }
}

// The same with SSE2, which every x86-64 CPU has: 6 rows x 8 columns. Line for line tile_avx:
// one template for both would need a target per instantiation, which GCC does not give (spelled
// with GCC's vector types instead, the AVX tile went through the stack and warned of the ABI).
void tile_sse2(const float* a, const float* b, std::size_t ldb, std::size_t kc, float* c, std::size_t ldc) {
    constexpr int rows = 6;
    __m128 left[rows], right[rows];
#pragma GCC unroll 6
    for (int i = 0; i < rows; ++i) {
        left[i] = _mm_loadu_ps(c + i * ldc);
        right[i] = _mm_loadu_ps(c + i * ldc + 4);
    }
    for (std::size_t k = 0; k < kc; ++k, a += rows, b += ldb) {
        const __m128 e_left = _mm_loadu_ps(b);
        const __m128 e_right = _mm_loadu_ps(b + 4);
#pragma GCC unroll 6
        for (int i = 0; i < rows; ++i) {
            const __m128 x = _mm_set1_ps(a[i]);
            left[i] = add_term(_mm_mul_ps(x, e_left), left[i]);
            right[i] = add_term(_mm_mul_ps(x, e_right), right[i]);
        }
    }
#pragma GCC unroll 6
    for (int i = 0; i < rows; ++i) {
        _mm_storeu_ps(c + i * ldc, left[i]);
        _mm_storeu_ps(c + i * ldc + 4, right[i]);
    }
}
#else
inline float add_term(float term, float sum) { return term + sum; }
#endif

// One output at a time, for CPUs without a vector tile and for tests: 1 row x 1 column.
void tile_scalar(const float* a, const float* b, std::size_t ldb, std::size_t kc, float* c, std::size_t) {
    float sum = *c;
    for (std::size_t k = 0; k < kc; ++k) sum = add_term(a[k] * b[k * ldb], sum);
    *c = sum;
}

std::size_t round_up(std::size_t value, std::size_t step) { return (value + step - 1) / step * step; }

// The one-hot rows of ids[0, mc) restricted to columns k0 .. k0+kc-1, as panels of tile.rows
// rows (rows past mc are zero): panel p holds X[p*rows + i][k0 + k] at a[p*rows*kc + k*rows + i].
void pack_onehot(const std::uint64_t* ids, std::size_t mc, std::size_t k0, std::size_t kc, std::size_t rows,
                 float* a) {
    std::fill(a, a + round_up(mc, rows) * kc, 0.0f);
    for (std::size_t i = 0; i < mc; ++i) {
        if (ids[i] < k0 || ids[i] - k0 >= kc) continue;  // this row's 1 lies in another block
        a[(i / rows) * rows * kc + (ids[i] - k0) * rows + i % rows] = 1.0f;
    }
}

// E[k0 .. k0+kc-1][j0 .. j0+nc-1] of a row-major E with d columns, as strips of `cols` columns
// (zero past nc): strip s holds E[k0 + k][j0 + s*cols + j] at b[s*cols*kc + k*cols + j].
void pack_table(const float* E, std::size_t d, std::size_t k0, std::size_t kc, std::size_t j0, std::size_t nc,
                std::size_t cols, float* b) {
    for (std::size_t s = 0; s < nc; s += cols, b += cols * kc) {
        const std::size_t width = std::min(cols, nc - s);
        const float* first = E + k0 * d + j0 + s;
        for (std::size_t k = 0; k < kc; ++k) std::memcpy(b + k * cols, first + k * d, width * sizeof(float));
        if (width == cols) continue;
        for (std::size_t k = 0; k < kc; ++k) std::fill(b + k * cols + width, b + (k + 1) * cols, 0.0f);
    }
}

// A tile at the bottom or right edge runs on a copy of its part of `out`, padded with zeros:
// each output's arithmetic is the same wherever it sits in the tile.
void run_tile(const Tile& tile, const float* a, const float* b, std::size_t ldb, std::size_t kc, float* c,
              std::size_t ldc, std::size_t rows, std::size_t cols) {
    if (rows == tile.rows && cols == tile.cols) {
        tile.run(a, b, ldb, kc, c, ldc);
        return;
    }
    float edge[6 * 16] = {};
    for (std::size_t i = 0; i < rows; ++i) std::memcpy(edge + i * tile.cols, c + i * ldc, cols * sizeof(float));
    tile.run(a, b, ldb, kc, edge, tile.cols);
    for (std::size_t i = 0; i < rows; ++i) std::memcpy(c + i * ldc, edge + i * tile.cols, cols * sizeof(float));
}

// Rows [0, n) of the product on this thread, with its own packed panels.
void product_rows(const Tile& tile, const std::uint64_t* ids, std::size_t n, const float* E, std::size_t V,
                  std::size_t d, float* out) {
    std::fill(out, out + n * d, 0.0f);  // +0.0: where every sum starts
    if (n == 0 || d == 0) return;
    // Few ids (one panel block): each strip is read in place, only a right edge narrower than a
    // tile is packed (the file's top comment).
    const bool few = n <= k_stream_rows;
    std::vector<float> a(round_up(std::min(n, k_row_block), tile.rows) * k_depth_block);
    std::vector<float> b(round_up(std::min(d, few ? tile.cols : k_col_block), tile.cols) * k_depth_block);
    for (std::size_t j0 = 0; j0 < d; j0 += k_col_block) {
        const std::size_t nc = std::min(k_col_block, d - j0);
        const std::size_t depth = few ? k_stream_depth_block : k_depth_block;
        for (std::size_t k0 = 0; k0 < V; k0 += depth) {
            const std::size_t kc = std::min(depth, V - k0);
            if (!few) pack_table(E, d, k0, kc, j0, nc, tile.cols, b.data());
            for (std::size_t i0 = 0; i0 < n; i0 += k_row_block) {
                const std::size_t mc = std::min(k_row_block, n - i0);
                pack_onehot(ids + i0, mc, k0, kc, tile.rows, a.data());
                for (std::size_t s = 0; s < nc; s += tile.cols) {
                    const std::size_t width = std::min(tile.cols, nc - s);
                    const float* strip = b.data() + s * kc;
                    std::size_t ldb = tile.cols;
                    if (few && width == tile.cols) {
                        strip = E + k0 * d + j0 + s;
                        ldb = d;
                    } else if (few) {
                        pack_table(E, d, k0, kc, j0 + s, width, tile.cols, b.data());
                        strip = b.data();
                    }
                    for (std::size_t r = 0; r < mc; r += tile.rows) {
                        run_tile(tile, a.data() + r * kc, strip, ldb, kc, out + (i0 + r) * d + j0 + s, d,
                                 std::min(tile.rows, mc - r), width);
                    }
                }
            }
        }
    }
}

// The AVX tile is built only where EMBDEMO_DENSE_X86 is defined.
bool avx_tile_runs() {
#if defined(EMBDEMO_DENSE_X86)
    return cpu_has_avx();
#else
    return false;
#endif
}

DenseIsa resolve(DenseIsa isa) {
    if (isa != DenseIsa::best) return isa;
#if defined(EMBDEMO_DENSE_X86)
    return avx_tile_runs() ? DenseIsa::avx : DenseIsa::sse2;
#else
    return DenseIsa::scalar;
#endif
}

Tile tile_for(DenseIsa isa) {
    switch (resolve(isa)) {
#if defined(EMBDEMO_DENSE_X86)
    case DenseIsa::avx: return {6, 16, tile_avx};
    case DenseIsa::sse2: return {6, 8, tile_sse2};
#endif
    default: return {1, 1, tile_scalar};
    }
}

}  // namespace

bool dense_isa_available(DenseIsa isa) {
    switch (isa) {
    case DenseIsa::avx: return avx_tile_runs();
#if defined(EMBDEMO_DENSE_X86)
    case DenseIsa::sse2: return true;
#else
    case DenseIsa::sse2: return false;
#endif
    default: return true;
    }
}

const char* dense_isa_name(DenseIsa isa) {
    switch (resolve(isa)) {
    case DenseIsa::avx: return "avx";
    case DenseIsa::sse2: return "sse2";
    default: return "scalar";
    }
}

std::size_t onehot_dense_panel_floats(std::size_t n, std::size_t d) {
    constexpr std::size_t k_widest_rows = 6, k_widest_cols = 16;  // the AVX tile's, the largest
    const std::size_t packed_cols =
        n <= k_stream_rows ? k_widest_cols : round_up(std::min(d, k_col_block), k_widest_cols);
    return (round_up(std::min(n, k_row_block), k_widest_rows) + packed_cols) * k_depth_block;
}

unsigned onehot_dense_threads(std::size_t n, std::size_t V, std::size_t d, unsigned threads) {
    const double terms = static_cast<double>(n) * static_cast<double>(V) * static_cast<double>(d);
    const double worth = std::max(1.0, terms / k_dense_terms_per_thread);
    const double most = std::min<double>({static_cast<double>(std::max(threads, 1u)), static_cast<double>(n), worth});
    return static_cast<unsigned>(std::max(1.0, most));
}

namespace {

unsigned product_on_threads(DenseIsa isa, const std::uint64_t* ids, std::size_t n, const float* E, std::size_t V,
                            std::size_t d, float* out, unsigned threads) {
    const Tile tile = tile_for(isa);
    const auto parts = static_cast<unsigned>(std::clamp<std::size_t>(n, 1, std::max(threads, 1u)));
    const auto run_part = [&](unsigned part) {
        const std::size_t begin = n * part / parts, end = n * (part + 1) / parts;
        product_rows(tile, ids + begin, end - begin, E, V, d, out + begin * d);
    };
    run_parts(parts, run_part);  // on fewer threads, the rows, and so the bits, are the same
    return parts;
}

}  // namespace

unsigned onehot_dense_product_with(DenseIsa isa, const std::uint64_t* ids, std::size_t n, const float* E,
                                   std::size_t V, std::size_t d, float* out, unsigned threads) {
    return product_on_threads(isa, ids, n, E, V, d, out, threads);
}

unsigned onehot_dense_product(const std::uint64_t* ids, std::size_t n, const float* E, std::size_t V,
                              std::size_t d, float* out, unsigned threads) {
    return onehot_dense_product_with(DenseIsa::best, ids, n, E, V, d, out, onehot_dense_threads(n, V, d, threads));
}

}  // namespace embdemo
