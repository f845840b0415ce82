#include "core/kernels/onehot_products.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/kernels/onehot_dense.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {
namespace {

std::size_t rows_per_block(std::size_t vocab_size, std::size_t block_values) {
    return std::max<std::size_t>(2, block_values / std::max<std::size_t>(1, vocab_size));
}

using BlockProduct = Matrix (*)(const Matrix& x, const Matrix& operand);

Matrix blockwise(const TokenIds& ids, std::size_t vocab_size, std::size_t dim, const Matrix& operand,
                 BlockProduct product, const OneHotProductSettings& settings) {
    const std::size_t n = ids.size();
    if (n * vocab_size <= settings.block_values) return product(one_hot(ids, vocab_size), operand);
    Matrix out(n, dim);
    for_each_block(cut_into_blocks(n, rows_per_block(vocab_size, settings.block_values)), n, settings,
                   [&](const RowBlock& block) {
                       const TokenIds part(ids.begin() + static_cast<std::ptrdiff_t>(block.first),
                                           ids.begin() + static_cast<std::ptrdiff_t>(block.first + block.count));
                       const Matrix rows = product(one_hot(part, vocab_size), operand);
                       std::memcpy(out.values.data() + block.first * dim, rows.values.data(),
                                   rows.values.size() * sizeof(float));
                   });
    return out;
}

unsigned threads_used(std::size_t ids, std::size_t vocab_size, const OneHotProductSettings& settings) {
    if (ids * vocab_size <= settings.block_values) return 1;
    const std::size_t blocks = cut_into_blocks(ids, rows_per_block(vocab_size, settings.block_values)).size();
    return std::max(1u, static_cast<unsigned>(std::min<std::size_t>(settings.threads, blocks)));
}

// The dense kernel over slices of rows, so that a long product can say how far it has got.
Matrix dense(const TokenIds& ids, const Matrix& table, const OneHotProductSettings& settings, unsigned& threads) {
    const std::size_t n = ids.size();
    Matrix out(n, table.cols);
    // Each call packs the table once per thread: a twentieth of the rows a call keeps that cost
    // to a few per cent at the book's size.
    const std::size_t slice = settings.progress ? std::max<std::size_t>(512, n / 20) : n;
    threads = 1;
    for (std::size_t first = 0; first < n; first += slice) {
        const std::size_t count = std::min(slice, n - first);
        threads = std::max(threads, onehot_dense_product(ids.data() + first, count, table.values.data(), table.rows,
                                                         table.cols, out.values.data() + first * table.cols,
                                                         settings.threads));
        if (settings.progress) settings.progress(first + count, n);
    }
    return out;
}

Matrix mm_block(const Matrix& x, const Matrix& weight) { return torch_mm(x, weight); }
Matrix linear_block(const Matrix& x, const Matrix& w) { return torch_linear(x, w); }

}  // namespace

std::vector<RowBlock> cut_into_blocks(std::size_t rows, std::size_t per_block) {
    per_block = std::max<std::size_t>(2, per_block);
    std::vector<RowBlock> blocks;
    for (std::size_t first = 0; first < rows; first += per_block) {
        blocks.push_back({first, std::min(per_block, rows - first)});
    }
    if (blocks.size() > 1 && blocks.back().count == 1) {
        blocks.pop_back();
        blocks.back().count += 1;
    }
    return blocks;
}

std::size_t aligned_block_rows(std::size_t row_values, std::size_t block_values) {
    constexpr std::size_t k_tile_multiple = 64;
    const std::size_t rows = rows_per_block(row_values, block_values);
    return rows < k_tile_multiple ? rows : rows / k_tile_multiple * k_tile_multiple;
}

void for_each_block(const std::vector<RowBlock>& blocks, std::size_t rows, const OneHotProductSettings& settings,
                    const std::function<void(const RowBlock&)>& work) {
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> rows_done{0};
    std::mutex report;
    std::exception_ptr failure;
    const auto run = [&] {
        try {
            for (std::size_t b = next++; b < blocks.size(); b = next++) {
                work(blocks[b]);
                const std::size_t done = rows_done += blocks[b].count;
                if (settings.progress) {
                    const std::lock_guard<std::mutex> lock(report);
                    settings.progress(done, rows);
                }
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(report);
            if (!failure) failure = std::current_exception();
            next = blocks.size();
        }
    };
    const unsigned threads = std::max(1u, std::min<unsigned>(settings.threads, static_cast<unsigned>(blocks.size())));
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(run);
    run();
    for (std::thread& helper : helpers) helper.join();
    if (failure) std::rethrow_exception(failure);
}

// Exponent bits all ones is inf or nan: a loop the compiler vectorises.
bool all_finite(const Matrix& m) {
    bool special = false;
    for (const float value : m.values) {
        std::uint32_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        special |= (bits & 0x7f800000u) == 0x7f800000u;
    }
    return !special;
}

namespace {

// The product of X with `table` (V x d) that `through_blas` makes: onehot_mm's and onehot_linear's
// BLAS calls differ, their dense path is the same.
Matrix onehot_product(const TokenIds& ids, const Matrix& table, const OneHotProductSettings& settings,
                      OneHotProductRun& run, const std::function<Matrix()>& through_blas) {
    run.through_blas = settings.through_blas || !(settings.finite_table || all_finite(table));
    if (!run.through_blas) return dense(ids, table, settings, run.threads);
    run.threads = threads_used(ids.size(), table.rows, settings);
    return through_blas();
}

}  // namespace

Matrix onehot_mm(const TokenIds& ids, const Matrix& weight, const OneHotProductSettings& settings,
                 OneHotProductRun& run) {
    return onehot_product(ids, weight, settings, run,
                          [&] { return blockwise(ids, weight.rows, weight.cols, weight, mm_block, settings); });
}

Matrix onehot_linear(const TokenIds& ids, const Matrix& table, const OneHotProductSettings& settings,
                     OneHotProductRun& run) {
    return onehot_product(ids, table, settings, run, [&] {
        const Matrix w = transpose(table);
        return blockwise(ids, table.rows, table.cols, w, linear_block, settings);
    });
}

Matrix onehot_mm(const TokenIds& ids, const Matrix& weight, const OneHotProductSettings& settings) {
    OneHotProductRun run;
    return onehot_mm(ids, weight, settings, run);
}

Matrix onehot_linear(const TokenIds& ids, const Matrix& table, const OneHotProductSettings& settings) {
    OneHotProductRun run;
    return onehot_linear(ids, table, settings, run);
}

std::size_t onehot_block_rows(std::size_t vocab_size, std::size_t block_values) {
    return rows_per_block(vocab_size, block_values) + 1;
}

}  // namespace embdemo
