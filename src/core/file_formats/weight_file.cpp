#include "core/file_formats/weight_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace embdemo {
namespace {

// The largest magnitude that still rounds to a finite float32 is just below FLT_MAX plus half
// an ulp; from there on, round-to-nearest gives inf.
constexpr double k_float32_rounds_to_inf = 0x1.ffffffp+127;

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

ParseResult<WeightFormat> detect_weight_format(std::string_view file_name, std::string_view first_bytes) {
    if (first_bytes.substr(0, 6) == std::string_view("\x93NUMPY", 6)) {
        return ParseResult<WeightFormat>::ok(WeightFormat::npy);
    }
    if (ends_with(file_name, ".csv")) return ParseResult<WeightFormat>::ok(WeightFormat::csv);
    if (ends_with(file_name, ".tsv")) return ParseResult<WeightFormat>::ok(WeightFormat::tsv);
    if (ends_with(file_name, ".npy")) {
        return ParseResult<WeightFormat>::fail(
            first_bytes.empty() ? "is empty" : "is not a .npy file (it does not start with \\x93NUMPY)");
    }
    return ParseResult<WeightFormat>::fail(
        "is neither a .npy file (it does not start with \\x93NUMPY) nor named .csv or .tsv");
}

std::uint64_t values_read_peak(std::uint64_t values) {
    std::uint64_t last_move = 0;  // the size at which the vector last doubled
    for (std::uint64_t size = 1; size < values && size <= UINT64_MAX / 4; size *= 2) last_move = size;
    return std::max(values, 2 * last_move);
}

std::optional<float> narrow_to_float32(double value) {
    if (std::isfinite(value) && std::fabs(value) >= k_float32_rounds_to_inf) return std::nullopt;
    return static_cast<float>(value);  // in range: rounds to nearest, ties to even
}

}  // namespace embdemo
