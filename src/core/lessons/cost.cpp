#include "core/lessons/cost.hpp"

#include "core/escape.hpp"

namespace embdemo {

EmbeddingCost embedding_cost(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim) {
    EmbeddingCost cost;
    cost.ids = ids;
    cost.vocab_size = vocab_size;
    cost.dim = dim;
    cost.onehot_entries = ids * vocab_size;
    cost.product_multiplies = cost.onehot_entries * dim;
    cost.zero_multiplies = ids * (vocab_size - 1) * dim;  // every term but the one at column id
    cost.lookup_copies = ids * dim;
    return cost;
}

const ModelPreset* find_model_preset(const std::string& name) {
    for (const ModelPreset& preset : k_model_presets) {
        if (name == preset.name) return &preset;
    }
    return nullptr;
}

ModelShare model_share(const ModelPreset& preset, std::uint64_t rank) {
    ModelShare share;
    const double parameters = static_cast<double>(preset.parameters);
    share.table = preset.vocab_size * preset.dim;
    share.embedding = preset.tied ? share.table : 2 * share.table;
    share.table_share = static_cast<double>(share.table) / parameters;
    share.embedding_share = static_cast<double>(share.embedding) / parameters;
    share.rank = rank;
    share.factored = preset.vocab_size * rank + rank * preset.dim;
    share.saved = share.table - share.factored;
    share.factored_share = static_cast<double>(share.factored) / static_cast<double>(preset.parameters - share.saved);
    return share;
}

std::string model_preset_names() {
    std::string names;
    for (const ModelPreset& preset : k_model_presets) names += (names.empty() ? "" : ", ") + std::string(preset.name);
    return names;
}

ParseResult<const ModelPreset*> model_preset_option(const std::string& name, bool vocab_or_dim_given) {
    const ModelPreset* preset = find_model_preset(name);
    if (!preset) {
        return ParseResult<const ModelPreset*>::fail("--model " + quote_for_message(name) +
                                                      ": is not a known model (allowed: " + model_preset_names() + ')');
    }
    if (vocab_or_dim_given) {
        return ParseResult<const ModelPreset*>::fail("--model " + name +
                                                      " already sets --vocab and --dim (allowed: --model, or --vocab and --dim)");
    }
    return ParseResult<const ModelPreset*>::ok(preset);
}

const char* cost_method_name(CostMethod method) {
    switch (method) {
        case CostMethod::lookup: break;
        case CostMethod::onehot_dense: return "onehot_dense";
        case CostMethod::onehot_sparse: return "onehot_sparse";
    }
    return "lookup";
}

const char* token_source_name(TokenSource source) {
    switch (source) {
        case TokenSource::ids: return "ids";
        case TokenSource::text: return "text";
        case TokenSource::tokens: break;
        case TokenSource::context: return "context";
    }
    return "tokens";
}

const char* cost_pass_name(CostPass pass) { return pass == CostPass::forward ? "forward" : "backward"; }

std::uint64_t csr_onehot_bytes(std::uint64_t ids) {
    return ids * k_value_bytes + ids * k_index_bytes + (ids + 1) * k_index_bytes;
}

std::vector<CostRow> cost_rows(std::uint64_t n, std::uint64_t V, std::uint64_t d) {
    const std::uint64_t ids = n * k_index_bytes;   // the ids, read to place rows or ones
    const std::uint64_t rows = n * d * k_value_bytes;  // n rows of d floats: out, G, or rows of E
    const std::uint64_t table = V * d * k_value_bytes;  // E, or the dense gradient dE
    const std::uint64_t dense_x = n * V * k_value_bytes;
    const std::uint64_t csr_x = csr_onehot_bytes(n);
    using M = CostMethod;
    using P = CostPass;
    return {
        // out[i] = E[ids[i]]: read n ids and n rows, write n rows; no arithmetic.
        {M::lookup, P::forward, 0, 0, 0, ids + rows, rows, 0},
        // X = one_hot(ids) written in full, then X @ E reads X and all of E.
        {M::onehot_dense, P::forward, n * V * d, n * (V - 1) * d, 0, ids + dense_x + table, dense_x + rows, dense_x},
        // CSR X holds the n ones; X @ E multiplies each used row of E by 1.
        {M::onehot_sparse, P::forward, n * d, 0, 0, ids + csr_x + rows, csr_x + rows, csr_x},
        // dE = 0, then dE[ids[i]] += G[i]: every row read and written back once more.
        {M::lookup, P::backward, 0, 0, n * d, ids + rows + rows, table + rows, 0},
        // dE = Xᵀ @ G, X kept from the forward pass: each of dE's V x d entries sums n products.
        {M::onehot_dense, P::backward, V * n * d, (V - 1) * n * d, 0, dense_x + rows, table, dense_x},
        // CSR Xᵀ @ G: the scatter-add again, each row of G multiplied by 1.
        {M::onehot_sparse, P::backward, n * d, 0, 0, csr_x + rows + rows, table + rows, csr_x},
    };
}

CostLesson run_cost_lesson(const CostRequest& request) {
    return {request, cost_rows(request.ids, request.vocab_size, request.dim)};
}

}  // namespace embdemo
