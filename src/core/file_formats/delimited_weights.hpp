// Embedding tables as plain text: one row of E per line, values separated by ',' (CSV) or a tab
// (TSV), as numpy.savetxt, a spreadsheet or embdemo's own --format csv --show weight write them.
// No header line, no quoting, no comments: every line is a row of numbers, so that nothing is
// guessed. Each value is read as a double and rounded to float32 (numpy.float32(text) does the
// same); nan, inf and -inf are accepted. The input is read as a stream with a bounded buffer
// per value, and the number of values is capped while reading, so a huge or hostile file
// cannot make memory explode.
#pragma once

#include <istream>

#include "core/matrix.hpp"
#include "core/parse_result.hpp"
#include "core/file_formats/weight_file.hpp"

namespace embdemo {

// Reads every line of `in`. `delimiter` is ',' or '\t'. `check` sees the shape once all lines
// are read. Errors name the line (from 1) and the value (from 1).
ParseResult<Matrix> read_delimited_weights(std::istream& in, char delimiter, const ShapeCheck& check);

}  // namespace embdemo
