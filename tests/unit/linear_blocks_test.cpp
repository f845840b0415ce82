// linear_by_blocks against the one F.linear call PyTorch makes on the whole x: the same bits for
// every block size and thread count, with special values (nan payloads, inf, -0.0, subnormals)
// in both operands, k past OpenBLAS's own split of the sum (GPT-2's d = 768), and the shapes
// ATen treats apart (one row, one column, k = 1).
#include <doctest/doctest.h>

#include <cstddef>
#include <mutex>
#include <random>
#include <vector>

#include "core/kernels/linear_blocks.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "special_matrices.hpp"

namespace embdemo {
namespace {

// The blocks' rows put back together, and the sizes of the blocks seen.
struct Assembled {
    Matrix result;
    std::vector<std::size_t> block_rows;
    std::vector<int> times_seen;  // per row
};

Assembled assemble(const Matrix& x, const Matrix& w, const LinearBlockSettings& settings) {
    Assembled out{Matrix(x.rows, w.rows), {}, std::vector<int>(x.rows, 0)};
    std::mutex lock;
    linear_by_blocks(x, w, settings, [&](std::size_t first, const Matrix& rows) {
        const std::lock_guard<std::mutex> guard(lock);
        REQUIRE(rows.cols == w.rows);
        out.block_rows.push_back(rows.rows);
        for (std::size_t r = 0; r < rows.rows; ++r) {
            ++out.times_seen[first + r];
            for (std::size_t c = 0; c < rows.cols; ++c) out.result.at(first + r, c) = rows.at(r, c);
        }
    });
    return out;
}

}  // namespace

TEST_CASE("linear_by_blocks gives the whole F.linear call's bits for any blocks and threads") {
    std::mt19937 engine(27);
    for (int round = 0; round < 48; ++round) {
        const std::size_t n = round % 8 == 0 ? 1 : 1 + engine() % 40;
        const std::size_t m = round % 8 == 1 ? 1 : 1 + engine() % 70;
        const std::size_t k = round % 8 == 2 ? 1 : round % 4 == 3 ? 700 + engine() % 200 : 1 + engine() % 40;
        const bool specials = round % 2 == 1;
        const Matrix x = special_table(n, k, engine, specials);
        const Matrix w = special_table(m, k, engine, specials);
        const Matrix whole = torch_linear(x, w);
        for (const std::size_t block_values : {std::size_t{1}, m * 2, m * 3 + 1, m * 5, m * n}) {
            for (const unsigned threads : {1u, 2u, 3u}) {
                LinearBlockSettings settings;
                settings.block_values = block_values;
                settings.threads = threads;
                CAPTURE(round);
                CAPTURE(n);
                CAPTURE(m);
                CAPTURE(k);
                CAPTURE(block_values);
                CAPTURE(threads);
                const Assembled got = assemble(x, w, settings);
                CHECK(same_bits(got.result, whole));
                CHECK(got.times_seen == std::vector<int>(n, 1));
                for (const std::size_t rows : got.block_rows) CHECK((rows >= 2 || n == 1));
            }
        }
    }
}

TEST_CASE("linear_by_blocks cuts rows by the block's values and reports progress up to every row") {
    const Matrix x(5, 3);
    const Matrix w(7, 3);
    LinearBlockSettings settings;
    settings.block_values = 14;  // two rows of 7 a block: 2 + 3 (the lone last row joins its neighbour)
    std::vector<std::size_t> seen;
    settings.progress = [&](std::size_t done, std::size_t total) {
        CHECK(total == 5);
        seen.push_back(done);
    };
    const Assembled got = assemble(x, w, settings);
    CHECK(got.block_rows == std::vector<std::size_t>{2, 3});
    CHECK(seen == std::vector<std::size_t>{2, 5});
    CHECK(linear_block_rows(50257, std::size_t{1} << 22) == 83);
    CHECK(linear_block_rows(std::size_t{1} << 23, std::size_t{1} << 22) == 2);  // never a lone row
}

}  // namespace embdemo
