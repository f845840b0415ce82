// `embdemo bench`: the lookup, the dense one-hot product through BLAS (cblas_sgemm) and through
// embdemo's own kernel (core/kernels/onehot_dense: every term, in order of k), the sparse
// (CSR) one-hot product, the naive reference loop, a memcpy of the same bytes, and xtensor's
// spelling of the lookup and of the one-hot product, timed on this machine for given n, V, d. Medians over repetitions after a warm-up; every path's output is
// checked against the lookup. The plan (sizes, memory, what runs) is computed before anything is
// allocated so that a run that cannot fit is refused. No printing except the progress callback.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/lessons/cost.hpp"
#include "core/memory.hpp"

namespace embdemo {

struct BenchConfig {
    std::uint64_t ids = 0, vocab_size = 0, dim = 0;  // n, V, d
    const ModelPreset* model = nullptr;
    TokenSource token_source = TokenSource::tokens;
    unsigned threads = 1;
    std::size_t repeats = 0;  // 0: as many as fill about half a second, 3 to 1,000
    std::uint64_t seed = 123;
    std::uint64_t onehot_chunk_bytes = std::uint64_t{1} << 27;  // see k_onehot_chunk_bytes
};

// BenchConfig::onehot_chunk_bytes: the dense one-hot X is built and multiplied that many bytes
// at a time (128 MiB, at least one row): one buffer, allocated once and reused, so its page
// faults are paid once, not per run. Tests make it small to exercise the chunks.
// The naive loop runs only up to this many multiply-adds (about a second on the machine the
// project is built on, docs/performance.md); above it, it is skipped with a note.
inline constexpr std::uint64_t k_naive_max_terms = std::uint64_t{1} << 28;

struct BenchPlan {
    std::uint64_t chunk_rows = 0;  // rows of X per sgemm call
    bool naive = false;
    bool xtensor_onehot = false;  // xtensor's one-hot expression (bench/xtensor_paths.hpp)
    std::vector<Buffer> buffers;   // everything run_bench allocates, for the memory check
};

BenchPlan plan_bench(const BenchConfig& config);

// Address space each thread beyond the first takes: a pool worker's and an OpenBLAS thread's
// stacks (`stack_bytes` each, the default pthread stack: RLIMIT_STACK), and OpenBLAS's buffer
// for that thread. The buffer is OpenBLAS 0.3.21's BUFFER_SIZE on x86-64 (Debian 12's
// DYNAMIC_ARCH build mallocs 128 MiB and 4 KiB per thread, which glibc maps as 128 MiB and
// 8 KiB: measured in /proc/PID/maps and under gdb); reserved, mostly never touched, so it counts
// against RLIMIT_AS (ulimit -v), not against the memory available. The first thread's buffer
// is room the limit must leave too. The bench keeps glibc to one malloc arena
// (k_bench_malloc_arenas), so threads add no 64 MiB arena reservations of their own.
// (k_openblas_buffer_bytes: core/memory.hpp)
inline constexpr int k_bench_malloc_arenas = 1;
std::uint64_t address_space_per_thread(std::uint64_t stack_bytes);

// The most threads the process limits leave room for, beside `planned_bytes` of buffers:
// RLIMIT_AS less what is mapped now (`mapped_bytes`), and RLIMIT_NPROC less the tasks the user
// runs now (`user_tasks`; each thread beyond the first starts two). A limit of 0 is no limit.
struct ThreadLimits {
    std::uint64_t address_space = 0, mapped_bytes = 0, stack_bytes = std::uint64_t{8} << 20;
    std::uint64_t tasks = 0, user_tasks = 0;
};
unsigned threads_allowed(const ThreadLimits& limits, std::uint64_t planned_bytes);

struct PathResult {
    // "lookup", "memcpy", "onehot_csr", "xtensor_view", "onehot_sgemm", "sgemm_alone",
    // "onehot_dense", "naive", "xtensor_onehot"
    std::string name;
    bool ran = false;
    std::string note;   // why it did not run, or what it is measured against
    double median_seconds = 0;
    std::size_t runs = 0;
    unsigned threads = 1;
    double bytes = 0;   // moved per run, for GB/s
    double flops = 0;   // 2 per multiply-add, for GFLOP/s (0: none)
    bool checked = false;  // compared with the lookup
    bool identical = false;
    double max_abs_diff = 0;
};

struct BenchResult {
    BenchConfig config;
    BenchPlan plan;
    std::vector<PathResult> paths;
    std::string blas_core, blas_config;
    std::optional<std::string> coretype_env;  // OPENBLAS_CORETYPE as set, if it is
    std::string dense_isa;                    // the tile onehot_dense ran: avx, sse2 or scalar
    const PathResult& path(const std::string& name) const;
};

// Runs every path; `progress` receives one line for each path expected to take over a second.
BenchResult run_bench(const BenchConfig& config, const std::optional<std::string>& coretype_env,
                      const std::function<void(const std::string&)>& progress);

}  // namespace embdemo
