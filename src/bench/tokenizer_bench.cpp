#include "bench/tokenizer_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "io/text_input.hpp"
#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/kit/json_text.hpp"

namespace embdemo {

namespace {

// node's side: the same file, the same warm-up and median, GPT-2's encoding with <|endoftext|>
// allowed, as embdemo encodes. Prints "seconds tokens".
constexpr const char* k_js_script = R"JS(
const fs = require("fs");
const { getEncoding } = require("js-tiktoken");
const text = fs.readFileSync(process.argv[1], "utf8");
const repeats = Number(process.argv[2]);
const enc = getEncoding("gpt2");
let tokens = enc.encode(text, ["<|endoftext|>"]).length;
const times = [];
for (let r = 0; r < repeats; r++) {
  const start = process.hrtime.bigint();
  tokens = enc.encode(text, ["<|endoftext|>"]).length;
  times.push(Number(process.hrtime.bigint() - start) / 1e9);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)], tokens);
)JS";

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (const char ch : text) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return quoted + "'";
}

void measure_js(TokenizerBench& bench) {
    const std::string command = "node -e " + shell_quote(k_js_script) + " " + shell_quote(bench.file) + " " +
                                std::to_string(bench.repeats) + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) {
        bench.js_note = "node could not be started";
        return;
    }
    std::string output;
    char buffer[4096];
    while (const std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
    const int status = ::pclose(pipe);
    std::istringstream fields(output);
    double seconds = 0.0;
    std::size_t tokens = 0;
    if (status == 0 && fields >> seconds >> tokens) {
        bench.js_seconds = seconds;
        bench.js_tokens = tokens;
        bench.js_note = "npm js-tiktoken under this machine's node";
        return;
    }
    const bool missing = output.find("Cannot find module") != std::string::npos;
    bench.js_note = missing ? "not measured: node has no js-tiktoken (npm install js-tiktoken, then set NODE_PATH)"
                            : "not measured: node is not installed or failed";
}

double median_seconds(const Gpt2Vocabulary& vocab, const std::string& text, std::size_t repeats, std::size_t& tokens) {
    tokens = encode_gpt2(vocab, text).size();  // warm-up
    std::vector<double> times;
    for (std::size_t r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        tokens = encode_gpt2(vocab, text).size();
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

double megabytes_per_second(std::size_t bytes, double seconds) { return static_cast<double>(bytes) / 1e6 / seconds; }

}  // namespace

ParseResult<TokenizerBench> run_tokenizer_bench(const std::string& file, std::size_t repeats) {
    using Result = ParseResult<TokenizerBench>;
    const auto text = read_text_file(file, "--tokenizer");
    if (!text) return Result::fail(text.error());
    if (text.value().size() < k_min_tokenizer_bench_bytes) {
        return Result::fail("--tokenizer " + quote_for_message(file) + " holds " + group_thousands(text.value().size()) +
                            " bytes (allowed: a UTF-8 text of at least " + group_thousands(k_min_tokenizer_bench_bytes) +
                            " bytes, so that one run takes long enough to time)");
    }
    if (!is_valid_utf8(text.value())) {
        return Result::fail("--tokenizer " + quote_for_message(file) + " is not UTF-8 text (allowed: UTF-8)");
    }
    const auto vocab = gpt2_vocabulary();
    if (!vocab) return Result::fail(vocab.error());
    TokenizerBench bench;
    bench.file = file;
    bench.bytes = text.value().size();
    bench.repeats = repeats;
    bench.seconds = median_seconds(*vocab.value(), text.value(), repeats, bench.tokens);
    measure_js(bench);
    return Result::ok(std::move(bench));
}

std::string render_tokenizer_bench_text(const TokenizerBench& bench) {
    std::string out = fmt::format("GPT-2's tokenizer on {}: {} bytes, {} tokens (median of {} runs after a warm-up)\n",
                                  escape_for_message(bench.file), group_thousands(bench.bytes),
                                  group_thousands(bench.tokens), bench.repeats);
    out += fmt::format("  embdemo      {:8.2f} MB/s  {:.3f} s\n", megabytes_per_second(bench.bytes, bench.seconds),
                       bench.seconds);
    if (!bench.js_seconds) return out + "  js-tiktoken  " + bench.js_note + '\n';
    out += fmt::format("  js-tiktoken  {:8.2f} MB/s  {:.3f} s  ({}{})\n", megabytes_per_second(bench.bytes, *bench.js_seconds),
                       *bench.js_seconds, bench.js_note,
                       *bench.js_tokens == bench.tokens ? ", the same token count"
                                                        : fmt::format(", {} tokens", group_thousands(*bench.js_tokens)));
    out += fmt::format("  ratio        {:.2f}x  (embdemo's throughput / js-tiktoken's, both measured in this run)\n",
                       *bench.js_seconds / bench.seconds);
    return out;
}

std::string render_tokenizer_bench_json(const TokenizerBench& bench) {
    const bool js = bench.js_seconds.has_value();
    const double js_seconds = bench.js_seconds.value_or(0.0);
    const std::string null = "null";
    std::string out = "{\n  \"schema\": \"embdemo-bench-tokenizer/1\",\n";
    out += fmt::format("  \"file\": {},\n  \"bytes\": {},\n  \"tokens\": {},\n  \"repeats\": {},\n", json_string(bench.file),
                       bench.bytes, bench.tokens, bench.repeats);
    out += fmt::format("  \"seconds\": {},\n  \"mb_per_s\": {},\n", json_number(bench.seconds),
                       json_number(megabytes_per_second(bench.bytes, bench.seconds)));
    out += fmt::format("  \"js_tiktoken_seconds\": {},\n  \"js_tiktoken_mb_per_s\": {},\n",
                       js ? json_number(js_seconds) : null,
                       js ? json_number(megabytes_per_second(bench.bytes, js_seconds)) : null);
    out += fmt::format("  \"js_tiktoken_tokens\": {},\n  \"ratio\": {},\n  \"js_tiktoken_note\": {}\n}}\n",
                       bench.js_tokens ? std::to_string(*bench.js_tokens) : null,
                       js ? json_number(js_seconds / bench.seconds) : null, json_string(bench.js_note));
    return out;
}

}  // namespace embdemo
