// Compiled with -ffp-contract=off: each fma below is written out, as the plain kernels write it.
#include "core/kernels/next_token_grad.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "core/cpu_features.hpp"
#include "core/kernels/cross_entropy.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {
namespace {

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void add_row_fma_avx2(float* dst, const float* src, std::size_t d) {
    const __m256 one = _mm256_set1_ps(1.0f);
    std::size_t j = 0;
    for (; j + 8 <= d; j += 8) {
        _mm256_storeu_ps(dst + j, _mm256_fmadd_ps(_mm256_loadu_ps(src + j), one, _mm256_loadu_ps(dst + j)));
    }
    for (; j < d; ++j) dst[j] = _mm_cvtss_f32(_mm_fmadd_ss(_mm_set_ss(src[j]), _mm_set_ss(1.0f), _mm_set_ss(dst[j])));
}
#endif

// dst[j] = fma(src[j], 1, dst[j]): embedding_backward's add with scale 1 (the same single
// rounding, NaN payloads included, as the libm fma it calls per element), 8 lanes at a time on
// a CPU with FMA, chosen once at run time.
void add_row_fma(float* dst, const float* src, std::size_t d) {
#if defined(__x86_64__)
    static const bool fma = cpu_has_avx2() && cpu_has_fma();
    if (fma) {
        add_row_fma_avx2(dst, src, d);
        return;
    }
#endif
    for (std::size_t j = 0; j < d; ++j) dst[j] = std::fma(src[j], 1.0f, dst[j]);
}

// OpenBLAS 0.3.21's sgemm driver (driver/level3/level3.c) with the Sandybridge kernel's sizes,
// which embdemo pins (torch_matmul.cpp): k is cut into blocks of GEMM_Q = 384, the last two
// split evenly in multiples of GEMM_UNROLL_M = 16; within a block each output is a running sum
// from 0 of its products, a multiply and an add each, in order of k; the blocks' sums are added
// to C in turn (C starts at 0: beta = 0). Measured against the library on products of n = 1 to
// 20,478 rows.
constexpr std::size_t k_openblas_q = 384;
constexpr std::size_t k_openblas_unroll_m = 16;

std::size_t openblas_k_block(std::size_t left) {
    if (left >= 2 * k_openblas_q) return k_openblas_q;
    if (left > k_openblas_q) return (left / 2 + k_openblas_unroll_m - 1) / k_openblas_unroll_m * k_openblas_unroll_m;
    return left;
}

// One block of k of the head's dlogits.T @ H into `out` (V x d, overwritten): out[v][j] = the
// sum over the block's pairs i, in order and from 0, of coef[i][v] * h_i[j], each product
// rounded and then added. Tiles of 4 rows of v by 8 columns of j stay in registers for the
// whole block, as the BLAS's kernel keeps its own.
void block_products_scalar(const float* coef, std::size_t v_count, const float* const* h, std::size_t m,
                           std::size_t d, float* out, std::size_t v, std::size_t j) {
    float acc = 0.0f;
    for (std::size_t i = 0; i < m; ++i) acc = acc + coef[i * v_count + v] * h[i][j];
    out[v * d + j] = acc;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void block_products_avx2(const float* coef, std::size_t v_count, const float* const* h,
                                                         std::size_t m, std::size_t d, float* out) {
    constexpr std::size_t rows = 4, lanes = 8;
    std::size_t v0 = 0;
    for (; v0 + rows <= v_count; v0 += rows) {
        std::size_t j0 = 0;
        for (; j0 + lanes <= d; j0 += lanes) {
            __m256 acc0 = _mm256_setzero_ps(), acc1 = acc0, acc2 = acc0, acc3 = acc0;
            for (std::size_t i = 0; i < m; ++i) {
                const __m256 x = _mm256_loadu_ps(h[i] + j0);
                const float* c = coef + i * v_count + v0;
                acc0 = _mm256_add_ps(acc0, _mm256_mul_ps(_mm256_broadcast_ss(c), x));
                acc1 = _mm256_add_ps(acc1, _mm256_mul_ps(_mm256_broadcast_ss(c + 1), x));
                acc2 = _mm256_add_ps(acc2, _mm256_mul_ps(_mm256_broadcast_ss(c + 2), x));
                acc3 = _mm256_add_ps(acc3, _mm256_mul_ps(_mm256_broadcast_ss(c + 3), x));
            }
            _mm256_storeu_ps(out + (v0 + 0) * d + j0, acc0);
            _mm256_storeu_ps(out + (v0 + 1) * d + j0, acc1);
            _mm256_storeu_ps(out + (v0 + 2) * d + j0, acc2);
            _mm256_storeu_ps(out + (v0 + 3) * d + j0, acc3);
        }
        for (std::size_t v = v0; v < v0 + rows; ++v) {
            for (std::size_t j = j0; j < d; ++j) block_products_scalar(coef, v_count, h, m, d, out, v, j);
        }
    }
    for (; v0 < v_count; ++v0) {
        std::size_t j0 = 0;
        for (; j0 + lanes <= d; j0 += lanes) {
            __m256 acc = _mm256_setzero_ps();
            for (std::size_t i = 0; i < m; ++i) {
                acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_broadcast_ss(coef + i * v_count + v0), _mm256_loadu_ps(h[i] + j0)));
            }
            _mm256_storeu_ps(out + v0 * d + j0, acc);
        }
        for (std::size_t j = j0; j < d; ++j) block_products_scalar(coef, v_count, h, m, d, out, v0, j);
    }
}
#endif

