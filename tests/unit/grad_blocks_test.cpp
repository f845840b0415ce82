// grad's two n x V x d products a block at a time against the one BLAS call PyTorch makes on
// the whole X: one_hot(ids).T @ G a block of dE's rows (X's columns) at a time, and G @ E.T a
// block of positions at a time, the same bits for every block size and thread count, with
// repeated ids and special values in G and E (inf, nan payloads, -0.0), where the order of a
// sum would show.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/kernels/onehot_input.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {
namespace {

bool same_bits(const float* a, const float* b, std::size_t count) {
    return std::memcmp(a, b, count * sizeof(float)) == 0;
}

bool same_bits(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols && same_bits(a.values.data(), b.values.data(), a.values.size());
}

float special_value(std::mt19937& engine) {
    switch (engine() % 5) {
        case 0: return -0.0f;
        case 1: return std::numeric_limits<float>::infinity();
        case 2: return -std::numeric_limits<float>::infinity();
        case 3: {
            const std::uint32_t bits = (engine() % 2 ? 0xffc00000u : 0x7fc00000u) | (engine() & 0x3fffffu);
            float value;
            std::memcpy(&value, &bits, sizeof value);
            return value;
        }
        default: return std::numeric_limits<float>::denorm_min();
    }
}

// Values from mt19937's raw output (no std distribution), a few special ones when asked.
Matrix random_matrix(std::size_t rows, std::size_t cols, std::mt19937& engine, bool specials) {
    Matrix m(rows, cols);
    for (float& value : m.values) value = static_cast<float>(static_cast<std::int32_t>(engine() % 4001) - 2000) / 512.0f;
    if (!specials) return m;
    for (std::size_t k = 0; k < m.values.size() / 23 + 1; ++k) m.values[engine() % m.values.size()] = special_value(engine);
    return m;
}

// Ids drawn from a few of the V rows, so that they repeat.
TokenIds repeated_ids(std::size_t n, std::size_t vocab, std::mt19937& engine) {
    const std::size_t distinct = 1 + engine() % vocab;
    TokenIds ids(n);
    for (auto& id : ids) id = (engine() % distinct) * (vocab / distinct);
    return ids;
}

// PyTorch's one call: X.T @ G, or (G.T @ X).T when V = d = 1 (torch_matmul.cpp).
Matrix whole_backward(const Matrix& g, const TokenIds& ids, std::size_t vocab) {
    const Matrix x = one_hot(ids, vocab);
    if (vocab == 1 && g.cols == 1) return transpose(torch_mm_transposed_left(g, x));
    return torch_mm_transposed_left(x, g);
}

struct Shape {
    std::size_t n, vocab, dim;
};

// `check` with blocks of each of `block_rows` rows of `row_values` values, on one and two threads.
template <typename Check>
void for_each_blocking(std::initializer_list<std::size_t> block_rows, std::size_t row_values, const Check& check) {
    for (const std::size_t rows : block_rows) {
        for (const unsigned threads : {1u, 2u}) {
            OneHotProductSettings settings;
            settings.block_values = rows * row_values;
            settings.threads = threads;
            CAPTURE(rows);
            CAPTURE(threads);
            check(settings);
        }
    }
}

}  // namespace

TEST_CASE("onehot_backward a block of dE's rows at a time gives the whole-X call's bits") {
    std::mt19937 engine(27);
    std::vector<Shape> shapes{{1, 1, 1}, {5, 1, 3}, {7, 9, 1}, {1, 30, 4}, {40, 130, 3}, {500, 200, 5}, {96, 300, 1}};
    for (int round = 0; round < 40; ++round) shapes.push_back({1 + engine() % 60, 1 + engine() % 90, 1 + engine() % 17});
    for (std::size_t s = 0; s < shapes.size(); ++s) {
        const Shape shape = shapes[s];
        const bool specials = s % 2 == 1;
        const Matrix g = random_matrix(shape.n, shape.dim, engine, specials);
        const TokenIds ids = repeated_ids(shape.n, shape.vocab, engine);
        const Matrix whole = whole_backward(g, ids, shape.vocab);
        // One column of X a block (two, as a lone one joins its neighbour), a few, 64-aligned, whole.
        CAPTURE(s);
        for_each_blocking({1, 3, 64, 65, shape.vocab}, shape.n, [&](const OneHotProductSettings& settings) {
            CHECK(same_bits(onehot_backward(g, ids, shape.vocab, settings), whole));
        });
    }
}

TEST_CASE("onehot_input_scores keeps the shown rows of the whole G @ E.T, bit for bit") {
    std::mt19937 engine(2027);
    std::vector<Shape> shapes{{1, 1, 1}, {1, 40, 3}, {2, 1, 4}, {9, 1, 1}, {200, 70, 3}, {150, 33, 1}};
    for (int round = 0; round < 40; ++round) shapes.push_back({1 + engine() % 90, 1 + engine() % 60, 1 + engine() % 17});
    for (std::size_t s = 0; s < shapes.size(); ++s) {
        const Shape shape = shapes[s];
        const bool specials = s % 2 == 0;
        const Matrix g = random_matrix(shape.n, shape.dim, engine, specials);
        const Matrix e = random_matrix(shape.vocab, shape.dim, engine, specials);
        const Matrix whole = onehot_input_gradient(g, e);
        std::vector<std::size_t> shown;
        for (std::size_t t = 0; t < shape.n; ++t) {
            if (t < 3 || t + 3 >= shape.n || engine() % 11 == 0) shown.push_back(t);
        }
        CAPTURE(s);
        const OneHotInputScores kept_whole = onehot_input_scores(g, e, shape.n * shape.vocab, shown);
        CHECK(kept_whole.whole());
        CHECK(same_bits(kept_whole.values, whole));
        for_each_blocking({1, 2, 5, 64, 70}, shape.vocab, [&](const OneHotProductSettings& settings) {
            const OneHotInputScores scores = onehot_input_scores(g, e, shape.n * shape.vocab - 1, shown, settings);
            CHECK(scores.kept_positions == shown);
            for (const std::size_t t : shown) CHECK(same_bits(scores.row(t), whole.row(t), shape.vocab));
        });
    }
}

TEST_CASE("dL/dX's kept rows are the only rows it answers for") {
    const Matrix g(4, 2);
    const Matrix e(5, 2);
    const OneHotInputScores scores = onehot_input_scores(g, e, 19, {0, 3});
    CHECK_FALSE(scores.whole());
    CHECK(scores.kept(3));
    CHECK_FALSE(scores.kept(1));
    CHECK_THROWS_AS((void)scores.row(1), std::logic_error);
    CHECK(lowest_scores(scores.row(3), 5, 2) == std::vector<std::size_t>{0, 1});
}

TEST_CASE("cut_into_blocks never leaves a lone last row, and aligned blocks start on multiples of 64") {
    CHECK(cut_into_blocks(5, 2).size() == 2);
    CHECK(cut_into_blocks(5, 2).back().count == 3);
    CHECK(cut_into_blocks(1, 4).size() == 1);
    CHECK(aligned_block_rows(10, 15) == 2);
    CHECK(aligned_block_rows(10, 630) == 63);
    CHECK(aligned_block_rows(10, 1300) == 128);
}

}  // namespace embdemo
