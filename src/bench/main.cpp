// embdemo-bench: `embdemo bench` runs it (src/cli/bench_exec.cpp). Parses, checks the memory the
// run needs against what is available before allocating, runs, prints, and maps the outcome to
// embdemo's exit statuses (2 bad input, 3 a result differs, 1 a failed write).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include <dirent.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/bench.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "bench/options.hpp"
#include "bench/render.hpp"
#include "bench/tokenizer_bench.hpp"
#include "core/memory.hpp"

namespace {

void print_error(const std::string& message) { std::fprintf(stderr, "embdemo: error: %s\n", message.c_str()); }

// MemAvailable from /proc/meminfo, in bytes; nullopt where there is no such file.
std::optional<std::uint64_t> memory_available() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemAvailable:") return kib * 1024;
    }
    return std::nullopt;
}

// A "Key:  value kB" line of /proc/self/status, in bytes (kB) or as the number; 0 without one.
std::uint64_t status_field(const std::string& path, const std::string& wanted) {
    std::ifstream status(path);
    std::string line;
    while (std::getline(status, line)) {
        if (line.compare(0, wanted.size(), wanted) != 0) continue;
        std::uint64_t value = 0;
        const std::size_t digits = line.find_first_of("0123456789", wanted.size());
        if (digits == std::string::npos) return 0;
        value = std::strtoull(line.c_str() + digits, nullptr, 10);
        return line.find("kB") != std::string::npos ? value * 1024 : value;
    }
    return 0;
}

// Threads of every process of this real user: what RLIMIT_NPROC counts.
std::uint64_t user_tasks() {
    std::uint64_t tasks = 0;
    const std::uint64_t uid = ::getuid();
    DIR* proc = ::opendir("/proc");
    if (!proc) return 0;
    while (const dirent* entry = ::readdir(proc)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        std::ifstream status(std::string("/proc/") + entry->d_name + "/status");
        std::string line;
        bool mine = false;
        while (std::getline(status, line)) {
            if (line.rfind("Uid:", 0) == 0) mine = std::strtoull(line.c_str() + 4, nullptr, 10) == uid;  // the real uid
            if (mine && line.rfind("Threads:", 0) == 0) tasks += std::strtoull(line.c_str() + 8, nullptr, 10);
        }
    }
    ::closedir(proc);
    return tasks;
}

embdemo::ThreadLimits current_limits() {
    embdemo::ThreadLimits limits;
    rlimit limit {};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        limits.address_space = limit.rlim_cur;
        limits.mapped_bytes = status_field("/proc/self/status", "VmSize:");
    }
    // glibc's default thread stack is RLIMIT_STACK's soft limit, 32 MiB when it is unlimited.
    if (::getrlimit(RLIMIT_STACK, &limit) == 0) {
        limits.stack_bytes = limit.rlim_cur == RLIM_INFINITY ? std::uint64_t{32} << 20 : limit.rlim_cur;
    }
    // Root is not held to RLIMIT_NPROC.
    if (::geteuid() != 0 && ::getrlimit(RLIMIT_NPROC, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        limits.tasks = limit.rlim_cur;
        limits.user_tasks = user_tasks();
    }
    return limits;
}

// The default thread count is capped by what the process limits leave room for; an explicit
// --threads above it is refused, before any thread starts (a thread that cannot start mid-way
// leaves OpenBLAS's threads retrying allocations). The message, or nothing.
std::optional<std::string> fit_threads(embdemo::BenchCommandLine& command_line, std::uint64_t planned_bytes) {
    const embdemo::ThreadLimits limits = current_limits();
    const unsigned allowed = embdemo::threads_allowed(limits, planned_bytes);
    unsigned& threads = command_line.config.threads;
    if (threads <= allowed) return std::nullopt;
    if (!command_line.threads_given) {
        threads = allowed;
        return std::nullopt;
    }
    const auto mib = [](std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; };
    std::string why;
    if (limits.address_space != 0) {
        why += "each thread beyond the first maps about " +
               mib(embdemo::address_space_per_thread(limits.stack_bytes)) +
               " (two stacks and OpenBLAS's buffer) under an address-space limit of " + mib(limits.address_space) +
               " (ulimit -v), " + mib(limits.mapped_bytes) + " mapped already";
    }
    if (limits.tasks != 0) {
        why += std::string(why.empty() ? "" : "; ") + "each thread beyond the first starts two under a limit of " +
               std::to_string(limits.tasks) + " tasks (ulimit -u), " + std::to_string(limits.user_tasks) +
               " running";
    }
    return "--threads " + std::to_string(threads) + ": more threads than the process limits leave room for: " + why +
           " (allowed here: 1 to " + std::to_string(allowed) + ")";
}

