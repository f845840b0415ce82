// NumPy's .npy format (numpy.lib.format), read and written without numpy: enough of it to load
// an embedding table saved with numpy.save and to write one that numpy.load reads back bit for
// bit. Only 2-D float32/float64 arrays in C order are accepted; everything else is refused with
// a message that says what the file holds and what is allowed. The header is parsed and the
// shape checked before a single data byte is read, so a hostile header cannot cause a huge
// allocation.
#pragma once

#include <cstddef>
#include <istream>
#include <string>

#include "core/matrix.hpp"
#include "core/parse_result.hpp"
#include "core/file_formats/weight_file.hpp"

namespace embdemo {

// numpy.load refuses longer headers by default (max_header_size), and so do we.
inline constexpr std::size_t k_max_npy_header_bytes = 10000;

// Reads a whole .npy stream: magic, version 1.0/2.0/3.0 header, then rows x cols values
// ('<f4', '>f4', '<f8' or '>f8'; float64 is rounded to float32). `check` sees the shape first.
// No trailing bytes are allowed after the data. `expected_shape` names the 2-D shape wanted, for
// the message about an array of another rank ("vocab x dim", or "3 x 5" for a file of G).
ParseResult<Matrix> read_npy(std::istream& in, const ShapeCheck& check,
                             const std::string& expected_shape = "vocab x dim");

// The bytes numpy.save(file, m) writes for a float32 C-order array: version 1.0, the same
// header text and padding, little-endian data.
std::string encode_npy(const Matrix& m);

// The same bytes in pieces, so that a large table can be written without a second copy of it
// in memory: the preamble and header for rows x cols, then the data of `count` values.
std::string encode_npy_header(std::size_t rows, std::size_t cols);
std::string encode_npy_data(const float* values, std::size_t count);

}  // namespace embdemo
