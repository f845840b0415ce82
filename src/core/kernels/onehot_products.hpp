// The one-hot products of a whole text without its one-hot matrix: one_hot(ids, V) is n x V, a
// gigabyte for a 5,000-token story at GPT-2's V, but each output row depends on one row of it.
// Every one of the n x V x d multiply-adds is done (that is the dense form's cost), and the
// result is the one PyTorch's `one_hot(ids).float() @ E` gives on this machine:
// - a table without inf or nan goes through embdemo's dense kernel (onehot_dense.hpp: sums in
//   order of k, at the BLAS's speed). Each sum there holds one term that can be nonzero,
//   X[i][ids[i]] * E[ids[i]][j], the others being +-0, and adding +-0 is exact in any order, so
//   every order of summation, the BLAS's included, gives the same bits: E[ids[i]][j], with -0.0
//   turned +0.0 by the +0.0 every sum starts from. Not opening the BLAS also keeps start-up fast.
// - a table with inf or nan (0 * inf is nan, and which nan payload survives depends on the order
//   of the sum) goes to the BLAS: X a block of rows at a time, each block handed over exactly as
//   torch_mm / torch_linear hand the whole X (torch_matmul.hpp).
// The blocks and their threads (cut_into_blocks, for_each_block) also serve grad's products:
// one_hot(ids).T @ G a block of dE's rows at a time (embedding.cpp) and G @ E.T a block of
// positions at a time (onehot_input.cpp).
//
// Shape legend: n ids, V rows of E (columns of X), d columns of E; W = E.T is d x V.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/matrix.hpp"
#include "core/threads.hpp"

namespace embdemo {

// Called after each block with the rows done so far and n: progress for a long product.
using ProductProgress = std::function<void(std::size_t done, std::size_t total)>;

struct OneHotProductSettings {
    // Values of X held per block (and per thread). A product whose whole X fits is one BLAS
    // call, the very call torch_mm makes; a larger one is cut into blocks of rows.
    std::size_t block_values = std::size_t{1} << 22;
    unsigned threads = 1;  // blocks are shared between this many threads; the bits do not change
    ProductProgress progress;
    // The caller knows the table holds no inf or nan (PyTorch's init draws none), which spares
    // a scan of it; otherwise the product scans it to choose its path.
    bool finite_table = false;
    // Whether the BLAS is used even for a finite table (tests compare the two paths).
    bool through_blas = false;
};

// Rows [first, first + count) of a matrix made or computed a block at a time.
struct RowBlock {
    std::size_t first = 0;
    std::size_t count = 0;
};

// `rows` cut into blocks of `per_block` rows (at least 2). No block holds a single row unless
// `rows` is 1: ATen hands a one-row operand to the BLAS with other flags and leading dimensions
// (torch_matmul.cpp), which the whole call PyTorch makes does not have, so a lone last row joins
// the block before it.
std::vector<RowBlock> cut_into_blocks(std::size_t rows, std::size_t per_block);

// The rows a block holds when each row has `row_values` values and a block at most
// `block_values`: at least 2, and from 64 on a multiple of 64, so that each block starts where
// one of the BLAS kernel's tiles starts in the whole call (its tiles are 4 to 32 wide).
std::size_t aligned_block_rows(std::size_t row_values, std::size_t block_values);

// `work` for every block, the blocks shared between settings.threads threads; progress hears of
// the rows done (of `rows`) after each block. The first exception a block throws is rethrown.
void for_each_block(const std::vector<RowBlock>& blocks, std::size_t rows, const OneHotProductSettings& settings,
                    const std::function<void(const RowBlock&)>& work);

// one_hot(ids, V) @ E through the BLAS. n x d
Matrix onehot_mm(const TokenIds& ids, const Matrix& weight, const OneHotProductSettings& settings = {});

// F.linear(one_hot(ids, V), W) = one_hot(ids, V) @ W.T for nn.Linear(V, d)'s weight W = E.T, held
// contiguous (d x V) as the module holds it; given E. n x d
// - A table without inf or nan is never copied into W: the dense kernel reads W.T where it lies,
//   which is E, so this is onehot_mm's finite path, the same in-order sums and so the same bits
//   that a kernel reading a contiguous W would make. (Each sum has one term that can be nonzero
//   anyway, so any order of summation gives these bits; docs/performance.md, "No copy of E".)
// - A table with inf or nan is transposed into W, and the BLAS gets W as torch_linear hands it a
//   contiguous weight: for such a table that call can differ from X @ E (which nan survives).
Matrix onehot_linear(const TokenIds& ids, const Matrix& table, const OneHotProductSettings& settings = {});

// True when no value of `m` is inf or nan.
bool all_finite(const Matrix& m);

// What a product did: the threads it ran on, and whether the BLAS computed it.
struct OneHotProductRun {
    unsigned threads = 1;
    bool through_blas = false;
};

// onehot_mm and onehot_linear, also telling what they did.
Matrix onehot_mm(const TokenIds& ids, const Matrix& weight, const OneHotProductSettings& settings,
                 OneHotProductRun& run);
Matrix onehot_linear(const TokenIds& ids, const Matrix& table, const OneHotProductSettings& settings,
                     OneHotProductRun& run);

// The most rows of X a block holds: block_values / V, at least 2, one more when a lone last row
// joins the block before it.
std::size_t onehot_block_rows(std::size_t vocab_size, std::size_t block_values);


}  // namespace embdemo
