#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/lessons/table_pca.hpp"

namespace embdemo {
namespace {

// A table from a fixed integer hash (no library draws), rows stretched along a few directions so
// that the top two components hold a known-ish, unequal share.
Matrix hashed_table(std::size_t rows, std::size_t cols, std::uint32_t seed) {
    Matrix m(rows, cols);
    std::uint32_t state = seed;
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) {
            state = state * 1664525u + 1013904223u;
            const double u = static_cast<double>(state >> 8) / 16777216.0 - 0.5;
            m.at(r, c) = static_cast<float>(u * (c == 0 ? 5.0 : c == 1 ? 3.0 : 1.0));
        }
    }
    return m;
}

// The top two eigenvalues of the rows' covariance by power iteration with deflation: another
// method than table_pca's Jacobi sweeps, written from the definition.
std::vector<double> power_top_two(const Matrix& t) {
    const std::size_t n = t.rows, d = t.cols;
    std::vector<double> mean(d, 0.0);
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < d; ++c) mean[c] += t.at(r, c) / static_cast<double>(n);
    std::vector<double> cov(d * d, 0.0);
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t i = 0; i < d; ++i)
            for (std::size_t j = 0; j < d; ++j)
                cov[i * d + j] += (t.at(r, i) - mean[i]) * (t.at(r, j) - mean[j]) / static_cast<double>(n - 1);
    std::vector<double> values;
    for (int k = 0; k < 2; ++k) {
        std::vector<double> v(d, 1.0), w(d);
        for (std::size_t i = 0; i < d; ++i) v[i] += 0.01 * static_cast<double>(i);
        double lambda = 0.0;
        for (int it = 0; it < 20000; ++it) {
            double norm = 0.0;
            for (std::size_t i = 0; i < d; ++i) {
                w[i] = 0.0;
                for (std::size_t j = 0; j < d; ++j) w[i] += cov[i * d + j] * v[j];
                norm += w[i] * w[i];
            }
            norm = std::sqrt(norm);
            for (std::size_t i = 0; i < d; ++i) v[i] = w[i] / norm;
            lambda = norm;
        }
        values.push_back(lambda);
        for (std::size_t i = 0; i < d; ++i)
            for (std::size_t j = 0; j < d; ++j) cov[i * d + j] -= lambda * v[i] * v[j];
    }
    return values;
}

TEST_CASE("table_pca: the share of variance of PC1 and PC2 agrees with power iteration") {
    for (const std::uint32_t seed : {1u, 7u, 1234u}) {
        const Matrix t = hashed_table(40, 6, seed);
        const TablePca pca = table_pca(t);
        const std::vector<double> power = power_top_two(t);
        double trace = 0.0;
        {
            std::vector<double> mean(t.cols, 0.0);
            for (std::size_t r = 0; r < t.rows; ++r)
                for (std::size_t c = 0; c < t.cols; ++c) mean[c] += t.at(r, c) / static_cast<double>(t.rows);
            for (std::size_t r = 0; r < t.rows; ++r)
                for (std::size_t c = 0; c < t.cols; ++c) trace += std::pow(t.at(r, c) - mean[c], 2) / static_cast<double>(t.rows - 1);
        }
        CAPTURE(seed);
        CHECK(pca.total_variance == doctest::Approx(trace).epsilon(1e-12));
        CHECK(pca.variance[0] == doctest::Approx(power[0]).epsilon(1e-9));
        CHECK(pca.variance[1] == doctest::Approx(power[1]).epsilon(1e-9));
        CHECK(pca.share() == doctest::Approx((power[0] + power[1]) / trace).epsilon(1e-9));
        CHECK(pca.share() < 1.0);
        // The coordinates' variances are the eigenvalues: the projection is onto those vectors.
        for (int k = 0; k < 2; ++k) {
            double var = 0.0;
            for (const auto& c : pca.coords) var += c[static_cast<std::size_t>(k)] * c[static_cast<std::size_t>(k)];
            CHECK(var / static_cast<double>(t.rows - 1) == doctest::Approx(pca.variance[static_cast<std::size_t>(k)]).epsilon(1e-9));
        }
    }
}

TEST_CASE("table_pca: a table of two columns is all explained, one row has no components") {
    const TablePca two = table_pca(hashed_table(10, 2, 3));
    CHECK(two.share() == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(table_pca(hashed_table(1, 4, 3)).coords.empty());
}

}  // namespace
}  // namespace embdemo
