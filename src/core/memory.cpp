#include "core/memory.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <sys/resource.h>
#include <unistd.h>

#include "core/buffers.hpp"
#include "core/ids.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

std::uint64_t buffer_bytes(const Buffer& buffer) {
    const auto bytes = checked_multiply(buffer.elements, buffer.element_bytes);
    return bytes ? *bytes : UINT64_MAX;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

std::uint64_t mapped_only_bytes(const std::vector<Buffer>& buffers) {
    std::uint64_t total = 0;
    std::uint64_t largest = 0;
    for (const Buffer& buffer : buffers) {
        total = saturating_add(total, buffer.mapped_only_bytes);
        largest = std::max(largest, buffer_bytes(buffer));
    }
    const std::uint64_t helpers = populate_threads(static_cast<std::size_t>(std::min<std::uint64_t>(largest, SIZE_MAX))) - 1;
    return saturating_add(total, helpers * k_helper_thread_mapped_bytes);
}

// The address-space limit and what the process has mapped already (which the limit counts).
struct AddressSpace {
    std::uint64_t limit = 0;
    std::uint64_t mapped = 0;
};

std::optional<AddressSpace> address_space() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
    AddressSpace space;
    space.limit = limit.rlim_cur;
    // /proc/self/statm's first number: the pages mapped now (VmSize), which the limit counts.
    if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
        unsigned long long pages = 0;
        if (std::fscanf(statm, "%llu", &pages) == 1) space.mapped = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
        std::fclose(statm);
    }
    return space;
}

}  // namespace

std::uint64_t estimate_peak_bytes(const std::vector<Buffer>& buffers) {
    std::uint64_t total = k_process_base_bytes;
    for (const Buffer& buffer : buffers) total = saturating_add(total, buffer_bytes(buffer));
    return total;
}

std::optional<std::string> check_memory_budget(const std::vector<Buffer>& buffers, std::uint64_t budget,
                                               std::string_view smaller) {
    const std::uint64_t estimate = estimate_peak_bytes(buffers);
    // The estimate counts resident pages, which are all mapped: past what the address-space
    // limit leaves, the run would end in "out of memory" half-way (or in OpenBLAS's retries).
    if (const auto space = address_space(); space && estimate <= budget) {
        const std::uint64_t room = space->limit > space->mapped ? space->limit - space->mapped : 0;
        const std::uint64_t resident = estimate > k_process_base_bytes ? estimate - k_process_base_bytes : 0;
        const std::uint64_t needed = saturating_add(resident, mapped_only_bytes(buffers));
        if (needed > room) {
            return "the run would need about " + describe_bytes(estimate) + " of memory" +
                   (needed > resident ? " and " + describe_bytes(needed - resident) + " of address space mapped beside it" : "") +
                   ", and the address-space limit " +
                   "(ulimit -v, RLIMIT_AS) of " + describe_bytes(space->limit) + " leaves " +
                   describe_bytes(room) + " beside the " + describe_bytes(space->mapped) +
                   " already mapped (allowed: a larger limit, or " + std::string(smaller) + ")";
        }
    }
    if (estimate <= budget) return std::nullopt;
    std::vector<Buffer> largest = buffers;
    std::stable_sort(largest.begin(), largest.end(),
                     [](const Buffer& a, const Buffer& b) { return buffer_bytes(a) > buffer_bytes(b); });
    std::string parts;
    for (std::size_t i = 0; i < largest.size() && i < 3; ++i) {
        parts += (i ? ", " : "") + largest[i].name + ' ' + describe_bytes(buffer_bytes(largest[i]));
    }
    return "the run would need about " + describe_bytes(estimate) + " of memory (largest: " + parts +
           "); the budget is " + describe_bytes(budget) +
           " (allowed: --max-memory SIZE to raise it, e.g. --max-memory 4G, or " + std::string(smaller) + ")";
}

ParseResult<std::uint64_t> parse_memory_size(std::string_view text) {
    using Result = ParseResult<std::uint64_t>;
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    std::string unit(text.substr(digits));
    for (char& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    int shift = 0;
    const std::string_view units = "KMGT";
    if (!unit.empty() && units.find(unit[0]) != std::string_view::npos) {
        shift = 10 * (static_cast<int>(units.find(unit[0])) + 1);
        unit.erase(0, 1);
        if (unit == "IB" || unit == "B") unit.clear();
    } else if (unit == "B") {
        unit.clear();
    }
    if (digits == 0 || !unit.empty()) return Result::fail("is not a size");
    const auto number = parse_decimal(text.substr(0, digits), UINT64_MAX);
    // "010" and "01M" are refused for their leading zero, as every integer option refuses it.
    if (!number && number.error().rfind("is larger", 0) != 0) return Result::fail(number.error());
    if (!number || number.value() > (UINT64_MAX >> shift)) return Result::fail("is more than 2^64 bytes");
    const std::uint64_t bytes = number.value() << shift;
    if (bytes < (std::uint64_t{1} << 20)) return Result::fail("is less than 1 MiB");
    return Result::ok(bytes);
}

}  // namespace embdemo
