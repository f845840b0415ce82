// The analytic cost of the two ways to get embedding vectors, counted exactly: how much work the
// one-hot product does (and how much of it multiplies by zero) against the lookup's copies, in
// the forward pass and in the backward pass into E, with the bytes each one moves. Counts only:
// nothing here runs a kernel (the bench, src/bench, times them).
// Shape legend: n ids, V vocabulary rows, d dimensions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/parse_result.hpp"
#include "core/tokenizers/tokenized.hpp"

namespace embdemo {

struct EmbeddingCost {
    std::uint64_t ids = 0, vocab_size = 0, dim = 0;
    std::uint64_t onehot_entries = 0;        // n * V values in X
    std::uint64_t product_multiplies = 0;    // n * V * d multiply-adds in X @ E
    std::uint64_t zero_multiplies = 0;       // n * (V - 1) * d of them multiply by 0
    std::uint64_t lookup_copies = 0;         // n * d values copied by E[ids], no arithmetic
};

// Counts for the given sizes; the products must fit in 64 bits (true for any real model).
EmbeddingCost embedding_cost(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim);

// GPT-2 small's token table and context length, the "real model" of the walkthrough.
inline constexpr std::uint64_t k_gpt2_vocab = 50257;
inline constexpr std::uint64_t k_gpt2_dim = 768;
inline constexpr std::uint64_t k_gpt2_context = 1024;

// Token tables of real models, for `embdemo cost --model` and `embdemo bench --model`; n
// defaults to the model's context length.
// `parameters` is the model's whole count, from its config file (docs/usage.md lists the
// sources and the sums): token table, layers, norms, positions. `tied`: the output layer reuses
// the token table; untied, it is a second V x d matrix.
struct ModelPreset {
    const char* name;   // "gpt2"
    const char* label;  // "GPT-2 small"
    std::uint64_t vocab_size, dim, context;
    std::uint64_t parameters;
    bool tied;
};

inline constexpr ModelPreset k_model_presets[] = {
    {"gpt2", "GPT-2 small", k_gpt2_vocab, k_gpt2_dim, k_gpt2_context, 124439808, true},
    {"gpt2-xl", "GPT-2 XL", k_gpt2_vocab, 1600, k_gpt2_context, 1557611200, true},
    {"llama3-8b", "Llama 3 8B", 128256, 4096, 8192, 8030261248, false},
    {"bert-base", "BERT-base (uncased)", 30522, 768, 512, 109482240, true},
    {"llama-3.2-1b", "Llama 3.2 1B", 128256, 2048, 131072, 1235814400, true},
    {"qwen2.5-0.5b", "Qwen2.5-0.5B", 151936, 896, 32768, 494032768, true},
    {"gemma-3-270m", "Gemma 3 270M", 262144, 640, 32768, 268098176, true},
    {"xlm-r-base", "XLM-R base", 250002, 768, 512, 278043648, true},
};

// ALBERT's factorised embedding (Lan et al.): V x r, then r x d, with r = 128, its E.
inline constexpr std::uint64_t k_factor_preset_rank = 128;

// A preset's embedding against its whole parameter count, and what factorising its token table
// at `rank` (below d) would save.
struct ModelShare {
    std::uint64_t table = 0;            // V x d
    std::uint64_t embedding = 0;        // the table, and the output layer when untied
    double table_share = 0;             // table / parameters
    double embedding_share = 0;         // embedding / parameters
    std::uint64_t rank = 0;
    std::uint64_t factored = 0;         // V x r + r x d
    std::uint64_t saved = 0;            // table - factored
    double factored_share = 0;          // factored / (parameters - saved)
};
ModelShare model_share(const ModelPreset& preset, std::uint64_t rank = k_factor_preset_rank);

const ModelPreset* find_model_preset(const std::string& name);
std::string model_preset_names();  // "gpt2, gpt2-xl, llama3-8b"

// --model NAME, as `cost` and `bench` both take it: the preset, or the message refusing NAME
// (not a known model, or given with --vocab/--dim, which it sets).
ParseResult<const ModelPreset*> model_preset_option(const std::string& name, bool vocab_or_dim_given);

// Bounds on n, V and d for the cost model and the bench: every count and byte total below
// stays far inside 64 bits (n * V * d <= 2^60), and every real model fits.
inline constexpr std::uint64_t k_max_cost_tokens = std::uint64_t{1} << 20;  // 1,048,576
inline constexpr std::uint64_t k_max_cost_vocab = std::uint64_t{1} << 24;   // 16,777,216
inline constexpr std::uint64_t k_max_cost_dim = std::uint64_t{1} << 16;     // 65,536

// Bytes per stored value: float32 values, int64 ids and CSR indices (torch's LongTensor).
inline constexpr std::uint64_t k_value_bytes = 4;
inline constexpr std::uint64_t k_index_bytes = 8;

enum class CostMethod { lookup, onehot_dense, onehot_sparse };
enum class CostPass { forward, backward };

// One way to compute one pass. Forward: out = E[ids], n x d. Backward: dE (V x d, dense, as
// nn.Embedding's default sparse=False gives it) from G = dL/d(out), n x d. Bytes count each
// operand read once and each result written once: the least traffic the method needs (a real
// GEMM re-reads panels of its operands from cache, so it moves at least this much).
struct CostRow {
    CostMethod method = CostMethod::lookup;
    CostPass pass = CostPass::forward;
    std::uint64_t multiply_adds = 0;
    std::uint64_t zero_multiplies = 0;  // multiply-adds whose one-hot factor is 0
    std::uint64_t additions = 0;        // plain adds (the scatter-add of the backward pass)
    std::uint64_t bytes_read = 0;
    std::uint64_t bytes_written = 0;
    std::uint64_t extra_bytes = 0;      // memory beyond E, ids, G and the result: X, dense or CSR
};

// The six rows: lookup, dense one-hot, sparse (CSR) one-hot; forward, then backward. Sizes
// within the k_max_cost_* bounds.
std::vector<CostRow> cost_rows(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim);

const char* cost_method_name(CostMethod method);  // "lookup", "onehot_dense", "onehot_sparse"
const char* cost_pass_name(CostPass pass);        // "forward", "backward"

// Where n came from: the ids listed by --ids, --tokens N, or the --model's context length.
enum class TokenSource { ids, text, tokens, context };

// A preset's sizes into a request (CostRequest, BenchConfig): V, d, and n = its context length.
template <typename Sizes>
void use_model_preset(const ModelPreset& preset, Sizes& sizes) {
    sizes.model = &preset;
    sizes.vocab_size = preset.vocab_size;
    sizes.dim = preset.dim;
    sizes.ids = preset.context;
    sizes.token_source = TokenSource::context;
}
const char* token_source_name(TokenSource source);  // "ids", "text", "tokens", "context"

// `embdemo cost`: the sizes, where they came from, and the six rows.
struct CostRequest {
    std::uint64_t ids = 0, vocab_size = 0, dim = 0;
    const ModelPreset* model = nullptr;  // --model, or nullptr for --vocab/--dim
    TokenSource token_source = TokenSource::tokens;
    TokenizerKind tokenizer = TokenizerKind::gpt2;  // with a text: the one that cut it
    bool vocab_inferred = false;         // V = largest id + 1
};

struct CostLesson {
    CostRequest request;
    std::vector<CostRow> rows;
};

CostLesson run_cost_lesson(const CostRequest& request);

// Bytes of a CSR one-hot X with n rows: n values, n column indices, n + 1 row pointers.
std::uint64_t csr_onehot_bytes(std::uint64_t ids);

}  // namespace embdemo
