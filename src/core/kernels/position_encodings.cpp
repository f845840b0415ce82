#include "core/kernels/position_encodings.hpp"

#include <cmath>
#include <cstdint>

namespace embdemo {

const PositionEncodingTraits& traits_of(PositionEncoding encoding) {
    for (const PositionEncodingTraits& traits : k_position_encodings) {
        if (traits.encoding == encoding) return traits;
    }
    return k_position_encodings[0];
}

const char* encoding_name(PositionEncoding encoding) { return traits_of(encoding).name; }

Matrix sinusoidal_table(std::size_t context, std::size_t dim) {
    Matrix table(context, dim);
    for (std::size_t p = 0; p < context; ++p) {
        for (std::size_t j = 0; j < dim; ++j) {
            const double even = static_cast<double>(j - j % 2);  // 2i for both columns of a pair
            const double angle = static_cast<double>(p) / std::pow(10000.0, even / static_cast<double>(dim));
            table.at(p, j) = static_cast<float>(j % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return table;
}

std::vector<double> rope_frequencies(std::size_t dim) {
    std::vector<double> theta(dim / 2);
    for (std::size_t j = 0; j < theta.size(); ++j) {
        theta[j] = 1.0 / std::pow(k_rope_theta_base, static_cast<double>(2 * j) / static_cast<double>(dim));
    }
    return theta;
}

void rope_rotate_row(const float* row, std::size_t dim, std::size_t position, float* out) {
    const std::size_t half = dim / 2;
    const std::vector<double> theta = rope_frequencies(dim);
    for (std::size_t j = 0; j < dim; ++j) {
        const double angle = static_cast<double>(position) * theta[j % half];
        const auto cos = static_cast<float>(std::cos(angle));
        const auto sin = static_cast<float>(std::sin(angle));
        const float rotated_half = j < half ? -row[j + half] : row[j - half];
        // float32 x * cos + rotated * sin, two roundings and a sum, as torch computes it
        const float a = row[j] * cos;
        const float b = rotated_half * sin;
        out[j] = a + b;
    }
}

Matrix rope_rotate(const Matrix& rows, std::size_t seq) {
    Matrix out(rows.rows, rows.cols);
    for (std::size_t i = 0; i < rows.rows; ++i) {
        rope_rotate_row(rows.row(i), rows.cols, i % seq, out.values.data() + i * rows.cols);
    }
    return out;
}

double rope_score(const float* a, std::size_t p, const float* b, std::size_t q, std::size_t dim) {
    std::vector<float> ra(dim), rb(dim);
    rope_rotate_row(a, dim, p, ra.data());
    rope_rotate_row(b, dim, q, rb.data());
    double score = 0.0;
    for (std::size_t j = 0; j < dim; ++j) score += static_cast<double>(ra[j]) * static_cast<double>(rb[j]);
    return score;
}

namespace {

// The paper's get_slopes_power_of_2(n) (n a power of two), in Python's doubles:
// start = 2**(-2**-(log2(n) - 3)), then start * ratio**i with ratio = start.
std::vector<double> slopes_power_of_two(std::size_t n) {
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3.0)));
    std::vector<double> slopes(n);
    for (std::size_t i = 0; i < n; ++i) slopes[i] = start * std::pow(start, static_cast<double>(i));
    return slopes;
}

std::vector<double> paper_slopes(std::size_t n) {
    if ((n & (n - 1)) == 0) return slopes_power_of_two(n);
    std::size_t closest = 1;
    while (closest * 2 < n) closest *= 2;
    std::vector<double> slopes = slopes_power_of_two(closest);
    const std::vector<double> doubled = paper_slopes(2 * closest);
    for (std::size_t i = 0; slopes.size() < n; i += 2) slopes.push_back(doubled[i]);
    return slopes;
}

}  // namespace

std::vector<float> alibi_slopes(std::size_t heads) {
    std::vector<float> slopes;
    for (const double slope : paper_slopes(heads)) slopes.push_back(static_cast<float>(slope));
    return slopes;
}

Matrix alibi_distance_table(const std::vector<float>& slopes, std::size_t seq) {
    Matrix table(seq, slopes.size());
    for (std::size_t k = 0; k < seq; ++k) {
        const auto back = static_cast<float>(-static_cast<std::int64_t>(k));  // an integer: -0 is +0
        for (std::size_t h = 0; h < slopes.size(); ++h) table.at(k, h) = slopes[h] * back;
    }
    return table;
}

}  // namespace embdemo
