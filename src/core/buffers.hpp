// The tables' memory: zeroed float buffers, from 8 MiB on backed by 2 MiB pages where Linux has
// them cheaply. A room of its own beside the plain Matrix, which it serves: at GPT-2 size,
// faulting in 4 KiB pages was most of a run (docs/performance.md).
#pragma once

#include <cstddef>
#include <vector>

namespace embdemo {

// `count` zero floats. From k_huge_page_min_bytes on, the kernel is asked to back them with
// 2 MiB pages while it has them at hand (Linux transparent huge pages in "madvise" mode; the
// first page that makes it compact memory ends the advice; elsewhere a no-op).
std::vector<float> zeroed_floats(std::size_t count);
inline constexpr std::size_t k_huge_page_min_bytes = std::size_t{8} << 20;

// The threads that may fault in a buffer of `bytes` (when 2 MiB pages stop coming cheap): each
// beyond the first maps a stack and a malloc arena, which an address-space limit counts.
unsigned populate_threads(std::size_t bytes);

}  // namespace embdemo
