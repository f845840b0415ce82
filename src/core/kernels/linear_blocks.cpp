#include "core/kernels/linear_blocks.hpp"

#include <algorithm>
#include <vector>

#include "core/kernels/onehot_products.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {
namespace {

// Rows [first, first + count) of x as a matrix of their own: contiguous, as a slice of a
// contiguous tensor is, so the BLAS gets the same strides.
Matrix row_slice(const Matrix& x, const RowBlock& block) {
    Matrix part(block.count, x.cols);
    std::copy(x.row(block.first), x.row(block.first) + block.count * x.cols, part.values.begin());
    return part;
}

}  // namespace

std::size_t linear_block_rows(std::size_t cols, std::size_t block_values) {
    return std::max<std::size_t>(2, block_values / std::max<std::size_t>(1, cols));
}

void linear_by_blocks(const Matrix& x, const Matrix& w, const LinearBlockSettings& settings, const LinearBlockSink& sink) {
    const std::size_t n = x.rows;
    if (n == 0) return;
    const std::size_t per_block = linear_block_rows(w.rows, settings.block_values);
    const std::vector<RowBlock> blocks = cut_into_blocks(n, per_block);
    if (blocks.size() == 1) {
        sink(0, torch_linear(x, w));
        if (settings.progress) settings.progress(n, n);
        return;
    }
    // Rows longer than half a block still go two to a block: then one block at a time, so that
    // the values held stay within a block of two rows.
    OneHotProductSettings shared;
    shared.threads = per_block * w.rows > settings.block_values ? 1u : settings.threads;
    shared.progress = settings.progress;
    for_each_block(blocks, n, shared,
                   [&](const RowBlock& block) { sink(block.first, torch_linear(row_slice(x, block), w)); });
}

}  // namespace embdemo
