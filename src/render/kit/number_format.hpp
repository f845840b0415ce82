// How numbers are spelled. Two needs, two functions:
// - the text view prints a matrix the way PyTorch's print does (torch/_tensor_str.py): one
//   format per matrix, fixed or scientific or integer mode, right-aligned to a common width;
// - machine formats print the shortest text that reads back as the very same float32.
// Everything goes through fmt, which never consults the locale.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace embdemo {

struct NumberFormat {
    enum class Mode { fixed, scientific, integer };
    Mode mode = Mode::fixed;
    int precision = 4;
    std::size_t width = 1;
    // Why PyTorch's rule chose scientific mode: the first that holds, in the order PyTorch checks.
    enum class Why { not_scientific, span, large, small };
    Why why = Why::not_scientific;
};

// PyTorch's choice for printing `values` with `precision` decimals: scientific when the finite
// non-zero magnitudes span more than 1000x, exceed 1e8 or go below 1e-4; integer mode ("20.")
// when every finite value is whole; fixed otherwise. The width fits every value, "-0." and
// "nan" included.
NumberFormat choose_number_format(const std::vector<float>& values, int precision);

// `value` in `format`, padded on the left to format.width.
std::string format_number(float value, const NumberFormat& format);

// The shortest decimal that, read as a double and rounded to float32, gives back `value`
// exactly. Non-finite values are spelled nan, inf, -inf (callers of strict formats handle them).
std::string shortest_round_trip(float value);

// The same appended to `out`: the machine formats write millions of values, and a string per
// value was a third of their time.
void append_shortest_round_trip(std::string& out, float value);

}  // namespace embdemo
