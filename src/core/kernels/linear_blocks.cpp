#include "core/kernels/linear_blocks.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/kernels/torch_matmul.hpp"

namespace embdemo {
namespace {

struct RowBlock {
    std::size_t first = 0;
    std::size_t count = 0;
};

// Blocks of `per_block` rows; a lone last row joins the block before it.
std::vector<RowBlock> cut_rows(std::size_t n, std::size_t per_block) {
    std::vector<RowBlock> blocks;
    for (std::size_t first = 0; first < n; first += per_block) blocks.push_back({first, std::min(per_block, n - first)});
    if (blocks.size() > 1 && blocks.back().count == 1) {
        blocks.pop_back();
        blocks.back().count += 1;
    }
    return blocks;
}

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
    const std::vector<RowBlock> blocks = cut_rows(n, per_block);
    if (blocks.size() == 1) {
        sink(0, torch_linear(x, w));
        if (settings.progress) settings.progress(n, n);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> rows_done{0};
    std::mutex report;
    std::exception_ptr failure;
    const auto work = [&] {
        try {
            for (std::size_t b = next++; b < blocks.size(); b = next++) {
                sink(blocks[b].first, torch_linear(row_slice(x, blocks[b]), w));
                const std::size_t done = rows_done += blocks[b].count;
                if (settings.progress) {
                    const std::lock_guard<std::mutex> lock(report);
                    settings.progress(done, n);
                }
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(report);
            if (!failure) failure = std::current_exception();
            next = blocks.size();
        }
    };
    // Rows longer than half a block still go two to a block: then one block at a time, so that
    // the values held stay within a block of two rows.
    const bool long_rows = per_block * w.rows > settings.block_values;
    const unsigned threads =
        long_rows ? 1u : std::max(1u, std::min<unsigned>(settings.threads, static_cast<unsigned>(blocks.size())));
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
    for (std::thread& helper : helpers) helper.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace embdemo
