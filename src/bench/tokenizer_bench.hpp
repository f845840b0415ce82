// embdemo bench --tokenizer FILE: GPT-2's tokenizer throughput on a text of at least 1 MB, next to
// two npm packages' on the same text, run by this machine's node where it has them (found through
// NODE_PATH): js-tiktoken (tiktoken ported to JavaScript) and tiktoken (the Rust library built to
// WebAssembly), each as a ratio measured in one run.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/parse_result.hpp"

namespace embdemo {

inline constexpr std::size_t k_min_tokenizer_bench_bytes = 1000000;

// One npm package's run under node, or why there was none.
struct ReferenceTokenizer {
    std::string package;                 // "js-tiktoken", "tiktoken"
    std::optional<double> seconds;       // median of its runs, when node could run it
    std::optional<std::size_t> tokens;
    std::string note;                    // what ran, or why it was not measured
};

struct TokenizerBench {
    std::string file;
    std::size_t bytes = 0;
    std::size_t tokens = 0;
    std::size_t repeats = 0;
    double seconds = 0.0;  // median of embdemo's runs
    ReferenceTokenizer js{"js-tiktoken", {}, {}, ""};
    ReferenceTokenizer wasm{"tiktoken", {}, {}, ""};
};

// Reads and checks the file (UTF-8, at least k_min_tokenizer_bench_bytes), then times both.
ParseResult<TokenizerBench> run_tokenizer_bench(const std::string& file, std::size_t repeats);

std::string render_tokenizer_bench_text(const TokenizerBench& bench);
std::string render_tokenizer_bench_json(const TokenizerBench& bench);

}  // namespace embdemo