void block_products(const float* coef, std::size_t v_count, const float* const* h, std::size_t m, std::size_t d,
                    float* out) {
#if defined(__x86_64__)
    static const bool avx2 = cpu_has_avx2();
    if (avx2) {
        block_products_avx2(coef, v_count, h, m, d, out);
        return;
    }
#endif
    for (std::size_t v = 0; v < v_count; ++v) {
        for (std::size_t j = 0; j < d; ++j) block_products_scalar(coef, v_count, h, m, d, out, v, j);
    }
}

float* row_of(Matrix& m, std::size_t r) { return m.values.data() + r * m.cols; }

}  // namespace

NextTokenGrad::NextTokenGrad(bool tied, const TokenIds& inputs, const TokenIds& targets, std::size_t vocab_size,
                             std::size_t d)
    : m_tied(tied), m_v(vocab_size), m_d(d), m_n(inputs.size()), m_inputs(inputs) {
    std::vector<std::int64_t> slot_of_row(vocab_size, -1);
    std::unordered_map<std::uint64_t, std::uint32_t> pair_index;
    for (std::size_t i = 0; i < m_n; ++i) {
        const std::uint64_t x = inputs[i];
        if (slot_of_row[x] < 0) {
            slot_of_row[x] = static_cast<std::int64_t>(m_distinct.size());
            m_distinct.push_back(x);
        }
        m_slot.push_back(static_cast<std::uint32_t>(slot_of_row[x]));
        m_target.push_back(static_cast<std::uint32_t>(targets[i]));
        if (tied) {
            const std::uint64_t key = x * vocab_size + targets[i];
            const auto found = pair_index.emplace(key, static_cast<std::uint32_t>(m_pair_slot.size()));
            if (found.second) {
                m_pair_slot.push_back(m_slot.back());
                m_pair_target.push_back(m_target.back());
            }
            m_pair_of.push_back(found.first->second);
        }
    }
    const std::size_t u = m_distinct.size();
    m_log_probs = Matrix(u, m_v);
    m_offtarget = Matrix(u, m_v);
    m_probs = Matrix(u, m_v);
    if (tied) {
        m_rows = Matrix(u, m_d);
        m_pair_dlogits = Matrix(m_pair_slot.size(), m_v);
    }
}

