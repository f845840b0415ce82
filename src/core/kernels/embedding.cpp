// The forward and backward kernels of an embedding, side by side with one loop skeleton:
//
//   lookup (forward)                       embedding_backward
//   for i in 0..n:                         for i in 0..n:
//     k = ids[i]                             k = ids[i]   (skip the padding row)
//     for j in 0..d:                         for j in 0..d:
//       out[i][j] = E[k][j]                    dE[k][j] = fma(G[i][j], scale_i, dE[k][j])
//
//   one_hot(ids) · E (forward)             one_hot(ids)ᵀ · G
//   for i in 0..n, j in 0..d:              for k in 0..V, j in 0..d:
//     sum over k of X[i][k] * E[k][j]        sum over i of X[i][k] * G[i][j]
//
// This translation unit is compiled with -ffp-contract=off: the fma PyTorch performs is written
// out, and every other multiply and add is rounded on its own.
#include "core/kernels/embedding.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/kernels/onehot_products.hpp"
#include "core/kernels/rows.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {
namespace {

// Rows of the result summed together while E streams past: their partial sums (8 x d floats)
// stay in cache, so E is read once per 8 ids instead of once per id.
constexpr std::size_t k_row_tile = 8;

// product_threads counts work in a product's multiply-adds (0.04 ns each on the development
// machine); a large transpose copies a float in about 0.6 ns, as long as 16 of them, so GPT-2's
// table (25 ms of copying) gets all cores.
constexpr std::uint64_t k_product_terms_per_copied_float = 16;

std::uint32_t bits_of(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// C = A·B with every C[i][j] = sum over k of A[i][k] * B[k][j], added in order k = 0, 1, ...
// starting from +0.0, one rounding per multiply and per add. For a one-hot row of A all terms but
// one are 0 * B[k][j] = ±0 (for finite B), which leaves +0.0 unchanged, and the one left is
// 1 * B[id][j] = B[id][j] exactly; adding ±0 after it changes nothing (unless it is -0.0, see
// difference.hpp), so the sum is the looked-up value bit for bit. That argument needs the fixed
// order, which is why no term is skipped, reordered or fused here.
// c[j] = a * b[j] + c[j] for j < d: each product rounded, then added with the product as the
// first operand of the add. When both are NaN, x86 keeps the first operand's payload, and a
// compiler may swap the operands of a plain `+` (GCC and clang did differently), so on x86 the
// add is written in assembly, as the dense kernel's is (onehot_dense.cpp): both then give the
// same bits whatever compiled them.
void add_products(float* c, float a, const float* b, std::size_t d) {
#if defined(__x86_64__)
    std::size_t j = 0;
    const __m128 a4 = _mm_set1_ps(a);
    for (; j + 4 <= d; j += 4) {
        __m128 term = _mm_mul_ps(a4, _mm_loadu_ps(b + j));
        __asm__("addps %1, %0" : "+x"(term) : "x"(_mm_loadu_ps(c + j)));
        _mm_storeu_ps(c + j, term);
    }
    for (; j < d; ++j) {
        float term = a * b[j];
        __asm__("addss %1, %0" : "+x"(term) : "x"(c[j]));
        c[j] = term;
    }
#else
    for (std::size_t j = 0; j < d; ++j) c[j] = a * b[j] + c[j];
#endif
}

// The loops run k outside i and j only so that B is read row by row, once per tile of rows, and
// the innermost loop is contiguous (the compiler vectorises it across j, which never mixes two
// outputs); each C[i][j] still receives its terms in the same order of k.
Matrix product_in_order_of_k(const Matrix& a, const Matrix& b) {
    Matrix c(a.rows, b.cols);  // all +0.0: where every sum starts
    const std::size_t d = b.cols;
    for (std::size_t i0 = 0; i0 < a.rows; i0 += k_row_tile) {
        const std::size_t i_end = std::min(a.rows, i0 + k_row_tile);
        for (std::size_t k = 0; k < a.cols; ++k) {
            const float* b_row = b.row(k);
            for (std::size_t i = i0; i < i_end; ++i) {
                const float a_ik = a.at(i, k);
                float* c_row = c.values.data() + i * d;
                add_products(c_row, a_ik, b_row, d);
            }
        }
    }
    return c;
}

std::vector<std::size_t> id_counts(const TokenIds& ids, std::size_t vocab_size) {
    std::vector<std::size_t> counts(vocab_size, 0);
    for (const std::uint64_t id : ids) ++counts[id];
    return counts;
}


}  // namespace

Matrix one_hot(const TokenIds& ids, std::size_t vocab_size) {
    Matrix x(ids.size(), vocab_size);  // all zeros
    for (std::size_t i = 0; i < ids.size(); ++i) x.at(i, ids[i]) = 1.0f;
    return x;
}

Matrix one_hot_columns(const TokenIds& ids, std::size_t first, std::size_t count) {
    Matrix x(ids.size(), count);  // all zeros
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] >= first && ids[i] - first < count) x.at(i, static_cast<std::size_t>(ids[i] - first)) = 1.0f;
    }
    return x;
}

