// The memory-bound kernels: the lookup's row gather, shared by the lessons and `embdemo bench`
// so that the bench times the lookup exactly as embdemo computes it; the transpose of a block of
// floats, behind nn.Linear's W = E.T and the dense kernel's packing of W.T; the tables' memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

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

// part(0) .. part(parts - 1), each on a thread of its own (part 0 on this one) while threads can be
// started, the rest on this thread; returns when all are done. For work whose result does not
// depend on which thread does which part.
void run_parts(unsigned parts, const std::function<void(unsigned)>& part);

// `count` zero floats. From k_huge_page_min_bytes on, the kernel is asked to back them with
// 2 MiB pages while it has them at hand (Linux transparent huge pages in "madvise" mode; the
// first page that makes it compact memory ends the advice; elsewhere a no-op).
std::vector<float> zeroed_floats(std::size_t count);
inline constexpr std::size_t k_huge_page_min_bytes = std::size_t{8} << 20;

}  // namespace embdemo
