// The relations the grad lesson states about the rows of dE, as data the core computes and a
// test can re-check: "dE[k] = G[a]/2 + G[b]/2" on the embedding's line, "= G[a] + G[b]" on the
// one-hot line, "N of V rows receive a gradient; the others stay exactly 0". The views print a
// sum only when `holds` says the core re-evaluated it and got the row's very bits; they never
// build a formula of their own. Pure: no text here.
#pragma once

#include <cstddef>
#include <vector>

#include "core/kernels/grad.hpp"
#include "core/matrix.hpp"

namespace embdemo {

enum class GradForm {
    embedding,  // emb.weight.grad: fma(G[t, j], scale, acc) per term, padding skipped
    onehot,     // one_hot(ids).T @ G: acc + 1 * G[t, j] per term (the 0 * G[t] of other ids left out)
};

// "dE[k] = sum of terms": the positions t with ids[t] == k, each G[t] times `scale`, added in
// order of t from +0.0. No terms: the row is exactly +0 (the padding row of the embedding).
struct RowSumClaim {
    GradForm form = GradForm::embedding;
    std::size_t row = 0;                 // k
    std::vector<std::size_t> positions;  // flat t, ascending
    float scale = 1.0f;                  // float(1.0 / count) when scaled, else 1
    bool scaled = false;                 // the terms carry a scale other than 1
    bool holds = false;                  // re-evaluated: the sum has the row's bits
    // The one-hot row is not the plain sum because 0 * G[t, j] is nan for an inf or nan G[t, j]
    // of another id in every column where they part; checked column by column.
    bool poisoned = false;
};

struct GradClaims {
    std::vector<RowSumClaim> embedding;  // one per used row, ascending by k
    std::vector<RowSumClaim> onehot;     // the same rows, the one-hot form
    std::size_t rows = 0;                // V
    std::size_t rows_with_gradient = 0;  // rows the embedding's backward writes (used, not padding)
    bool others_zero = false;            // every other row of the embedding's dE is +0, bit for bit
    bool onehot_others_zero = false;     // every row no id uses is +0 in X.T @ G too (not with 0 * inf)
};

// a + b, with SSE's NaN rule written out (a NaN first operand wins over a NaN second one,
// quieted): a commutative add's operand order is the compiler's choice, so two NaNs meeting
// would otherwise leave the claim's bits to the compiler. The one-hot sum adds with it; where
// the real product kept the other NaN, the claim does not hold and is not printed.
float add_first_nan(float a, float b);

// The stated sum of `claim` over G, with the arithmetic of its form: 1 x d.
Matrix evaluate_row_sum(const RowSumClaim& claim, const Matrix& upstream);

// The claims for the used rows, each re-evaluated against the dE it describes.
GradClaims grad_claims(const std::vector<GradRow>& rows, const Matrix& upstream, const Matrix& grad_lookup,
                       const Matrix& grad_onehot, const TokenIds& ids);

}  // namespace embdemo
