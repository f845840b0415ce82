#include "core/kernels/rows.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <system_error>
#include <thread>

#include "core/cpu_features.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define EMBDEMO_ROWS_AVX 1
#endif

namespace embdemo {

void gather_rows(const float* table, std::size_t cols, const std::uint64_t* ids, std::size_t count, float* out) {
    const std::size_t row_bytes = cols * sizeof(float);
    for (std::size_t i = 0; i < count; ++i) {
        if (i + k_prefetch_rows_ahead < count) prefetch_row(table + ids[i + k_prefetch_rows_ahead] * cols, cols);
        std::memcpy(out + i * cols, table + ids[i] * cols, row_bytes);
    }
}

namespace {

void transpose_scalar(const float* src, std::size_t src_stride, std::size_t rows, std::size_t cols, float* dst,
                      std::size_t dst_stride) {
    for (std::size_t c = 0; c < cols; ++c) {
        for (std::size_t r = 0; r < rows; ++r) dst[c * dst_stride + r] = src[r * src_stride + c];
    }
}

#if defined(EMBDEMO_ROWS_AVX)
// Rows r and r+1 interleaved, then pairs of those, then the 128-bit halves swapped: the usual
// three rounds of shuffles, which move bits and compute nothing.
__attribute__((target("avx"))) void transpose_8x8(const float* src, std::size_t src_stride, float* dst,
                                                  std::size_t dst_stride) {
    __m256 row[8], pair[8], quad[8];
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) row[r] = _mm256_loadu_ps(src + r * src_stride);
#pragma GCC unroll 4
    for (int r = 0; r < 8; r += 2) {
        pair[r] = _mm256_unpacklo_ps(row[r], row[r + 1]);
        pair[r + 1] = _mm256_unpackhi_ps(row[r], row[r + 1]);
    }
#pragma GCC unroll 2
    for (int r = 0; r < 8; r += 4) {
        quad[r] = _mm256_shuffle_ps(pair[r], pair[r + 2], _MM_SHUFFLE(1, 0, 1, 0));
        quad[r + 1] = _mm256_shuffle_ps(pair[r], pair[r + 2], _MM_SHUFFLE(3, 2, 3, 2));
        quad[r + 2] = _mm256_shuffle_ps(pair[r + 1], pair[r + 3], _MM_SHUFFLE(1, 0, 1, 0));
        quad[r + 3] = _mm256_shuffle_ps(pair[r + 1], pair[r + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
        _mm256_storeu_ps(dst + c * dst_stride, _mm256_permute2f128_ps(quad[c], quad[c + 4], 0x20));
        _mm256_storeu_ps(dst + (c + 4) * dst_stride, _mm256_permute2f128_ps(quad[c], quad[c + 4], 0x31));
    }
}

// Bands of 8 source rows, 8 columns at a time: each band reads 8 rows front to back while the
// destination's rows each grow by 32 bytes. The edges (rows or cols not a multiple of 8) go
// through the scalar copy.
__attribute__((target("avx"))) void transpose_avx(const float* src, std::size_t src_stride, std::size_t rows,
                                                  std::size_t cols, float* dst, std::size_t dst_stride) {
    const std::size_t full_rows = rows / 8 * 8, full_cols = cols / 8 * 8;
    for (std::size_t r = 0; r < full_rows; r += 8) {
        for (std::size_t c = 0; c < full_cols; c += 8) {
            transpose_8x8(src + r * src_stride + c, src_stride, dst + c * dst_stride + r, dst_stride);
        }
    }
    transpose_scalar(src + full_cols, src_stride, full_rows, cols - full_cols, dst + full_cols * dst_stride,
                     dst_stride);
    transpose_scalar(src + full_rows * src_stride, src_stride, rows - full_rows, cols, dst + full_rows, dst_stride);
}
#endif

}  // namespace

void transpose_floats(const float* src, std::size_t src_stride, std::size_t rows, std::size_t cols, float* dst,
                      std::size_t dst_stride) {
#if defined(EMBDEMO_ROWS_AVX)
    if (cpu_has_avx()) {
        transpose_avx(src, src_stride, rows, cols, dst, dst_stride);
        return;
    }
#endif
    transpose_scalar(src, src_stride, rows, cols, dst, dst_stride);
}

}  // namespace embdemo
