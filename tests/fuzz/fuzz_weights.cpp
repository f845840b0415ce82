// libFuzzer target: the readers of user files, .npy (core/file_formats/npy), CSV/TSV (core/file_formats/delimited_weights)
// and labels (core/file_formats/labels). The first byte picks the reader, the rest is the file. Sizes are
// capped by the shape check, as the CLI caps them, so a hostile header cannot allocate much.
// Accepted tables must survive a round trip: written again (as .npy, or as text with 9
// significant digits) and read back, they hold the same float32 bits.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "core/file_formats/delimited_weights.hpp"
#include "core/escape.hpp"
#include "core/file_formats/labels.hpp"
#include "core/file_formats/npy.hpp"
#include "fuzz_check.hpp"

namespace {

using embdemo::Matrix;
using embdemo::fuzz::check;
using embdemo::fuzz::check_message;

constexpr std::uint64_t k_max_values = 1u << 16;

std::optional<std::string> small_shape(std::uint64_t rows, std::uint64_t cols) {
    if (rows == 0 || cols == 0) return std::string("is empty");
    if (rows > k_max_values / cols) return std::string("is too large for the fuzz target");
    return std::nullopt;
}

// Same bits, except that any NaN equals any NaN (text cannot carry a payload).
bool same_values(const Matrix& a, const Matrix& b, bool nan_payload_matters) {
    if (a.rows != b.rows || a.cols != b.cols || a.values.size() != b.values.size()) return false;
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        const float x = a.values[i];
        const float y = b.values[i];
        if (!nan_payload_matters && std::isnan(x) && std::isnan(y)) continue;
        if (std::memcmp(&x, &y, sizeof x) != 0) return false;
    }
    return true;
}

void check_npy(std::string_view bytes) {
    std::istringstream in{std::string(bytes)};
    const auto read = embdemo::read_npy(in, small_shape);
    if (!read) return check_message(read.error());
    const Matrix& m = read.value();
    check(m.values.size() == m.rows * m.cols, "a .npy table holds rows x cols values");
    std::istringstream again{embdemo::encode_npy(m)};
    const auto reread = embdemo::read_npy(again, small_shape);
    check(reread && same_values(m, reread.value(), true), "a .npy table survives encode_npy and read_npy");
}

std::string as_text(const Matrix& m, char delimiter) {
    std::string text;
    char number[64];
    for (std::size_t r = 0; r < m.rows; ++r) {
        for (std::size_t c = 0; c < m.cols; ++c) {
            // "-nan" is not a spelling every reader takes; a NaN's sign is not data here.
            std::snprintf(number, sizeof number, "%.9g", static_cast<double>(m.at(r, c)));
            text += std::isnan(m.at(r, c)) ? "nan" : number;
            text += c + 1 < m.cols ? delimiter : '\n';
        }
    }
    return text;
}

void check_delimited(std::string_view bytes, char delimiter) {
    std::istringstream in{std::string(bytes)};
    const auto read = embdemo::read_delimited_weights(in, delimiter, small_shape);
    if (!read) return check_message(read.error());
    const Matrix& m = read.value();
    check(m.values.size() == m.rows * m.cols, "a CSV/TSV table holds rows x cols values");
    std::istringstream again{as_text(m, delimiter)};
    const auto reread = embdemo::read_delimited_weights(again, delimiter, small_shape);
    check(reread && same_values(m, reread.value(), false), "a CSV/TSV table survives %.9g and back");
}

void check_labels(std::string_view text, std::size_t expected) {
    const auto labels = embdemo::parse_labels(text, expected);
    if (!labels) return check_message(labels.error());
    check(labels.value().size() == expected, "one label per row");
    for (const std::string& label : labels.value()) {
        check(!label.empty() && embdemo::is_valid_utf8(label), "a label is non-empty UTF-8");
        check(label.find('\t') == std::string::npos && label.find('\n') == std::string::npos,
              "a label fits one cell of metadata.tsv");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 4) {
        case 0: check_npy(bytes); break;
        case 1: check_delimited(bytes, ','); break;
        case 2: check_delimited(bytes, '\t'); break;
        default: check_labels(bytes, data[0] / 4 % 16 + 1); break;
    }
    return 0;
}
