// `embdemo tied`: the output layer reuses E. GPT-2 (and the book's chapter 4) tie
// out_head.weight = tok_emb.weight: the logits for the next token are H @ E.T, n x V, where H is
// the final hidden state. nn.Linear(d, V) stores its weight as V x d (out x in), which is E's own
// shape, so the output side takes E as it is; on the input side the equivalent Linear(V, d)
// needed W = E.T. Also the parameter counts with and without tying, here and for GPT-2 small.
// A chapter of text makes n x V logits too many to hold (5,145 x 50,257 is a gigabyte): they are
// made a block of rows of H at a time (core/kernels/linear_blocks.hpp), each row reduced to what
// the views use, and only the rows a summarised view prints are kept.
// Pure: no printing, no files.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.hpp"
#include "core/kernels/linear_blocks.hpp"
#include "core/table_sizes.hpp"
#include "core/matrix.hpp"

namespace embdemo {

// The logits are kept whole up to this many (n x V), the most the machine formats print
// (k_max_printed_values); past it only their first and last k_logit_edge_rows rows, as
// PyTorch prints a large tensor (edgeitems=3), which is all the summarised views show.
inline constexpr std::uint64_t k_max_held_logits = std::uint64_t{1} << 24;
inline constexpr std::size_t k_logit_edge_rows = 3;

// The top-K table (n x K ids and logits) is capped like a printed matrix: 2^24 entries, 256 MiB.
inline constexpr std::uint64_t k_max_top_entries = std::uint64_t{1} << 24;

struct TiedRequest : TableSizes {
    IdBatch ids;
    std::size_t top = 5;        // 1 <= K <= V (the caller checks)
    bool hidden_given = false;  // H from a file rather than E[ids]
};

struct TopLogit {
    std::uint64_t id = 0;
    float logit = 0.0f;
};

// One row's top K, highest first: a view into a TopTable.
struct TopRow {
    const TopLogit* first = nullptr;
    std::size_t count = 0;

    const TopLogit* begin() const { return first; }
    const TopLogit* end() const { return first + count; }
    std::size_t size() const { return count; }
    bool empty() const { return count == 0; }
    const TopLogit& front() const { return first[0]; }
    const TopLogit& operator[](std::size_t r) const { return first[r]; }
};

// Every row's top K in one n x K buffer: a row of its own per position would cost a heap block
// each, more than the entries themselves for a long text and a small K.
struct TopTable {
    std::size_t k = 0;
    std::vector<TopLogit> entries;  // n x K, row-major

    std::size_t size() const { return k == 0 ? 0 : entries.size() / k; }
    TopRow operator[](std::size_t row) const { return {entries.data() + row * k, k}; }
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

// Rows of the n x V logits: all of them, or the first and last few (see k_max_held_logits).
struct HeldLogits {
    std::size_t rows = 0;           // n, held or not
    std::vector<std::size_t> held;  // the rows kept, ascending
    Matrix values;                  // held.size() x V; the whole n x V logits when whole()

    bool whole() const { return held.size() == rows; }
    // Where row `row` of the logits sits in `values`; `held.size()` when it was not kept.
    std::size_t index_of(std::size_t row) const;
};

// Which rows of n logits rows of V a run keeps: all when n x V <= k_max_held_logits.
std::vector<std::size_t> held_logit_rows(std::size_t rows, std::size_t vocab_size);

struct TiedLesson {
    TiedRequest request;
    Matrix weight;       // E, V x d: tok_emb.weight and out_head.weight at once
    Matrix hidden;       // H, n x d: E[ids] by default
    HeldLogits logits;   // H @ E.T = F.linear(H, E), n x V, whole or its edge rows
    TopTable top;                            // per row of H, the K largest logits
    Matrix top_logits;                       // n x K: those logits as one tensor, topk's values
    std::vector<std::size_t> own_rank;       // with H = E[ids]: the rank of ids[i] in row i (0 = top)
    // Per row i, the sum over j of bits(logits[i][j]) * (j + 1), in int64 with wrap-around as
    // torch's int64 arithmetic has it: a fingerprint of a row's bits that the python export
    // checks when the logits are too many to list (any changed bit or swapped pair changes it).
    std::vector<std::int64_t> row_bit_sums;
    std::size_t rows_used = 0;               // distinct ids: rows the input side's backward touches
    ParameterCounts here;                    // the embedding and output layer of this run: 2Vd, Vd
    ParameterCounts gpt2;
};

// nn.Linear(in, out, bias=False) with its out x in weight, as it stores it: F.linear(x, weight)
// through the BLAS as PyTorch calls it, so the result is PyTorch's bit for bit. Whole: n x out.
Matrix linear_forward(const Matrix& x, const Matrix& weight);

// `hidden` is H from a file (n x d) or empty for E[ids]. The request must be valid.
// `blocks` sets the threads and progress of the logits, a block of rows at a time.
TiedLesson run_tied_lesson(const TiedRequest& request, Matrix hidden, const LinearBlockSettings& blocks = {});

}  // namespace embdemo