Matrix lookup(const Matrix& weight, const TokenIds& ids) {
    Matrix result(ids.size(), weight.cols);
    // The whole lookup: row i of the result is a copy of row ids[i] of E. Nothing is multiplied.
    gather_rows(weight.values.data(), weight.cols, ids.data(), ids.size(), result.values.data());
    return result;
}

Matrix matmul(const Matrix& a, const Matrix& b) {
    return product_in_order_of_k(a, b);
}

Matrix transpose(const Matrix& m) {
    // Bands of 256 source rows, read front to back, each written as a 256-column stripe of every
    // output row (transpose_floats); the bands are shared between threads, each a plain copy, so
    // the bits are the same on any number of them. Bands of output rows instead read each source
    // row in pieces and took twice as long for GPT-2's table.
    constexpr std::size_t k_rows_per_band = 256;
    Matrix t(m.cols, m.rows);
    OneHotProductSettings settings;
    settings.threads = product_threads(k_product_terms_per_copied_float, m.rows, m.cols);
    for_each_block(cut_into_blocks(m.rows, k_rows_per_band), m.rows, settings, [&](const RowBlock& band) {
        transpose_floats(m.values.data() + band.first * m.cols, m.cols, band.count, m.cols,
                         t.values.data() + band.first, m.rows);
    });
    return t;
}

Comparison compare_exact(const Matrix& a, const Matrix& b) {
    Comparison result;
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        const float x = a.values[i];
        const float y = b.values[i];
        if (bits_of(x) == bits_of(y)) continue;  // also equal: inf and inf, the same NaN
        result.identical = false;
        ++result.differing;
        const double diff = std::fabs(static_cast<double>(x) - static_cast<double>(y));
        if (std::isnan(diff)) {
            result.max_abs_diff = std::numeric_limits<double>::quiet_NaN();
        } else if (!std::isnan(result.max_abs_diff) && diff > result.max_abs_diff) {
            result.max_abs_diff = diff;
        }
    }
    return result;
}

Matrix embedding_backward(const Matrix& upstream, const TokenIds& ids, std::size_t vocab_size,
                          const EmbeddingOptions& options) {
    const std::size_t d = upstream.cols;
    Matrix grad(vocab_size, d);  // +0.0 everywhere: rows that no id uses stay exactly 0
    const std::vector<std::size_t> counts =
        options.scale_grad_by_freq ? id_counts(ids, vocab_size) : std::vector<std::size_t>{};
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto k = static_cast<std::size_t>(ids[i]);
        if (options.padding_row == k) continue;  // padding_idx receives no gradient
        const float scale = counts.empty() ? 1.0f : frequency_scale(counts[k]);
        const float* g_i = upstream.row(i);
        float* dE_k = grad.values.data() + k * d;
        // PyTorch adds with grad_weight[k].add_(grad[i], alpha=scale). Its AVX2 kernel fuses that
        // multiply-add in the vectorised body, and GCC contracted the scalar tail the same way,
        // so every element is one fma whatever d is (checked against torch for d = 1..40).
        // Repeated ids accumulate here in the order they appear; with scale 1 the fma is an add.
        for (std::size_t j = 0; j < d; ++j) dE_k[j] = std::fma(g_i[j], scale, dE_k[j]);
    }
    return grad;
}

Matrix onehot_backward(const Matrix& upstream, const TokenIds& ids, std::size_t vocab_size,
                       const OneHotProductSettings& settings) {
    // W.grad after (one_hot(ids).float() @ W).backward(G): autograd's mm_mat2_backward computes
    // X.T @ G, or (G.T @ X).T when W is "column-major" (V = d = 1), through the BLAS. Positions
    // with another id add 0 * G[t, j] = ±0, which changes nothing when G is finite, and the
    // matching positions add 1 * G[t, j] exactly: that is why, for a plain embedding, this equals
    // the scatter-add bit for bit. It ignores padding_idx and scale_grad_by_freq.
    const std::size_t n = ids.size();
    const std::size_t d = upstream.cols;
    if (vocab_size == 1 && d == 1) return transpose(torch_mm_transposed_left(upstream, one_hot(ids, 1)));
    if (n * vocab_size <= settings.block_values) return torch_mm_transposed_left(one_hot(ids, vocab_size), upstream);
    // Row k of dE reads only column k of X (row k of X.T): a block of dE's rows is the same call
    // with X's columns first .. first + count - 1 as the operand. Each output is still the BLAS's
    // sum over the n positions in the same order, so the bits are the whole call's.
    Matrix grad(vocab_size, d);
    for_each_block(cut_into_blocks(vocab_size, aligned_block_rows(n, settings.block_values)), vocab_size, settings,
                   [&](const RowBlock& block) {
                       const Matrix rows = torch_mm_transposed_left(one_hot_columns(ids, block.first, block.count), upstream);
                       std::memcpy(grad.values.data() + block.first * d, rows.values.data(),
                                   rows.values.size() * sizeof(float));
                   });
    return grad;
}

Matrix onehot_backward(const Matrix& upstream, const TokenIds& ids, std::size_t vocab_size) {
    return onehot_backward(upstream, ids, vocab_size, OneHotProductSettings{});
}

float frequency_scale(std::size_t count) { return static_cast<float>(1.0 / static_cast<double>(count)); }

}  // namespace embdemo
