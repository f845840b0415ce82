// The loss and gradient of train's bigram and tied models on one batch of next-token pairs,
// with the bits of the plain computation (core/lessons/train_lesson.cpp's model_grad: the whole
// n x V logits, F.cross_entropy, autograd's products) but less of its work:
// - a row of logits depends on its input alone (bigram: E[x]; tied: E[x] @ E.T), so each
//   distinct input's log-softmax is computed once, and the rows of dlogits, which differ only at
//   their targets, are written from it;
// - tied's gradient through the lookup, dlogits @ E, is computed once per distinct
//   (input, target) pair, the rows that alone differ;
// - every buffer lives as long as the batch: a step allocates nothing (fresh matrices of a few
//   MB are fresh pages, and their faults cost more than the arithmetic).
// The BLAS sums a row of a product in an order that does not depend on the other rows; the
// caller checks that (and everything else) against the plain computation on a batch's first step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/matrix.hpp"

namespace embdemo {

class NextTokenGrad {
public:
    // inputs[i] -> targets[i], every id < vocab_size, at least one pair. d: E's columns.
    NextTokenGrad(bool tied, const TokenIds& inputs, const TokenIds& targets, std::size_t vocab_size, std::size_t d);

    // The mean cross-entropy on the pairs at `weight`, and its gradient with respect to E in
    // `grad` (V x d, overwritten): the plain computation's loss and grad bit for bit.
    float loss_and_grad(const Matrix& weight, Matrix& grad);

private:
    void forward(const Matrix& weight);
    void bigram_grad(Matrix& grad) const;
    void tied_grad(const Matrix& weight, Matrix& grad);
    float at_target(std::size_t slot, std::size_t target) const;
    void dlogits_row(std::size_t slot, std::size_t target, float* out) const;

    bool m_tied;
    std::size_t m_v, m_d, m_n;
    std::vector<std::uint32_t> m_slot;     // per pair, its input's place among the distinct inputs
    std::vector<std::uint32_t> m_target;   // per pair
    TokenIds m_inputs;                     // per pair
    TokenIds m_distinct;                   // the distinct inputs, in order of first appearance
    std::vector<std::uint32_t> m_pair_of;  // tied: per pair, its place among the distinct pairs
    std::vector<std::uint32_t> m_pair_slot, m_pair_target;  // tied: the distinct pairs
    Matrix m_logits;      // distinct inputs x V
    Matrix m_log_probs;   // distinct inputs x V
    Matrix m_offtarget;   // distinct inputs x V: a dlogits row off its target, -(p * go)
    Matrix m_probs;       // distinct inputs x V: softmax
    std::vector<float> m_work;
    double m_total = 0.0;
    // tied only
    Matrix m_rows;        // E at the distinct inputs
    Matrix m_pair_dlogits, m_block, m_through, m_coef;
    std::vector<const float*> m_h;
};

}  // namespace embdemo
