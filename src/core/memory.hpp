// How much memory a run will hold at its peak, estimated before anything is allocated, and the
// budget it must fit. The estimate is deliberately simple: the sum of a list of buffers (name,
// element count, bytes per element) that the code building a computation lists next to it, so
// that a lesson which holds one matrix more or less changes one line of the list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"

namespace embdemo {

struct Buffer {
    std::string name;             // for messages: "E (vocab x dim)"
    std::uint64_t elements = 0;
    std::uint64_t element_bytes = 0;
    // Address space the buffer maps beyond its resident bytes (OpenBLAS's library and work
    // buffer, a thread's stack): the budget does not count it, an address-space limit does.
    std::uint64_t mapped_only_bytes = 0;
};

// 1 GiB: every GPT-2-sized run (50,257 x 768) fits, including the walkthrough and the exports,
// and a run that would push a classroom laptop into swap is refused instead.
inline constexpr std::uint64_t k_default_memory_budget = std::uint64_t{1} << 30;

// What the process itself takes before any matrix (code, libraries, stack): measured as the
// peak RSS of `embdemo --ids 1 --dim 1` (4.3 MiB with Debian 12's libraries).
inline constexpr std::uint64_t k_process_base_bytes = std::uint64_t{4} << 20;

// OpenBLAS, loaded for the one-hot products (core/kernels/torch_matmul.hpp): its pages touched
// and its work buffers, as measured by tests/scripts/memory_estimate.sh.
inline constexpr std::uint64_t k_blas_bytes = std::uint64_t{4} << 20;

// What OpenBLAS maps and mostly leaves untouched: the library, and a work buffer per thread
// (torch_matmul.cpp pins one thread), which it retries for ever where RLIMIT_AS refuses it.
inline constexpr std::uint64_t k_openblas_library_bytes = std::uint64_t{40} << 20;
inline constexpr std::uint64_t k_openblas_buffer_bytes = (std::uint64_t{128} << 20) + 8192;
inline constexpr std::uint64_t k_blas_mapped_bytes = k_openblas_library_bytes + k_openblas_buffer_bytes;

// The BLAS as a buffer of a run's list: its touched pages and what it maps beside them, with a
// work buffer more for each further thread that calls it at the same time.
inline Buffer blas_buffer(std::uint64_t calling_threads = 1) {
    const std::uint64_t further = calling_threads > 1 ? calling_threads - 1 : 0;
    return {"the BLAS (code and work space)", k_blas_bytes, 1, k_blas_mapped_bytes + further * k_openblas_buffer_bytes};
}

// A helper thread's address space: its stack (glibc's default, RLIMIT_STACK's 8 MiB) and the
// malloc arena glibc reserves for it (64 MiB on 64-bit), both mapped, hardly touched.
// check_memory_budget counts them for the threads that fault in the largest buffer
// (core/buffers.hpp), which later helper threads reuse once these have ended.
inline constexpr std::uint64_t k_helper_thread_mapped_bytes = (std::uint64_t{8} << 20) + (std::uint64_t{64} << 20);

// The peak memory of a run that holds all of `buffers` at once, plus k_process_base_bytes.
// Saturates at UINT64_MAX instead of wrapping.
std::uint64_t estimate_peak_bytes(const std::vector<Buffer>& buffers);

// nullopt when the estimate fits `budget` and, under an address-space limit (RLIMIT_AS:
// `ulimit -v`, `prlimit --as`), what the limit leaves beside the pages mapped already; otherwise
// a message with the estimate and its largest buffers and the budget, or the limit.
// `smaller` says what would need less ("a shorter text"); by default fewer ids or a smaller vocab or dim.
std::optional<std::string> check_memory_budget(const std::vector<Buffer>& buffers, std::uint64_t budget,
                                               std::string_view smaller = "fewer ids or a smaller vocab or dim");

// "4G", "512M", "64K" (binary units: 1K = 1024 bytes, upper or lower case, an optional "iB" or
// "B") or a plain number of bytes. At least 1 MiB.
ParseResult<std::uint64_t> parse_memory_size(std::string_view text);

}  // namespace embdemo
