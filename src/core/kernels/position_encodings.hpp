// Positions that are not a learned table (embdemo positions --encoding):
// - sinusoidal: the fixed table of "Attention Is All You Need", PE[p, 2i] = sin(p / 10000^(2i/d)),
//   PE[p, 2i+1] = cos(p / 10000^(2i/d)). Still a table, looked up and added like a learned one.
// - rope: rotary positions in the rotate-half form of the book's Llama conversion (theta base
//   10,000): row x at position t becomes x * cos(t * theta) + rotate_half(x) * sin(t * theta), with
//   rotate_half(x) = cat(-x[d/2:], x[:d/2]) and theta_j = 10000^(-2j/d) for both halves. Nothing is
//   added and there is no table: the position turns the row.
// - alibi: attention with linear biases (Press et al. 2022): the rows are left as they are, and
//   each head h adds m_h * (j - i) to the score of query i and key j <= i (the causal form; the
//   paper's figure writes -m|i - j|). That bias is a frozen lookup indexed by the distance
//   k = i - j: D[k, h] = m_h * (-k), no parameter and no gradient. The slopes are the paper's
//   get_slopes: m_h = 2^(-8h/H) for h = 1..H when H is a power of two, otherwise the slopes of the
//   largest power of two c below H, then every other slope of 2c, each computed in double as
//   Python computes them and rounded once to float32 (torch.tensor(get_slopes(H))).
// The angles are computed in double and rounded once to float32; PyTorch computes them in float32
// with its own sin/cos, so the two agree to a few float32 ulps, not bit for bit (tested against
// recorded torch values with a stated tolerance). Pure.
#pragma once

#include <cstddef>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

enum class PositionEncoding { learned, sinusoidal, rope, alibi };

// What each encoding is, one row each: the CLI's names and checks, the lesson's run and its
// views, and the tests' random cases all read this table, so a new encoding is a new row.
struct PositionEncodingTraits {
    PositionEncoding encoding;
    const char* name;
    bool has_table;      // a C x d table P, looked up and added to the rows (learned, sinusoidal)
    bool drawn;          // P is drawn from the generator after E (learned)
    bool turns_rows;     // the rows are rotated by their position, column pairs (rope: even d)
    bool biases_scores;  // the rows stay; a bias goes to the attention scores (alibi)
};
inline constexpr PositionEncodingTraits k_position_encodings[] = {
    {PositionEncoding::learned, "learned", true, true, false, false},
    {PositionEncoding::sinusoidal, "sinusoidal", true, false, false, false},
    {PositionEncoding::rope, "rope", false, false, true, false},
    {PositionEncoding::alibi, "alibi", false, false, false, true},
};
const PositionEncodingTraits& traits_of(PositionEncoding encoding);
const char* encoding_name(PositionEncoding encoding);  // "learned", "sinusoidal", "rope", "alibi"

inline constexpr double k_rope_theta_base = 10000.0;

// PE, context x dim (an odd dim ends with a sin column).
Matrix sinusoidal_table(std::size_t context, std::size_t dim);

// theta_j for j < dim / 2.
std::vector<double> rope_frequencies(std::size_t dim);

// Row `row` of `rows` (dim even) rotated to position `position`, written to `out`.
void rope_rotate_row(const float* row, std::size_t dim, std::size_t position, float* out);

// Every row i of `rows` rotated to its position i mod seq (a B x T batch flattened).
Matrix rope_rotate(const Matrix& rows, std::size_t seq);

// The attention score of token rows a at position p and b at position q after rotation:
// sum_j rot(a, p)[j] * rot(b, q)[j], accumulated in double.
double rope_score(const float* a, std::size_t p, const float* b, std::size_t q, std::size_t dim);

// ALiBi's slopes m_1..m_H (H >= 1), float32.
std::vector<float> alibi_slopes(std::size_t heads);

// D, seq x H: D[k, h] = m_h * (-k), the bias of a key k positions before its query (-k an
// integer made float, so D[0, h] is +0).
Matrix alibi_distance_table(const std::vector<float>& slopes, std::size_t seq);

}  // namespace embdemo
