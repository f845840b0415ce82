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
// allowed, as embdemo encodes; argv[3] names the package. Prints "seconds tokens".
constexpr const char* k_js_script = R"JS(
const fs = require("fs");
const text = fs.readFileSync(process.argv[1], "utf8");
const repeats = Number(process.argv[2]);
const which = process.argv[3];
const enc = which === "tiktoken" ? require("tiktoken").get_encoding("gpt2") : require("js-tiktoken").getEncoding("gpt2");
const encode = () => enc.encode(text, ["<|endoftext|>"]).length;
let tokens = encode();
const times = [];
for (let r = 0; r < repeats; r++) {
  const start = process.hrtime.bigint();
  tokens = encode();
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

void measure_js(const TokenizerBench& bench, ReferenceTokenizer& reference, const char* what) {
    const std::string command = "node -e " + shell_quote(k_js_script) + " " + shell_quote(bench.file) + " " +
                                std::to_string(bench.repeats) + " " + reference.package + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) {
        reference.note = "node could not be started";
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
        reference.seconds = seconds;
        reference.tokens = tokens;
        reference.note = fmt::format("{}, under node", what);
        return;
    }
    const bool missing = output.find("Cannot find module") != std::string::npos;
    reference.note = missing ? fmt::format("not measured: node has no {} (npm install {}, then set NODE_PATH)",
                                           reference.package, reference.package)
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
    measure_js(bench, bench.js, "JavaScript");
    measure_js(bench, bench.wasm, "Rust as WebAssembly");
    return Result::ok(std::move(bench));
}

namespace {

// "  js-tiktoken  1.38 MB/s  0.886 s  (note, the same token count)" and its ratio line.
std::string reference_lines(const TokenizerBench& bench, const ReferenceTokenizer& reference) {
    const std::string name = fmt::format("  {:<13}", reference.package);
    if (!reference.seconds) return name + reference.note + '\n';
    std::string out = fmt::format("{}{:8.2f} MB/s  {:.3f} s  ({}{})\n", name,
                                  megabytes_per_second(bench.bytes, *reference.seconds), *reference.seconds, reference.note,
                                  *reference.tokens == bench.tokens
                                      ? ", the same token count"
                                      : fmt::format(", {} tokens", group_thousands(*reference.tokens)));
    return out + fmt::format("  {:<13}{:.2f}x  (embdemo's throughput / {}'s, both measured in this run)\n", "ratio",
                             *reference.seconds / bench.seconds, reference.package);
}

// The JSON fields of one package, `prefix` naming them ("js_tiktoken", "tiktoken_wasm").
std::string reference_json(const TokenizerBench& bench, const ReferenceTokenizer& reference, const std::string& prefix,
                           const std::string& ratio_name) {
    const bool measured = reference.seconds.has_value();
    const double seconds = reference.seconds.value_or(0.0);
    const std::string null = "null";
    std::string out = fmt::format("  \"{}_seconds\": {},\n  \"{}_mb_per_s\": {},\n", prefix,
                                  measured ? json_number(seconds) : null, prefix,
                                  measured ? json_number(megabytes_per_second(bench.bytes, seconds)) : null);
    out += fmt::format("  \"{}_tokens\": {},\n  \"{}\": {},\n  \"{}_note\": {}", prefix,
                       reference.tokens ? std::to_string(*reference.tokens) : null, ratio_name,
                       measured ? json_number(seconds / bench.seconds) : null, prefix, json_string(reference.note));
    return out;
}

}  // namespace

std::string render_tokenizer_bench_text(const TokenizerBench& bench) {
    std::string out = fmt::format("GPT-2's tokenizer on {}: {} bytes, {} tokens (median of {} runs after a warm-up)\n",
                                  escape_for_message(bench.file), group_thousands(bench.bytes),
                                  group_thousands(bench.tokens), bench.repeats);
    out += fmt::format("  embdemo      {:8.2f} MB/s  {:.3f} s\n", megabytes_per_second(bench.bytes, bench.seconds),
                       bench.seconds);
    return out + reference_lines(bench, bench.js) + reference_lines(bench, bench.wasm);
}

std::string render_tokenizer_bench_json(const TokenizerBench& bench) {
    std::string out = "{\n  \"schema\": \"embdemo-bench-tokenizer/1\",\n";
    out += fmt::format("  \"file\": {},\n  \"bytes\": {},\n  \"tokens\": {},\n  \"repeats\": {},\n", json_string(bench.file),
                       bench.bytes, bench.tokens, bench.repeats);
    out += fmt::format("  \"seconds\": {},\n  \"mb_per_s\": {},\n", json_number(bench.seconds),
                       json_number(megabytes_per_second(bench.bytes, bench.seconds)));
    out += reference_json(bench, bench.js, "js_tiktoken", "ratio") + ",\n";
    out += reference_json(bench, bench.wasm, "tiktoken_wasm", "tiktoken_wasm_ratio") + "\n}\n";
    return out;
}

}  // namespace embdemo
