// A dense row-major float32 matrix: the one type every layer passes around.
// It is deliberately plain (sizes + a buffer) so that headers stay light and the kernels read as
// loops over rows and columns (llm.c style); batches keep their B x T shape beside it.
#pragma once

#include <cstddef>
#include <vector>

#include "core/buffers.hpp"

namespace embdemo {

struct Matrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<float> values;  // rows * cols, row-major (C order), like a contiguous torch tensor

    Matrix() = default;
    Matrix(std::size_t row_count, std::size_t col_count)
        : rows(row_count), cols(col_count), values(zeroed_floats(row_count * col_count)) {}

    float at(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
    float& at(std::size_t r, std::size_t c) { return values[r * cols + c]; }
    const float* row(std::size_t r) const { return values.data() + r * cols; }

    friend bool operator==(const Matrix& a, const Matrix& b) {
        return a.rows == b.rows && a.cols == b.cols && a.values == b.values;
    }
};

}  // namespace embdemo
