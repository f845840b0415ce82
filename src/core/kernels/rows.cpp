#include "core/kernels/rows.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace embdemo {

void gather_rows(const float* table, std::size_t cols, const std::uint64_t* ids, std::size_t count, float* out) {
    const std::size_t row_bytes = cols * sizeof(float);
    for (std::size_t i = 0; i < count; ++i) {
        if (i + k_prefetch_rows_ahead < count) prefetch_row(table + ids[i + k_prefetch_rows_ahead] * cols, cols);
        std::memcpy(out + i * cols, table + ids[i] * cols, row_bytes);
    }
}

#if defined(__linux__) && defined(MADV_HUGEPAGE)
namespace {

constexpr int k_madv_populate_write = 23;  // Linux 5.14; older headers lack the name

// Asks for 2 MiB pages on [first, last) and faults them in one at a time while they come cheap.
// With THP's defrag in "madvise" mode (Debian's default), a fault in an advised region compacts
// memory synchronously when no free 2 MiB page is at hand, which is the usual state right after
// another program has used and freed memory: one table then took up to 1.4 s instead of 0.2 s
// (docs/performance.md, "Huge pages after another program"). So the first page that takes longer
// than a free one can (2 ms, against about 0.1 ms) ends the advice; the rest gets 4 KiB pages,
// which never wait for compaction. Where the kernel cannot populate (before 5.14), the advice
// stays and the zeroing faults the pages in as before.
void advise_huge_pages_while_cheap(std::uintptr_t first, std::uintptr_t last) {
    constexpr std::uintptr_t k_huge = std::uintptr_t{2} << 20;
    constexpr auto k_slow_fault = std::chrono::milliseconds(2);
    ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    for (std::uintptr_t page = first; page < last; page += k_huge) {
        const auto start = std::chrono::steady_clock::now();
        if (::madvise(reinterpret_cast<void*>(page), k_huge, k_madv_populate_write) != 0) return;
        if (std::chrono::steady_clock::now() - start > k_slow_fault) {
            if (page + k_huge < last) {
                ::madvise(reinterpret_cast<void*>(page + k_huge), last - page - k_huge, MADV_NOHUGEPAGE);
            }
            return;
        }
    }
}

}  // namespace
#endif

std::vector<float> zeroed_floats(std::size_t count) {
    std::vector<float> values;
    const std::size_t bytes = count * sizeof(float);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= k_huge_page_min_bytes) {
        // Reserve first, advise, then zero: pages faulted in under the advice are huge ones.
        // Faulting in 4 KiB pages was most of a GPT-2-sized run (one fault per 4 KiB, each
        // expensive on a virtual machine); only the 2 MiB-aligned part of the buffer is advised,
        // and the advice may be refused without harm.
        values.reserve(count);
        constexpr std::uintptr_t k_huge = std::uintptr_t{2} << 20;
        const auto begin = reinterpret_cast<std::uintptr_t>(values.data());
        const std::uintptr_t first = (begin + k_huge - 1) & ~(k_huge - 1);
        const std::uintptr_t last = (begin + bytes) & ~(k_huge - 1);
        if (last > first) advise_huge_pages_while_cheap(first, last);
    }
#endif
    values.resize(count, 0.0f);
    return values;
}

}  // namespace embdemo
