// Times one GPT-2-sized table made with one of the huge-page choices issue 29 (goal 1) asks to
// compare, in a fresh process, for tools/measure_hugepage_choices.py (which compiles this file
// against build/'s core library). Each choice allocates the table as zeroed_floats does (a
// std::vector reserved, then zeroed), differs only in the advice given to the kernel, and then
// draws the table's normals into it on one thread, so the page size's effect on the draws counts.
// Not part of embdemo: a measuring tool only.
//
//   hugepage_choices CHOICE VOCAB DIM SEED   ->   "<seconds> <minor faults>"
// CHOICE: none      no advice: 4 KiB pages, never a compaction stall
//         before    MADV_HUGEPAGE, then zero (what zeroed_floats does): 2 MiB pages at the faults
//         after     zero, then MADV_HUGEPAGE: 4 KiB faults; khugepaged may collapse them later
//         collapse  zero, then MADV_COLLAPSE: 4 KiB faults, then a synchronous copy into 2 MiB
//         populate  MADV_HUGEPAGE, then MADV_POPULATE_WRITE (the kernel faults in everything
//                   in one call), then zero
//         small     MADV_NOHUGEPAGE, then MADV_POPULATE_WRITE in one call on one thread: 4 KiB
//                   pages without a trap into the kernel for each, then zero
//         adaptive  embdemo's own zeroed_floats (core/kernels/rows.cpp): MADV_HUGEPAGE, then
//                   MADV_POPULATE_WRITE one 2 MiB page at a time, timed; the first page that
//                   takes over 2 ms (the kernel compacting memory or the host backing it) ends
//                   the advice: MADV_NOHUGEPAGE on the rest, which MADV_POPULATE_WRITE faults in
//                   as 4 KiB pages, one call per thread; then zero
#include <sys/mman.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/kernels/rows.hpp"
#include "core/torch/torch_rng.hpp"

namespace {

constexpr int k_madv_populate_write = 23;  // Linux 5.14; older headers lack the name
constexpr int k_madv_collapse = 25;        // Linux 6.1

long minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: hugepage_choices none|before|after|collapse|populate|small|adaptive VOCAB DIM SEED\n");
        return 2;
    }
    const std::string choice = argv[1];
    const std::size_t count = std::strtoull(argv[2], nullptr, 10) * std::strtoull(argv[3], nullptr, 10);
    const std::uint64_t seed = std::strtoull(argv[4], nullptr, 10);
    if (choice != "none" && choice != "before" && choice != "after" && choice != "collapse" &&
        choice != "populate" && choice != "small" && choice != "adaptive") {
        std::fprintf(stderr, "hugepage_choices: unknown choice '%s'\n", choice.c_str());
        return 2;
    }
    const long faults_before = minor_faults();
    const auto start = std::chrono::steady_clock::now();
    std::vector<float> values;
    if (choice == "adaptive") {
        values = embdemo::zeroed_floats(count);
    } else {
        values.reserve(count);
        constexpr std::uintptr_t k_huge = std::uintptr_t{2} << 20;
        const auto begin = reinterpret_cast<std::uintptr_t>(values.data());
        const std::uintptr_t first = (begin + k_huge - 1) & ~(k_huge - 1);
        const std::uintptr_t last = (begin + count * sizeof(float)) & ~(k_huge - 1);
        const auto advise = [&](int advice) {  // refusals are results too
            if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, advice);
        };
        if (choice == "before" || choice == "populate") advise(MADV_HUGEPAGE);
        if (choice == "small") advise(MADV_NOHUGEPAGE);
        if (choice == "populate" || choice == "small") advise(k_madv_populate_write);
        values.resize(count, 0.0f);
        if (choice == "after") advise(MADV_HUGEPAGE);
        if (choice == "collapse") advise(k_madv_collapse);
    }
    embdemo::TorchGenerator generator(seed);
    embdemo::normal_fill(generator, values.data(), count);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    std::printf("%.6f %ld\n", elapsed.count(), minor_faults() - faults_before);
    return 0;
}
