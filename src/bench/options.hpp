// embdemo-bench's command line -> a checked BenchConfig, or the text to print and the status to
// exit with. A program of its own (it alone links a BLAS), so it has its own CLI11 unit; the
// sizes and presets are the cost model's (core/lessons/cost.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bench/bench.hpp"

namespace embdemo {

struct BenchCommandLine {
    bool run = false;
    BenchConfig config;
    bool threads_given = false;  // --threads; otherwise all cores, as far as the limits allow
    bool json = false;
    std::optional<std::uint64_t> max_memory;  // --max-memory; otherwise the memory available
    std::string tokenizer_file;               // --tokenizer FILE: time the tokenizer instead
    std::size_t tokenizer_repeats = 5;
    int exit_code = 0;
    std::string stdout_text;  // help
    std::string error;        // one line, without "embdemo: error: "
};

BenchCommandLine parse_bench_command_line(int argc, const char* const argv[], unsigned cores);

}  // namespace embdemo
