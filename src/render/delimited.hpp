// CSV and TSV views for spreadsheets and scripts. With one matrix picked (--show) the output is
// that matrix alone, one row per line and nothing else, so numpy.loadtxt, pandas (header=None)
// or embdemo --weights read it directly. Otherwise each matrix (every one, or those picked) is a
// block introduced by a line "# NAME (FORMULA) ROWS x COLS", blocks separated by an empty line. Floats are printed in their
// shortest round-trip form, non-finite ones as nan, inf, -inf; X as 0 and 1. Never coloured.
#pragma once

#include <optional>
#include <string>

#include "core/report.hpp"
#include "core/report_matrices.hpp"

namespace embdemo {

// Every row of `m` on its own line, values joined by `delimiter`: floats in shortest round-trip
// form, or (as_integers, for X) 0 and 1.
std::string delimited_rows(const Matrix& m, char delimiter, bool as_integers);

// The same for rows `first` to `end` - 1 only.
std::string delimited_rows(const Matrix& m, char delimiter, bool as_integers, std::size_t first, std::size_t end);

// `delimiter` is ',' for CSV or '\t' for TSV.
// One matrix picked: it alone, bare. Several: their blocks only, in the order given.
std::string render_delimited(const DemoReport& report, char delimiter, const MatrixSelection& show);

}  // namespace embdemo
