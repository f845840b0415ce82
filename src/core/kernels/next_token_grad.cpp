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
        m_dlogits = Matrix(m_n, m_v);
        m_pair_dlogits = Matrix(m_pair_slot.size(), m_v);
        m_looked_up = Matrix(m_n, m_d);
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

// logits = F.linear(H, E): E's gradient is the head's dlogits.T @ H (the BLAS's one call on
// every pair, as autograd makes it) plus the lookup's scatter of dlogits @ E, whose rows are
// computed once per distinct (input, target) pair.
void NextTokenGrad::tied_grad(const Matrix& weight, Matrix& grad) {
    for (std::size_t i = 0; i < m_n; ++i) dlogits_row(m_slot[i], m_target[i], row_of(m_dlogits, i));
    for (std::size_t p = 0; p < m_pair_slot.size(); ++p) dlogits_row(m_pair_slot[p], m_pair_target[p], row_of(m_pair_dlogits, p));
    for (std::size_t i = 0; i < m_n; ++i) std::memcpy(row_of(m_looked_up, i), weight.row(m_inputs[i]), m_d * sizeof(float));
    const Matrix upstream = torch_mm(m_pair_dlogits, weight);
    grad = torch_mm_transposed_left(m_dlogits, m_looked_up);
    m_through.values.assign(m_v * m_d, 0.0f);
    m_through.rows = m_v;
    m_through.cols = m_d;
    for (std::size_t i = 0; i < m_n; ++i) add_row_fma(row_of(m_through, m_inputs[i]), upstream.row(m_pair_of[i]), m_d);
    for (std::size_t k = 0; k < grad.values.size(); ++k) grad.values[k] += m_through.values[k];
}

}  // namespace embdemo
