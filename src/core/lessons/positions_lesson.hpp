// `embdemo positions`: a second lookup table, added. The token table E = nn.Embedding(V, d) is
// drawn first, the position table P = nn.Embedding(C, d) right after it from the same generator
// (GPT-2's wte and wpe, the book's chapter-2 token_embeddings + pos_embeddings), and the input
// of the first block is E[ids] + P[0..T), every row of a batch getting the same P. Each lookup is
// also computed as its one-hot product, to show that both tables are ordinary embeddings.
// Pure: no printing, no files.
#pragma once

#include <cstdint>
#include <optional>

#include "core/kernels/embedding.hpp"
#include "core/table_sizes.hpp"
#include "core/gpt2/data_loader.hpp"
#include "core/ids.hpp"
#include "core/kernels/position_encodings.hpp"
#include "core/matrix.hpp"

namespace embdemo {

struct PositionsRequest : TableSizes {
    IdBatch ids;                  // B x T (or a flat T); the data loader's first batch with a text
    std::uint64_t context = 0;    // C >= T, rows of P (the caller checks C >= T)
    bool context_inferred = false;  // C defaulted to T
    PositionEncoding encoding = PositionEncoding::learned;
    bool encoding_given = false;         // --encoding: also compare the three encodings
};

// RoPE's scores q . k for the same two token rows placed `offsets[k]` apart, starting at each of
// `starts`: scores[k][s]. Equal along a row (the offset alone decides), up to float32 rounding.
struct RopeScores {
    std::size_t first = 0, second = 0;  // flat positions of the two tokens in ids
    std::vector<std::size_t> starts;
    std::vector<std::size_t> offsets;
    std::vector<std::vector<double>> scores;
    double widest_spread = 0.0;         // the largest max - min along a row
};

// The output rows under each encoding, for the side-by-side comparison.
struct EncodingOutputs {
    Matrix learned;     // tok + P[t], P = nn.Embedding(C, d) drawn after E
    Matrix sinusoidal;  // tok + PE[t]
    Matrix rope;        // RoPE(tok, t); empty for an odd d, whose columns do not pair up
};

// The same token id at two positions: the clearest sign that the position table matters.
struct RepeatedToken {
    std::uint64_t id = 0;
    std::size_t first = 0;   // flat positions in ids (row-major)
    std::size_t second = 0;
    std::size_t differing_columns = 0;  // of d, where output rows first and second differ
};

struct PositionsLesson {
    PositionsRequest request;
    Matrix weight;                  // E, V x d
    Matrix position_weight;         // P, C x d, drawn after E
    Matrix token_lookup;            // E[ids], n x d (n = B * T)
    Matrix position_lookup;         // P[0..T), T x d: pos(torch.arange(T))
    Matrix token_onehot;            // one_hot(ids) @ E, n x d
    Matrix position_onehot;         // one_hot(arange(T), C) @ P, T x d
    Matrix output;                  // E[ids] + P[t] for each row, n x d
    Matrix onehot_output;           // the same sum from the two one-hot products
    Comparison token_check;         // token_lookup vs token_onehot
    Comparison position_check;      // position_lookup vs position_onehot
    Comparison output_check;        // output vs onehot_output
    std::optional<RepeatedToken> repeated;  // the first id seen at two different positions t
    // rope: output is RoPE(tok, t) and onehot_output RoPE(one_hot(ids) @ E, t); there is no P.
    std::optional<RopeScores> rope_scores;
    std::optional<EncodingOutputs> compared;  // with encoding_given
};

// The position of flat row i of a B x T batch: t = i mod T.
inline std::size_t position_of(const IdBatch& ids, std::size_t flat) { return flat % ids.seq; }

// The request must be valid: every id < V, C >= T, sizes within the caps.
PositionsLesson run_positions_lesson(const PositionsRequest& request);

}  // namespace embdemo
