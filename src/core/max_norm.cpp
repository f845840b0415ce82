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
    if (norm_type == 2.0) {
        double sum = 0.0;
        for (std::size_t j = 0; j < d; ++j) sum += static_cast<double>(row[j]) * static_cast<double>(row[j]);
        return static_cast<float>(std::sqrt(sum));
    }
    // Other p: ATen's NormOneOps / NormOps accumulate in float32, in order, with powf; the
    // live test against torch (tests/scripts/torch_live.py) found the double sum 1 ulp off.
    const auto p = static_cast<float>(norm_type);
    float sum = 0.0f;
    for (std::size_t j = 0; j < d; ++j) {
        const float magnitude = std::fabs(row[j]);
        sum += p == 1.0f ? magnitude : std::pow(magnitude, p);
    }
    return p == 1.0f ? sum : std::pow(sum, 1.0f / p);
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
