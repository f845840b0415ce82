// Builds each row's claim from the ids alone, then evaluates it the way its form adds (this
// translation unit, like every one, is compiled with -ffp-contract=off: the fma is written out).
#include "core/kernels/grad_claims.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace embdemo {
namespace {

bool same_bits(const float* a, const float* b, std::size_t count) {
    return std::memcmp(a, b, count * sizeof(float)) == 0;
}

// In every column where the one-hot row and the plain sum part, some other id's G[t, j] is
// inf or nan (0 * it is nan); without such a column there is no cause to name.
bool poisoned_by_other_ids(const Matrix& sum, const Matrix& onehot, std::size_t k, const Matrix& upstream,
                           const TokenIds& ids) {
    bool any = false;
    for (std::size_t j = 0; j < sum.cols; ++j) {
        const float a = sum.at(0, j);
        const float b = onehot.at(k, j);
        if (std::memcmp(&a, &b, sizeof a) == 0) continue;
        bool found = false;
        for (std::size_t t = 0; t < ids.size() && !found; ++t) {
            found = ids[t] != k && !std::isfinite(upstream.at(t, j));
        }
        if (!found) return false;
        any = true;
    }
    return any;
}

}  // namespace

float add_first_nan(float a, float b) {
    if (!std::isnan(a) && !std::isnan(b)) return a + b;
    std::uint32_t bits = 0;
    const float nan = std::isnan(a) ? a : b;
    std::memcpy(&bits, &nan, sizeof bits);
    bits |= 0x00400000u;  // quieted, as SSE returns a signalling NaN
    float out = 0.0f;
    std::memcpy(&out, &bits, sizeof out);
    return out;
}

Matrix evaluate_row_sum(const RowSumClaim& claim, const Matrix& upstream) {
    Matrix sum(1, upstream.cols);  // +0.0, where both backward passes start
    for (const std::size_t t : claim.positions) {
        for (std::size_t j = 0; j < upstream.cols; ++j) {
            float& acc = sum.at(0, j);
            // The embedding adds with add_(G[t], alpha=scale), one fma; the one-hot product
            // adds X[t, k] * G[t, j] with X[t, k] = 1 (claim.scale). Not G[t, j] alone: 1 * x
            // quiets a signalling NaN, and which NaN an add keeps depends on that.
            if (claim.form == GradForm::embedding) {
                acc = std::fma(upstream.at(t, j), claim.scale, acc);
            } else {
                acc = add_first_nan(acc, claim.scale * upstream.at(t, j));
            }
        }
    }
    return sum;
}

GradClaims grad_claims(const std::vector<GradRow>& rows, const Matrix& upstream, const Matrix& grad_lookup,
                       const Matrix& grad_onehot, const TokenIds& ids) {
    GradClaims claims;
    claims.rows = grad_lookup.rows;
    std::vector<bool> written(grad_lookup.rows, false);
    for (const GradRow& row : rows) {
        RowSumClaim embedding{GradForm::embedding, row.row, row.positions, row.scale, row.scale != 1.0f};
        if (row.padding) {
            embedding.positions.clear();
            embedding.scale = 1.0f;
            embedding.scaled = false;
        } else {
            written[row.row] = true;
            ++claims.rows_with_gradient;
        }
        RowSumClaim onehot{GradForm::onehot, row.row, row.positions, 1.0f, false};
        const Matrix by_embedding = evaluate_row_sum(embedding, upstream);
        const Matrix by_onehot = evaluate_row_sum(onehot, upstream);
        embedding.holds = same_bits(by_embedding.row(0), grad_lookup.row(row.row), grad_lookup.cols);
        onehot.holds = same_bits(by_onehot.row(0), grad_onehot.row(row.row), grad_onehot.cols);
        if (!onehot.holds) onehot.poisoned = poisoned_by_other_ids(by_onehot, grad_onehot, row.row, upstream, ids);
        claims.embedding.push_back(std::move(embedding));
        claims.onehot.push_back(std::move(onehot));
    }
    const Matrix zero_row(1, grad_lookup.cols);
    claims.others_zero = true;
    for (std::size_t k = 0; k < grad_lookup.rows && claims.others_zero; ++k) {
        claims.others_zero = written[k] || same_bits(grad_lookup.row(k), zero_row.row(0), grad_lookup.cols);
    }
    std::vector<bool> used(grad_onehot.rows, false);
    for (const GradRow& row : rows) used[row.row] = true;
    claims.onehot_others_zero = true;
    for (std::size_t k = 0; k < grad_onehot.rows && claims.onehot_others_zero; ++k) {
        claims.onehot_others_zero = used[k] || same_bits(grad_onehot.row(k), zero_row.row(0), grad_onehot.cols);
    }
    return claims;
}

}  // namespace embdemo
