#include "core/lessons/table_pca.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace embdemo {

double TablePca::share() const {
    return total_variance > 0.0 ? (variance[0] + variance[1]) / total_variance : 1.0;
}

TablePca table_pca(const Matrix& table) {
    TablePca pca;
    const std::size_t n = table.rows;
    const std::size_t d = table.cols;
    if (n < 2 || d < 2) return pca;
    std::vector<double> mean(d, 0.0);
    for (std::size_t r = 0; r < n; ++r) {
        for (std::size_t c = 0; c < d; ++c) mean[c] += table.at(r, c);
    }
    for (double& m : mean) m /= static_cast<double>(n);
    // The covariance with n - 1, as numpy's np.cov and torch.pca_lowrank's scaling give it.
    std::vector<double> a(d * d, 0.0);
    for (std::size_t r = 0; r < n; ++r) {
        const float* row = table.row(r);
        for (std::size_t i = 0; i < d; ++i) {
            const double xi = row[i] - mean[i];
            for (std::size_t j = i; j < d; ++j) a[i * d + j] += xi * (row[j] - mean[j]);
        }
    }
    for (std::size_t i = 0; i < d; ++i) {
        for (std::size_t j = i; j < d; ++j) {
            a[i * d + j] /= static_cast<double>(n - 1);
            a[j * d + i] = a[i * d + j];
        }
    }
    for (std::size_t i = 0; i < d; ++i) pca.total_variance += a[i * d + i];
    std::vector<double> v(d * d, 0.0);
    for (std::size_t i = 0; i < d; ++i) v[i * d + i] = 1.0;
    // Sweeps until the off-diagonal mass is rounding noise against the diagonal's.
    for (int sweep = 0; sweep < 64; ++sweep) {
        double off = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
            for (std::size_t j = i + 1; j < d; ++j) off += a[i * d + j] * a[i * d + j];
        }
        if (off <= 1e-30 * std::max(1e-300, pca.total_variance * pca.total_variance)) break;
        for (std::size_t p = 0; p < d; ++p) {
            for (std::size_t q = p + 1; q < d; ++q) {
                const double apq = a[p * d + q];
                if (apq == 0.0) continue;
                const double theta = (a[q * d + q] - a[p * d + p]) / (2.0 * apq);
                const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0);
                const double s = t * c;
                for (std::size_t k = 0; k < d; ++k) {
                    const double akp = a[k * d + p];
                    const double akq = a[k * d + q];
                    a[k * d + p] = c * akp - s * akq;
                    a[k * d + q] = s * akp + c * akq;
                }
                for (std::size_t k = 0; k < d; ++k) {
                    const double apk = a[p * d + k];
                    const double aqk = a[q * d + k];
                    a[p * d + k] = c * apk - s * aqk;
                    a[q * d + k] = s * apk + c * aqk;
                }
                for (std::size_t k = 0; k < d; ++k) {
                    const double vkp = v[k * d + p];
                    const double vkq = v[k * d + q];
                    v[k * d + p] = c * vkp - s * vkq;
                    v[k * d + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    std::vector<std::size_t> order(d);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return a[x * d + x] > a[y * d + y]; });
    pca.coords.assign(n, {0.0, 0.0});
    for (int k = 0; k < 2; ++k) {
        const std::size_t e = order[static_cast<std::size_t>(k)];
        pca.variance[static_cast<std::size_t>(k)] = std::max(0.0, a[e * d + e]);
        // An eigenvector's sign is arbitrary: the largest entry is made positive, so the picture
        // does not flip between builds.
        std::size_t big = 0;
        for (std::size_t i = 1; i < d; ++i) {
            if (std::fabs(v[i * d + e]) > std::fabs(v[big * d + e])) big = i;
        }
        const double sign = v[big * d + e] < 0.0 ? -1.0 : 1.0;
        for (std::size_t r = 0; r < n; ++r) {
            double dot = 0.0;
            for (std::size_t i = 0; i < d; ++i) dot += (table.at(r, i) - mean[i]) * v[i * d + e] * sign;
            pca.coords[r][static_cast<std::size_t>(k)] = dot;
        }
    }
    return pca;
}

}  // namespace embdemo
