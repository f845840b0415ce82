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

inline constexpr std::uint64_t k_default_alibi_heads = 8;  // the paper's figure

struct PositionsRequest : TableSizes {
    IdBatch ids;                  // B x T (or a flat T); the data loader's first batch with a text
    std::uint64_t context = 0;    // C >= T, rows of P (the caller checks C >= T)
    bool context_inferred = false;  // C defaulted to T
    PositionEncoding encoding = PositionEncoding::learned;
    bool encoding_given = false;         // --encoding: also compare the encodings
    std::uint64_t heads = k_default_alibi_heads;  // H, alibi's attention heads
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

// ALiBi on the first sequence (T positions, H heads). The bias of query i and key j <= i is the
// lookup D[i - j] (one row of H values per causal pair, P = T(T+1)/2 pairs in row-major order),
// computed again as one_hot(i - j, T) @ D. The variants: BLOOM adds m * j and MPT m * (j - (T-1))
// instead of m * (j - i), the same along each query row up to a constant that softmax ignores;
// on the scores q . k of the token rows themselves (no projection, no 1/sqrt(d)), biased by
// each form, the float32 bits differ while the probabilities agree.
struct AlibiBias {
    Matrix slopes;                       // m_h, 1 x H
    Matrix distances;                    // D, T x H, frozen
    std::vector<std::uint64_t> pair_distance;  // i - j for each causal pair, row-major
    Matrix bias;                         // D[i - j], P x H
    Matrix bias_onehot;                  // one_hot(i - j, T) @ D
    Comparison check;                    // bias vs bias_onehot
    Matrix scores;                       // T x T: q . k, F.linear(x, x) of the first sequence's rows x
    std::size_t compared_scores = 0;     // H * P biased scores per form
    std::size_t differing_bloom = 0;     // biased scores whose bits differ from this form's
    std::size_t differing_mpt = 0;
    double widest_probability_gap = 0.0; // max |p - p'| over both variants, softmax in double
};

// The output rows under each encoding, for the side-by-side comparison.
struct EncodingOutputs {
    Matrix learned;     // tok + P[t], P = nn.Embedding(C, d) drawn after E
    Matrix sinusoidal;  // tok + PE[t]
    Matrix rope;        // RoPE(tok, t); empty for an odd d, whose columns do not pair up
    // alibi leaves the rows as tok: no matrix of its own
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
    // alibi: output and onehot_output are the token rows and their one-hot product; there is no P.
    std::optional<AlibiBias> alibi;
    std::optional<EncodingOutputs> compared;  // with encoding_given
};

// The position of flat row i of a B x T batch: t = i mod T.
inline std::size_t position_of(const IdBatch& ids, std::size_t flat) { return flat % ids.seq; }

// The causal pairs (i, j <= i) of a sequence of T: T(T+1)/2.
inline std::uint64_t causal_pairs(std::uint64_t seq) { return seq * (seq + 1) / 2; }

// The request must be valid: every id < V, C >= T, sizes within the caps.
PositionsLesson run_positions_lesson(const PositionsRequest& request);

}  // namespace embdemo
