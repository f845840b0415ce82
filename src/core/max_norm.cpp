// embedding_renorm_ and the norms it compares with max_norm.
#include "core/max_norm.hpp"

#include <algorithm>
#include <cmath>

namespace embdemo {

float row_norm(const float* row, std::size_t d, double norm_type) {
    if (std::isinf(norm_type)) {
        float largest = 0.0f;  // max |x|: exact, so the same as torch's in any order
        for (std::size_t j = 0; j < d; ++j) {
            const float magnitude = std::fabs(row[j]);
            if (std::isnan(magnitude)) return magnitude;
            largest = std::max(largest, magnitude);
        }
        return largest;
    }
    double sum = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        const double magnitude = std::fabs(static_cast<double>(row[j]));
        sum += norm_type == 1.0 ? magnitude : norm_type == 2.0 ? magnitude * magnitude : std::pow(magnitude, norm_type);
    }
    const double norm = norm_type == 1.0 ? sum : norm_type == 2.0 ? std::sqrt(sum) : std::pow(sum, 1.0 / norm_type);
    return static_cast<float>(norm);
}

std::vector<RenormRow> embedding_renorm(Matrix& weight, const TokenIds& ids, const MaxNorm& max_norm) {
    TokenIds sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<RenormRow> rows;
    rows.reserve(sorted.size());
    for (const std::uint64_t id : sorted) {
        RenormRow seen;
        seen.row = static_cast<std::size_t>(id);
        float* row = weight.values.data() + seen.row * weight.cols;
        seen.norm = row_norm(row, weight.cols, max_norm.norm_type);
        // torch reads the norm back as a double (item<double>) and compares it with M.
        const double norm = seen.norm;
        if (norm > max_norm.max_norm) {
            seen.rescaled = true;
            // The double scale becomes a float32 operand of the float32 multiplication.
            seen.scale = static_cast<float>(max_norm.max_norm / (norm + 1e-7));
            for (std::size_t j = 0; j < weight.cols; ++j) row[j] *= seen.scale;
        }
        rows.push_back(seen);
    }
    return rows;
}

}  // namespace embdemo
