#include "core/buffers.hpp"

#include <chrono>
#include <cstdint>
#include <iterator>

#include "core/threads.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace embdemo {

#if defined(__linux__) && defined(MADV_HUGEPAGE)
namespace {

constexpr int k_madv_populate_write = 23;  // Linux 5.14; older headers lack the name

// Faults in [first, last) in 4 KiB pages, one call per thread: for GPT-2's table 55-65 ms on one
// thread and 35-40 ms on two, where the zeroing's 37,000 separate faults took 85-110 ms (each a
// trap into the kernel; docs/performance.md, "The whole GPT-2 run"). The pages are the memory's
// own, so the thread count changes no value.
void populate_4k_pages(std::uintptr_t first, std::uintptr_t last) {
    constexpr std::uintptr_t k_page = 4096;
    const unsigned threads = populate_threads(last - first);
    const std::uintptr_t pages = (last - first) / k_page;
    run_parts(threads, [&](unsigned part) {
        const std::uintptr_t begin = first + pages * part / threads * k_page;
        const std::uintptr_t end = part + 1 == threads ? last : first + pages * (part + 1) / threads * k_page;
        if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, k_madv_populate_write);
    });
}

// Asks for 2 MiB pages on [first, last) and faults them in one at a time while they come cheap.
// With THP's defrag in "madvise" mode (Debian's default), a fault in an advised region compacts
// memory synchronously when no free 2 MiB page is at hand, which is the usual state right after
// another program has used and freed memory: one table then took up to 1.4 s instead of 0.2 s
// (docs/performance.md, "Huge pages after another program"). So the first page that takes longer
// than a free one can (2 ms, against about 0.2 ms) ends the advice; the rest gets 4 KiB pages,
// which never wait for compaction. On the development machine (a virtual machine with a balloon
// driver that hands free 2 MiB blocks back to the host) the slow pages are mostly the host
// backing a block again: about 6 ms each a few seconds after the memory was freed, where 4 KiB
// pages cost 0.9 ms per 2 MiB. Where the kernel cannot populate (before 5.14), the advice
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
                populate_4k_pages(page + k_huge, last);
            }
            return;
        }
    }
}

}  // namespace
#endif

unsigned populate_threads(std::size_t bytes) {
    constexpr std::uint64_t k_product_terms_per_faulted_float = 32;  // 1.5 ns against 0.04 ns
    return bytes < k_huge_page_min_bytes ? 1 : product_threads(k_product_terms_per_faulted_float, bytes / sizeof(float), 1);
}

namespace {

// `count` zeros as a range: assigned from it, std::vector copies a constant 0.0f, which GCC turns
// into memset (string stores that skip reading each line before writing it); resize(count, 0.0f)
// copies a float it does not know to be zero, line by line. The GPT-2 run: 4-5 ms less (medians
// of 20 runs in turns, 0.192 s against 0.187-0.188 s).
struct ZeroFloats {
    using iterator_category = std::forward_iterator_tag;
    using value_type = float;
    using difference_type = std::ptrdiff_t;
    using pointer = const float*;
    using reference = float;
    std::size_t position;
    float operator*() const { return 0.0f; }
    ZeroFloats& operator++() {
        ++position;
        return *this;
    }
    ZeroFloats operator++(int) {
        ZeroFloats before = *this;
        ++position;
        return before;
    }
    friend bool operator==(ZeroFloats a, ZeroFloats b) { return a.position == b.position; }
    friend bool operator!=(ZeroFloats a, ZeroFloats b) { return a.position != b.position; }
};

}  // namespace

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
    values.assign(ZeroFloats{0}, ZeroFloats{count});
    return values;
}

}  // namespace embdemo
