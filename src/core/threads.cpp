#include "core/threads.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>
#include <thread>
#include <vector>

namespace embdemo {
namespace {

// A positive whole number from the environment, or 0.
unsigned threads_from_env(const char* name) {
    const char* text = std::getenv(name);
    if (!text || !*text) return 0;
    char* end = nullptr;
    const unsigned long value = std::strtoul(text, &end, 10);
    if (*end != '\0' || value == 0 || value > 256) return 0;
    return static_cast<unsigned>(value);
}

}  // namespace

unsigned product_threads(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim) {
    if (const unsigned chosen = threads_from_env("EMBDEMO_THREADS")) return chosen;
    if (const unsigned chosen = threads_from_env("OMP_NUM_THREADS")) return chosen;
    // About 20 ms of the BLAS's work: below it a thread's start costs more than it saves.
    constexpr std::uint64_t k_terms_worth_a_thread = std::uint64_t{1} << 29;
    const double terms = static_cast<double>(ids) * static_cast<double>(vocab_size) * static_cast<double>(dim);
    if (terms < static_cast<double>(k_terms_worth_a_thread)) return 1;
    return std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
}

void run_parts(unsigned parts, const std::function<void(unsigned)>& part) {
    std::vector<std::thread> helpers;
    unsigned next = 1;
    for (; next < parts; ++next) {
        try {
            helpers.emplace_back(part, next);
        } catch (const std::system_error&) {
            break;  // no thread to be had: this thread does the rest
        }
    }
    for (unsigned rest = next; rest < parts; ++rest) part(rest);
    part(0);
    for (std::thread& helper : helpers) helper.join();
}

}  // namespace embdemo
