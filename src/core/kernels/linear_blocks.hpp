// F.linear(x, w) = x @ w.T a block of x's rows at a time, for results too large to hold: the
// tied lesson's logits H @ E.T are n x V, a gigabyte for a 5,000-token story at GPT-2's V, but
// each row of them depends on one row of H. Each block of rows goes to the BLAS exactly as
// torch_linear hands the whole x (torch_matmul.hpp), so every row has the bits PyTorch's one
// F.linear call gives it; the caller keeps what it needs of each block and drops the rest.
//
// Shape legend: x is n x k, w is m x k (out x in, as nn.Linear stores it), a block b x m.
#pragma once

#include <cstddef>
#include <functional>

#include "core/kernels/onehot_products.hpp"
#include "core/matrix.hpp"

namespace embdemo {

struct LinearBlockSettings {
    // Result values held per block (and per thread). A product whose whole result fits is one
    // BLAS call, the very call F.linear makes; a larger one is cut into blocks of rows, never of
    // one row unless n is 1 (ATen normalises a one-row operand's leading dimensions, and a BLAS
    // may take another path for it), so a block of a long row holds two rows (three when a lone
    // last row joins it), and such blocks are made one at a time whatever `threads` says.
    std::size_t block_values = std::size_t{1} << 22;
    unsigned threads = 1;  // blocks are shared between this many threads; the bits do not change
    ProductProgress progress;
};

// Called once per block with its first row and its rows of the result (rows.rows x m), from
// any of the threads, never twice for the same rows: it may write per-row results in place.
using LinearBlockSink = std::function<void(std::size_t first_row, const Matrix& rows)>;

void linear_by_blocks(const Matrix& x, const Matrix& w, const LinearBlockSettings& settings, const LinearBlockSink& sink);

// The rows a block holds for a result of m columns: block_values / m, at least 2.
std::size_t linear_block_rows(std::size_t cols, std::size_t block_values);

}  // namespace embdemo
