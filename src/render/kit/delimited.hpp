// The rows of CSV and TSV (render_lesson_delimited writes the blocks around them). Floats are
// printed in their shortest round-trip form, non-finite ones as nan, inf, -inf; X as 0 and 1.
#pragma once

#include <optional>
#include <string>

#include "core/matrix.hpp"

namespace embdemo {

// Every row of `m` on its own line, values joined by `delimiter`: floats in shortest round-trip
// form, or (as_integers, for X) 0 and 1.
std::string delimited_rows(const Matrix& m, char delimiter, bool as_integers);

// The same for rows `first` to `end` - 1 only.
std::string delimited_rows(const Matrix& m, char delimiter, bool as_integers, std::size_t first, std::size_t end);

// The same appended to `out`.
void append_delimited_rows(std::string& out, const Matrix& m, char delimiter, bool as_integers, std::size_t first,
                           std::size_t end);

// Room for `values` printed values with their separators: more than any float's shortest
// round-trip form with ", " ("-1.17549435e-38, " is 17 characters) or an int64's. A machine
// format reserves it before writing, so that its text never moves to a larger buffer: a string
// doubling its room holds the old and the new at once, up to twice the text (docs/design.md,
// "Memory"). Room reserved and never written is never touched, so it costs no memory.
inline constexpr std::size_t k_reserved_chars_per_value = 24;

}  // namespace embdemo
