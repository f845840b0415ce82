// The blockwise one-hot products against the one BLAS call PyTorch makes on the whole X: the
// same bits for every block size and thread count, special values in E included (where the
// order of a sum could show: nan payloads, inf, -0.0).
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "special_matrices.hpp"

namespace embdemo {

TEST_CASE("onehot_mm and onehot_linear give the whole-X BLAS call's bits for any path, blocks and threads") {
    std::mt19937 engine(2024);
    for (int round = 0; round < 60; ++round) {
        const std::size_t vocab = 1 + engine() % 40;
        const std::size_t dim = 1 + engine() % 19;
        const std::size_t n = 1 + engine() % 50;
        const bool specials = round % 2 == 1;
        const Matrix e = special_table(vocab, dim, engine, specials);
        TokenIds ids(n);
        for (auto& id : ids) id = engine() % vocab;
        const Matrix whole = torch_mm(one_hot(ids, vocab), e);
        const Matrix whole_linear = torch_linear(one_hot(ids, vocab), transpose(e));
        for (const std::size_t block_values : {std::size_t{1}, vocab * 2, vocab * 3 + 1, vocab * 7}) {
            for (const unsigned threads : {1u, 2u, 3u}) {
                for (const bool through_blas : {false, true}) {
                    OneHotProductSettings settings;
                    settings.block_values = block_values;
                    settings.threads = threads;
                    settings.through_blas = through_blas;
                    CAPTURE(round);
                    CAPTURE(block_values);
                    CAPTURE(threads);
                    CAPTURE(through_blas);
                    OneHotProductRun run;
                    CHECK(same_bits(onehot_mm(ids, e, settings, run), whole));
                    // The dense kernel serves exactly the tables without inf or nan.
                    CHECK(run.through_blas == (through_blas || !all_finite(e)));
                    CHECK(same_bits(onehot_linear(ids, e, settings), whole_linear));
                }
            }
        }
    }
}

TEST_CASE("a blockwise product reports its progress up to every row, and no block is a single row") {
    const Matrix e(7, 3);
    const TokenIds ids{1, 2, 3, 4, 5};
    OneHotProductSettings settings;
    settings.through_blas = true;
    settings.block_values = 14;  // two rows of X a block: 2 + 3 (the lone last row joins its neighbour)
    std::vector<std::size_t> seen;
    settings.progress = [&](std::size_t done, std::size_t total) {
        CHECK(total == 5);
        seen.push_back(done);
    };
    (void)onehot_mm(ids, e, settings);
    CHECK(seen == std::vector<std::size_t>{2, 5});
}

}  // namespace embdemo

namespace embdemo {

TEST_CASE("the dense path reports its progress in slices of rows, ending at n") {
    Matrix e(11, 2);
    for (std::size_t k = 0; k < e.values.size(); ++k) e.values[k] = static_cast<float>(k) - 5.0f;
    TokenIds ids(1300);
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = (i * 7) % 11;
    OneHotProductSettings settings;
    std::vector<std::size_t> seen;
    settings.progress = [&](std::size_t done, std::size_t total) {
        CHECK(total == 1300);
        seen.push_back(done);
    };
    OneHotProductRun run;
    const Matrix out = onehot_mm(ids, e, settings, run);
    CHECK_FALSE(run.through_blas);
    CHECK(seen == std::vector<std::size_t>{512, 1024, 1300});
    CHECK(same_bits(out, torch_mm(one_hot(ids, 11), e)));
}

}  // namespace embdemo
