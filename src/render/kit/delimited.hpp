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

}  // namespace embdemo
