// `embdemo tied`: the output layer reuses E. GPT-2 (and the book's chapter 4) tie
// out_head.weight = tok_emb.weight: the logits for the next token are H @ E.T, n x V, where H is
// the final hidden state. nn.Linear(d, V) stores its weight as V x d (out x in), which is E's own
// shape, so the output side takes E as it is; on the input side the equivalent Linear(V, d)
// needed W = E.T. Also the parameter counts with and without tying, here and for GPT-2 small.
// Pure: no printing, no files.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.hpp"
#include "core/table_sizes.hpp"
#include "core/matrix.hpp"

namespace embdemo {

struct TiedRequest : TableSizes {
    IdBatch ids;
    std::size_t top = 5;        // 1 <= K <= V (the caller checks)
    bool hidden_given = false;  // H from a file rather than E[ids]
};

struct TopLogit {
    std::uint64_t id = 0;
    float logit = 0.0f;
};

// Parameter counts of a model with untied and tied input/output tables.
struct ParameterCounts {
    std::uint64_t untied = 0;
    std::uint64_t tied = 0;  // untied - V * d
};

// GPT-2 small as the book's chapter 4 builds it (GPT_CONFIG_124M, qkv_bias=False).
struct Gpt2Config {
    std::uint64_t vocab = 50257;
    std::uint64_t context = 1024;
    std::uint64_t dim = 768;
    std::uint64_t layers = 12;
};

// Per block: W_q, W_k, W_v (3 d^2, no bias), the attention's out_proj (d^2 + d), the feed-forward
// d -> 4d -> d (8 d^2 + 5d) and two LayerNorms (4d): 12 d^2 + 10 d. The model: token and position
// tables (V d + C d), L blocks, the final LayerNorm (2d) and out_head (V d, no bias).
ParameterCounts gpt2_parameters(const Gpt2Config& config);

struct TiedLesson {
    TiedRequest request;
    Matrix weight;   // E, V x d: tok_emb.weight and out_head.weight at once
    Matrix hidden;   // H, n x d: E[ids] by default
    Matrix logits;   // H @ E.T = F.linear(H, E), n x V
    std::vector<std::vector<TopLogit>> top;  // per row of H, the K largest logits
    std::vector<std::size_t> own_rank;       // with H = E[ids]: the rank of ids[i] in row i (0 = top)
    std::size_t rows_used = 0;               // distinct ids: rows the input side's backward touches
    ParameterCounts here;                    // the embedding and output layer of this run: 2Vd, Vd
    ParameterCounts gpt2;
};

// out[i][k] = sum over j of x[i][j] * weight[k][j], in order of j from +0.0, one rounding per
// multiply and per add: nn.Linear(in, out, bias=False) with its out x in weight, as it stores it.
// Builds weightᵀ for speed (see the .cpp), so it holds a second copy of the weight.
Matrix linear_forward(const Matrix& x, const Matrix& weight);

// `hidden` is H from a file (n x d) or empty for E[ids]. The request must be valid.
TiedLesson run_tied_lesson(const TiedRequest& request, Matrix hidden);

}  // namespace embdemo