// The first thread's OpenBLAS buffer under RLIMIT_AS: OpenBLAS retries a buffer the limit
// refuses for ever (its first cblas_sgemm hung at --as 60 to 170 MB), so a limit that leaves no
// room for it beside the planned buffers is refused before anything runs. The message, or nothing.
std::optional<std::string> first_thread_room(std::uint64_t planned_bytes) {
    const embdemo::ThreadLimits limits = current_limits();
    if (limits.address_space == 0) return std::nullopt;
    constexpr std::uint64_t margin = std::uint64_t{4} << 20;  // OpenBLAS's own small mallocs
    const std::uint64_t need = limits.mapped_bytes + planned_bytes + embdemo::k_openblas_buffer_bytes + margin;
    if (limits.address_space >= need) return std::nullopt;
    const auto mib = [](std::uint64_t bytes) { return std::to_string((bytes + (std::uint64_t{1} << 20) - 1) >> 20) + " MiB"; };
    return "the address-space limit (ulimit -v, RLIMIT_AS) of " + std::to_string(limits.address_space >> 20) +
           " MiB leaves no room for OpenBLAS's 128 MiB buffer beside the " + mib(limits.mapped_bytes) +
           " mapped and the " + mib(planned_bytes) + " of buffers the run plans; OpenBLAS would retry it for ever "
           "(allowed: a limit of at least " + mib(need) + " for these sizes, or none)";
}

int write_out(const std::string& out) {
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0) {
        print_error(std::string("cannot write to standard output: ") + std::strerror(errno));
        return 1;
    }
    return 0;
}

int run_tokenizer(const embdemo::BenchCommandLine& command_line) {
    const auto bench = embdemo::run_tokenizer_bench(command_line.tokenizer_file, command_line.tokenizer_repeats);
    if (!bench) {
        print_error(bench.error());
        return 2;
    }
    return write_out(command_line.json ? embdemo::render_tokenizer_bench_json(bench.value())
                                       : embdemo::render_tokenizer_bench_text(bench.value()));
}

int run(int argc, char* argv[]) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const embdemo::BenchCommandLine command_line = embdemo::parse_bench_command_line(argc, argv, cores);
    if (!command_line.run) {
        if (!command_line.error.empty()) {
            print_error(command_line.error);
            return command_line.exit_code;
        }
        return write_out(command_line.stdout_text);
    }
    if (!command_line.tokenizer_file.empty()) return run_tokenizer(command_line);
    embdemo::BenchCommandLine fitted = command_line;
    const embdemo::BenchPlan plan = embdemo::plan_bench(fitted.config);
    const std::uint64_t budget = command_line.max_memory ? *command_line.max_memory
                                                         : memory_available().value_or(embdemo::k_default_memory_budget);
    if (auto too_big = embdemo::check_memory_budget(plan.buffers, budget)) {
        print_error("--tokens/--vocab/--dim: " + *too_big +
                    (command_line.max_memory ? "" : " [the budget is the memory available now, MemAvailable]"));
        return 2;
    }
    std::uint64_t planned_bytes = 0;
    for (const embdemo::Buffer& buffer : plan.buffers) planned_bytes += buffer.elements * buffer.element_bytes;
    if (auto problem = embdemo::openblas_coretype_problem()) {
        print_error(*problem);
        return 2;
    }
    if (auto problem = first_thread_room(planned_bytes)) {
        print_error(*problem);
        return 2;
    }
    if (auto problem = fit_threads(fitted, planned_bytes)) {
        print_error(*problem);
        return 2;
    }
    const char* coretype = std::getenv("OPENBLAS_CORETYPE");
    const embdemo::BenchResult result = embdemo::run_bench(
        fitted.config, coretype ? std::optional<std::string>(coretype) : std::nullopt,
        [](const std::string& line) { std::fprintf(stderr, "embdemo bench: %s\n", line.c_str()); });
    const std::string out = command_line.json ? embdemo::render_bench_json(result) : embdemo::render_bench_text(result);
    if (write_out(out) != 0) return 1;
    return embdemo::bench_all_identical(result) ? 0 : 3;
}

}  // namespace

int main(int argc, char* argv[]) {
    // Before any thread starts: each thread's own arena would reserve 64 MiB of address space
    // that the thread-count check does not count.
    ::mallopt(M_ARENA_MAX, embdemo::k_bench_malloc_arenas);
    int status = 1;
    try {
        status = run(argc, argv);
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
    } catch (const std::system_error& error) {
        print_error(std::string("cannot start a thread: ") + error.what() +
                    " (allowed: fewer --threads, or higher process limits: ulimit -u, ulimit -v)");
    } catch (const std::exception& error) {
        print_error(std::string("internal error: ") + error.what());
    }
    // Never exit(): OpenBLAS's shutdown at exit wakes its threads and joins them, and under an
    // address-space limit a woken thread may retry an allocation the limit refuses, for ever
    // (seen after a complete run: 1 in 25 under --as). Everything is written; only stdio's
    // buffers are left.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(status);
}
