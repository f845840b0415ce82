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
#include <thread>

#include "bench/bench.hpp"
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
    const embdemo::BenchPlan plan = embdemo::plan_bench(command_line.config);
    const std::uint64_t budget = command_line.max_memory ? *command_line.max_memory
                                                         : memory_available().value_or(embdemo::k_default_memory_budget);
    if (auto too_big = embdemo::check_memory_budget(plan.buffers, budget)) {
        print_error("--tokens/--vocab/--dim: " + *too_big +
                    (command_line.max_memory ? "" : " [the budget is the memory available now, MemAvailable]"));
        return 2;
    }
    const char* coretype = std::getenv("OPENBLAS_CORETYPE");
    const embdemo::BenchResult result = embdemo::run_bench(
        command_line.config, coretype ? std::optional<std::string>(coretype) : std::nullopt,
        [](const std::string& line) { std::fprintf(stderr, "embdemo bench: %s\n", line.c_str()); });
    const std::string out = command_line.json ? embdemo::render_bench_json(result) : embdemo::render_bench_text(result);
    if (write_out(out) != 0) return 1;
    return embdemo::bench_all_identical(result) ? 0 : 3;
}

}  // namespace

int main(int argc, char* argv[]) {
    try {
        return run(argc, argv);
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
    } catch (const std::exception& error) {
        print_error(std::string("internal error: ") + error.what());
    }
    return 1;
}
