// The memory-bound kernels: the lookup's row gather, shared by the lessons and `embdemo bench`
// so that the bench times the lookup exactly as embdemo computes it; the transpose of a block of
// floats, behind nn.Linear's W = E.T and the dense kernel's packing of W.T. The tables' memory
// and the threads a kernel may use have rooms of their own (core/buffers, core/threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/buffers.hpp"
#include "core/threads.hpp"

namespace embdemo {

// out row i = table row ids[i] (cols floats each), for i < count: the whole lookup, a row gather.
// Ids are valid (checked by the caller).
void gather_rows(const float* table, std::size_t cols, const std::uint64_t* ids, std::size_t count, float* out);

// A random row of a large table misses the caches and the TLB: asking for the row a few ids
// ahead overlaps those misses with the copies in between (about 25% faster for 8,192 GPT-2 rows
// on the development machine, and no slower when the rows are already cached). Every 256th
// byte is asked for; the hardware prefetcher fetches the lines between.
inline constexpr std::size_t k_prefetch_rows_ahead = 8;
inline void prefetch_row(const float* row, std::size_t cols) {
    const char* bytes = reinterpret_cast<const char*>(row);
    for (std::size_t b = 0; b < cols * sizeof(float); b += 256) __builtin_prefetch(bytes + b);
}

// dst[c * dst_stride + r] = src[r * src_stride + c] for r < rows, c < cols: a copy, every bit
// kept (NaN payloads too). 8 x 8 blocks are swapped in AVX registers where the CPU has AVX, so
// each source row is read and each destination row written 32 bytes at a time.
void transpose_floats(const float* src, std::size_t src_stride, std::size_t rows, std::size_t cols, float* dst,
                      std::size_t dst_stride);

}  // namespace embdemo
