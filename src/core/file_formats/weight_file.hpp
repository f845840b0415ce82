// What the weight-file readers share: which format a file is in, the shape check the caller
// applies before any data is read, and the rule for turning a file's number into float32.
// Nothing here touches the file system: the CLI opens files and hands their bytes over.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/parse_result.hpp"

namespace embdemo {

enum class WeightFormat { npy, csv, tsv };

// Called with the shape a file announces (npy: its header; CSV/TSV: once every line is read)
// before the matrix is kept. Returns a message when the shape is not acceptable (too big, or
// not what --vocab/--dim asked for), which then becomes the reader's error.
using ShapeCheck = std::function<std::optional<std::string>(std::uint64_t rows, std::uint64_t cols)>;

// A .npy file is recognised by its magic bytes, whatever its name; otherwise the name must end
// in .csv or .tsv. `first_bytes` is the start of the file (six bytes are enough).
ParseResult<WeightFormat> detect_weight_format(std::string_view file_name, std::string_view first_bytes);

// The floats a reader has touched at its peak when it has read `values` values: both readers
// append to a std::vector, which doubles its room (1, 2, 4, ...) and so, at its last move, holds
// the old buffer and the copy at once, twice the largest power of two below `values`. Not
// reserved ahead: a short file announcing a large shape costs only what it holds.
std::uint64_t values_read_peak(std::uint64_t values);

// What a reader's "too large for float32" allows: every finite value below the magnitude that
// rounds to inf (0x1.ffffffp+127, float32's largest plus half an ulp).
inline constexpr const char* k_float32_range =
    "(allowed: magnitudes below 3.4028235677973366e+38, which round to at most float32's largest, "
    "3.4028234663852886e+38, or inf)";

// A float64 read from a file (a .npy of float64, or a CSV/TSV number) as float32: rounded to
// nearest, exactly what numpy.float32(x) gives. nullopt when a finite value is too large for
// float32 (it would silently become inf); inf and nan themselves are kept.
std::optional<float> narrow_to_float32(double value);

}  // namespace embdemo
