// embedding_renorm_ and the norms it compares with max_norm.
#include "core/kernels/max_norm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace embdemo {

float row_norm(const float* row, std::size_t d, double norm_type) {
    if (std::isinf(norm_type)) {
        float largest = 0.0f;  // max |x|: exact, so the same as torch's in any order
        for (std::size_t j = 0; j < d; ++j) {
            const float magnitude = std::fabs(row[j]);
            // torch's inf-norm of a row holding any NaN is the default quiet NaN (0x7fc00000),
            // whatever the NaN's sign and payload (measured for d = 1..40, every position).
            if (std::isnan(magnitude)) return std::numeric_limits<float>::quiet_NaN();
            largest = std::max(largest, magnitude);
        }
        return largest;
    }
    if (norm_type == 2.0) {
        // ATen 1.13's vectorised 2-norm of a contiguous row (norm_kernel_tensor_iterator_impl,
        // AVX2): 8 lanes, each lane += x * x fused; the lanes added in order; then the rest of
        // the row, where the compiled tail squares four values at once and adds them in order,
        // and fuses the last 0 to 3. Found against torch (0 of 1,500 random rows differ; a
        // double sum differed in 1 of 4) and kept honest by tests/scripts/torch_live.py.
        constexpr std::size_t k_lanes = 8;
        float lanes[k_lanes] = {};
        std::size_t j = 0;
        for (; j + k_lanes <= d; j += k_lanes) {
            for (std::size_t l = 0; l < k_lanes; ++l) lanes[l] = std::fma(row[j + l], row[j + l], lanes[l]);
        }
        float sum = lanes[0];
        for (std::size_t l = 1; l < k_lanes; ++l) sum = sum + lanes[l];
        for (; j + 4 <= d; j += 4) {
            for (std::size_t l = 0; l < 4; ++l) {
                const float square = row[j + l] * row[j + l];
                sum = sum + square;
            }
        }
        for (; j < d; ++j) sum = std::fma(row[j], row[j], sum);
        return std::sqrt(sum);
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