void NextTokenGrad::forward(const Matrix& weight) {
    const std::size_t u = m_distinct.size();
    const float* logits = nullptr;
    if (m_tied) {
        for (std::size_t s = 0; s < u; ++s) std::memcpy(row_of(m_rows, s), weight.row(m_distinct[s]), m_d * sizeof(float));
        m_logits = torch_linear(m_rows, weight);
        logits = m_logits.values.data();
    }
    const float go = cross_entropy_go(m_n);
    for (std::size_t s = 0; s < u; ++s) {
        const float* row = m_tied ? logits + s * m_v : weight.row(m_distinct[s]);
        float* probs = row_of(m_probs, s);
        softmax_row(row, m_v, row_of(m_log_probs, s), probs, m_work);
        float* off = row_of(m_offtarget, s);
        for (std::size_t j = 0; j < m_v; ++j) off[j] = -(probs[j] * go);
    }
    // The loss: cross_entropy's sum over the pairs in their order, in double.
    m_total = 0.0;
    for (std::size_t i = 0; i < m_n; ++i) m_total -= static_cast<double>(m_log_probs.at(m_slot[i], m_target[i]));
}

float NextTokenGrad::loss_and_grad(const Matrix& weight, Matrix& grad) {
    forward(weight);
    if (grad.rows != m_v || grad.cols != m_d) grad = Matrix(m_v, m_d);
    if (m_tied) {
        tied_grad(weight, grad);
    } else {
        bigram_grad(grad);
    }
    return static_cast<float>(m_total / static_cast<double>(m_n));
}

float NextTokenGrad::at_target(std::size_t slot, std::size_t target) const {
    const float go = cross_entropy_go(m_n);
    return std::fma(-m_probs.at(slot, target), go, go);
}

void NextTokenGrad::dlogits_row(std::size_t slot, std::size_t target, float* out) const {
    std::memcpy(out, m_offtarget.row(slot), m_v * sizeof(float));
    out[target] = at_target(slot, target);
}

// embedding_backward(dlogits, inputs): row x_i of dE gets dlogits row i added, pair after pair,
// each element by one fma; the target's element, which alone differs from the distinct input's
// row, is added on its own.
void NextTokenGrad::bigram_grad(Matrix& grad) const {
    std::fill(grad.values.begin(), grad.values.end(), 0.0f);
    for (std::size_t i = 0; i < m_n; ++i) {
        float* row = row_of(grad, m_inputs[i]);
        const std::size_t t = m_target[i];
        const float before = row[t];
        add_row_fma(row, m_offtarget.row(m_slot[i]), m_v);
        row[t] = std::fma(at_target(m_slot[i], t), 1.0f, before);
    }
}

// logits = F.linear(H, E): E's gradient is the head's dlogits.T @ H, summed as the BLAS sums
// it (openblas_k_block), plus the lookup's scatter of dlogits @ E, whose rows are computed once
// per distinct (input, target) pair.
void NextTokenGrad::tied_grad(const Matrix& weight, Matrix& grad) {
    for (std::size_t p = 0; p < m_pair_slot.size(); ++p) dlogits_row(m_pair_slot[p], m_pair_target[p], row_of(m_pair_dlogits, p));
    const Matrix upstream = torch_mm(m_pair_dlogits, weight);
    std::fill(grad.values.begin(), grad.values.end(), 0.0f);
    m_block.values.assign(m_v * m_d, 0.0f);
    m_block.rows = m_v;
    m_block.cols = m_d;
    m_coef.values.resize(k_openblas_q * m_v);
    m_coef.cols = m_v;
    m_h.resize(k_openblas_q);
    for (std::size_t first = 0; first < m_n;) {
        const std::size_t m = openblas_k_block(m_n - first);
        for (std::size_t i = 0; i < m; ++i) {
            dlogits_row(m_slot[first + i], m_target[first + i], row_of(m_coef, i));
            m_h[i] = weight.row(m_inputs[first + i]);
        }
        block_products(m_coef.values.data(), m_v, m_h.data(), m, m_d, m_block.values.data());
        for (std::size_t k = 0; k < grad.values.size(); ++k) grad.values[k] = grad.values[k] + m_block.values[k];
        first += m;
    }
    m_through.values.assign(m_v * m_d, 0.0f);
    m_through.rows = m_v;
    m_through.cols = m_d;
    for (std::size_t i = 0; i < m_n; ++i) add_row_fma(row_of(m_through, m_inputs[i]), upstream.row(m_pair_of[i]), m_d);
    for (std::size_t k = 0; k < grad.values.size(); ++k) grad.values[k] += m_through.values[k];
}

}  // namespace embdemo
