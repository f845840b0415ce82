// Positions that are not a learned table (embdemo positions --encoding):
// - sinusoidal: the fixed table of "Attention Is All You Need", PE[p, 2i] = sin(p / 10000^(2i/d)),
//   PE[p, 2i+1] = cos(p / 10000^(2i/d)). Still a table, looked up and added like a learned one.
// - rope: rotary positions in the rotate-half form of the book's Llama conversion (theta base
//   10,000): row x at position t becomes x * cos(t * theta) + rotate_half(x) * sin(t * theta), with
//   rotate_half(x) = cat(-x[d/2:], x[:d/2]) and theta_j = 10000^(-2j/d) for both halves. Nothing is
//   added and there is no table: the position turns the row.
// The angles are computed in double and rounded once to float32; PyTorch computes them in float32
// with its own sin/cos, so the two agree to a few float32 ulps, not bit for bit (tested against
// recorded torch values with a stated tolerance). Pure.
#pragma once

#include <cstddef>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

enum class PositionEncoding { learned, sinusoidal, rope };
const char* encoding_name(PositionEncoding encoding);  // "learned", "sinusoidal", "rope"

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

}  // namespace embdemo
