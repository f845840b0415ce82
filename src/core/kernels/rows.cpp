#include "core/kernels/rows.hpp"

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

std::vector<float> zeroed_floats(std::size_t count) {
    std::vector<float> values;
    const std::size_t bytes = count * sizeof(float);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= k_huge_page_min_bytes) {
        // Reserve first, advise, then zero: the zeroing is the first touch, so the pages it
        // faults in are huge ones. Faulting in 4 KiB pages was most of a GPT-2-sized run (one
        // fault per 4 KiB, each expensive on a virtual machine); the 2 MiB-aligned part of the
        // buffer is advised, and the advice may be refused without harm.
        values.reserve(count);
        constexpr std::uintptr_t k_huge = std::uintptr_t{2} << 20;
        const auto begin = reinterpret_cast<std::uintptr_t>(values.data());
        const std::uintptr_t first = (begin + k_huge - 1) & ~(k_huge - 1);
        const std::uintptr_t last = (begin + bytes) & ~(k_huge - 1);
        if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
#endif
    values.resize(count, 0.0f);
    return values;
}

}  // namespace embdemo
