// The two memory-bound kernels behind the lookup, shared by the lessons and `embdemo bench`, so
// that the bench times the lookup exactly as embdemo computes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace embdemo {

// out row i = table row ids[i] (cols floats each), for i < count: the whole lookup, a row gather.
// Ids are valid (checked by the caller).
void gather_rows(const float* table, std::size_t cols, const std::uint64_t* ids, std::size_t count, float* out);

// `count` zero floats. From k_huge_page_min_bytes on, the kernel is asked to back them with
// 2 MiB pages where it can (Linux transparent huge pages in "madvise" mode; elsewhere a no-op).
std::vector<float> zeroed_floats(std::size_t count);
inline constexpr std::size_t k_huge_page_min_bytes = std::size_t{8} << 20;

}  // namespace embdemo
