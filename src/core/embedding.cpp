#include "core/embedding.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <xtensor/xadapt.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

namespace embdemo {
namespace {

// Read-only and writable 2-D xtensor views over a Matrix's buffer (no copy).
auto as_tensor(const Matrix& m) {
    return xt::adapt(m.values.data(), m.values.size(), xt::no_ownership(),
                     std::array<std::size_t, 2>{m.rows, m.cols});
}
auto as_tensor(Matrix& m) {
    return xt::adapt(m.values.data(), m.values.size(), xt::no_ownership(),
                     std::array<std::size_t, 2>{m.rows, m.cols});
}

std::uint32_t bits_of(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

}  // namespace

Matrix one_hot(const TokenIds& ids, std::size_t vocab_size) {
    Matrix x(ids.size(), vocab_size);  // all zeros
    for (std::size_t i = 0; i < ids.size(); ++i) x.at(i, ids[i]) = 1.0f;
    return x;
}

Matrix lookup(const Matrix& weight, const TokenIds& ids) {
    Matrix result(ids.size(), weight.cols);
    const std::vector<std::size_t> rows(ids.begin(), ids.end());
    // The whole lookup: keep the selected rows, in the order the ids ask for them.
    as_tensor(result) = xt::view(as_tensor(weight), xt::keep(rows), xt::all());
    return result;
}

Matrix matmul(const Matrix& a, const Matrix& b) {
    Matrix c(a.rows, b.cols);
    const auto A = as_tensor(a);
    const auto B = as_tensor(b);
    auto C = as_tensor(c);
    for (std::size_t i = 0; i < a.rows; ++i) {
        // C[i][j] = sum over k of A[i][k] * B[k][j], each sum in order k = 0, 1, ... from +0.0.
        // For a one-hot row all terms but one are 0 * E[k][j] = 0 (for finite E), and the one
        // left is 1 * E[id][j] = E[id][j] exactly, so the sum is the looked-up value bit for bit.
        // The loop runs over k outside j only so that B is read row by row (cache-friendly);
        // every C[i][j] still adds its terms in the same order.
        for (std::size_t j = 0; j < b.cols; ++j) C(i, j) = 0.0f;
        for (std::size_t k = 0; k < a.cols; ++k) {
            const float a_ik = A(i, k);
            for (std::size_t j = 0; j < b.cols; ++j) C(i, j) += a_ik * B(k, j);
        }
    }
    return c;
}

Matrix transpose(const Matrix& m) {
    // Copied in square tiles so that both the rows read and the rows written stay in cache:
    // a plain element-by-element transpose of GPT-2's table is many times slower.
    constexpr std::size_t k_tile = 32;
    Matrix t(m.cols, m.rows);
    for (std::size_t r0 = 0; r0 < m.rows; r0 += k_tile) {
        for (std::size_t c0 = 0; c0 < m.cols; c0 += k_tile) {
            const std::size_t r_end = std::min(r0 + k_tile, m.rows);
            const std::size_t c_end = std::min(c0 + k_tile, m.cols);
            for (std::size_t r = r0; r < r_end; ++r) {
                for (std::size_t c = c0; c < c_end; ++c) t.at(c, r) = m.at(r, c);
            }
        }
    }
    return t;
}

Matrix linear_forward(const Matrix& x, const Matrix& weight) {
    Matrix out(x.rows, weight.rows);
    const auto X = as_tensor(x);
    const auto W = as_tensor(weight);
    auto Y = as_tensor(out);
    for (std::size_t i = 0; i < x.rows; ++i) {
        for (std::size_t j = 0; j < weight.rows; ++j) {
            float sum = 0.0f;  // same order of summation as matmul(x, transpose(weight))
            for (std::size_t k = 0; k < x.cols; ++k) sum += X(i, k) * W(j, k);
            Y(i, j) = sum;
        }
    }
    return out;
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

}  // namespace embdemo
