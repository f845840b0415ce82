#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/kernels/embedding.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/torch/init.hpp"
#include "core/lessons/report.hpp"

using namespace embdemo;

namespace {

Matrix counting_matrix(std::size_t rows, std::size_t cols) {
    Matrix m(rows, cols);
    for (std::size_t i = 0; i < m.values.size(); ++i) m.values[i] = static_cast<float>(i) + 0.5f;
    return m;
}

}  // namespace

TEST_CASE("one_hot puts a single 1 in column id of each row") {
    const Matrix x = one_hot({2, 3, 1}, 4);
    CHECK(x.rows == 3);
    CHECK(x.cols == 4);
    CHECK(x.values == std::vector<float>{0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0});
}

TEST_CASE("one_hot keeps repeated ids as repeated rows") {
    const Matrix x = one_hot({1, 1}, 3);
    CHECK(x.values == std::vector<float>{0, 1, 0, 0, 1, 0});
}

TEST_CASE("lookup copies the selected rows in the order of the ids") {
    const Matrix e = counting_matrix(4, 2);
    const Matrix result = lookup(e, {3, 0, 3});
    CHECK(result.rows == 3);
    CHECK(result.cols == 2);
    CHECK(result.values == std::vector<float>{6.5f, 7.5f, 0.5f, 1.5f, 6.5f, 7.5f});
}

TEST_CASE("matmul computes a plain matrix product") {
    Matrix a(2, 3);
    a.values = {1, 2, 3, 4, 5, 6};
    Matrix b(3, 2);
    b.values = {7, 8, 9, 10, 11, 12};
    const Matrix c = matmul(a, b);
    CHECK(c.values == std::vector<float>{58, 64, 139, 154});
}

TEST_CASE("transpose swaps rows and columns") {
    const Matrix m = counting_matrix(2, 3);
    const Matrix t = transpose(m);
    REQUIRE(t.rows == 3);
    REQUIRE(t.cols == 2);
    for (std::size_t r = 0; r < 2; ++r) {
        for (std::size_t c = 0; c < 3; ++c) CHECK(t.at(c, r) == m.at(r, c));
    }
}

TEST_CASE("torch_linear is x times the transpose of the weight it is given, as F.linear") {
    Matrix x(1, 3);
    x.values = {1, 2, 3};
    Matrix w(2, 3);  // out x in: out[j] = sum_k x[k] * w[j][k]
    w.values = {1, 0, 1, 0, 1, 0};
    CHECK(torch_linear(x, w).values == std::vector<float>{4, 2});
    CHECK(torch_mm(x, transpose(w)).values == std::vector<float>{4, 2});
    CHECK(torch_mm_transposed_left(transpose(x), transpose(w)).values == std::vector<float>{4, 2});
}

TEST_CASE("matmul adds each output's terms in order of k, starting from +0.0") {
    // (0 + 1e8) + -1e8 = 0, then + 1 = 1; any other order loses the 1 in 1e8's rounding.
    Matrix a(1, 3);
    a.values = {1, 1, 1};
    Matrix b(3, 1);
    b.values = {1e8f, -1e8f, 1.0f};
    CHECK(matmul(a, b).values == std::vector<float>{1.0f});
    // A sum of nothing but -0.0 terms stays +0.0: the accumulator starts at +0.0.
    Matrix minus_zero(3, 1);
    minus_zero.values = {-0.0f, -0.0f, -0.0f};
    CHECK_FALSE(std::signbit(matmul(a, minus_zero).values[0]));
}

TEST_CASE("matmul equals a plain triple loop bit for bit") {
    // Sizes that cross the row tile and leave remainders for a vectorised inner loop; values of
    // mixed magnitude so that any change in the order of the additions would show.
    std::mt19937 random(77);
    for (const auto& [n, vocab, dim] : {std::array<std::size_t, 3>{19, 37, 23},
                                        std::array<std::size_t, 3>{8, 5, 64},
                                        std::array<std::size_t, 3>{1, 300, 3}}) {
        CAPTURE(n);
        Matrix a(n, vocab);
        Matrix b(vocab, dim);
        for (float& v : a.values) v = std::ldexp(static_cast<float>(random() % 2001) - 1000.0f, -7);
        for (float& v : b.values) v = std::ldexp(static_cast<float>(random() % 2001) - 1000.0f,
                                                 static_cast<int>(random() % 40) - 20);
        Matrix expected(n, dim);
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < dim; ++j) {
                float sum = 0.0f;
                for (std::size_t k = 0; k < vocab; ++k) sum += a.at(i, k) * b.at(k, j);
                expected.at(i, j) = sum;
            }
        }
        CHECK(compare_exact(matmul(a, b), expected).identical);
    }
}

TEST_CASE("compare_exact sees sign of zero, infinities and NaN") {
    Matrix a(1, 3);
    Matrix b(1, 3);
    a.values = {1.0f, 0.0f, std::numeric_limits<float>::infinity()};
    b.values = {1.0f, 0.0f, std::numeric_limits<float>::infinity()};
    CHECK(compare_exact(a, b).identical);

    b.values[1] = -0.0f;
    auto result = compare_exact(a, b);
    CHECK_FALSE(result.identical);
    CHECK(result.differing == 1);
    CHECK(result.max_abs_diff == 0.0);

    b.values[2] = std::numeric_limits<float>::quiet_NaN();
    result = compare_exact(a, b);
    CHECK(result.differing == 2);
    CHECK(std::isnan(result.max_abs_diff));
}

TEST_CASE("a lookup of torch weights equals the one-hot product bit for bit in many random cases") {
    std::mt19937_64 random(2026);
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t vocab = 1 + random() % 60;
        const std::size_t dim = 1 + random() % 20;
        const std::size_t count = 1 + random() % 12;
        const std::uint64_t seed = random();
        TokenIds ids(count);
        for (auto& id : ids) id = random() % vocab;
        CAPTURE(seed);
        CAPTURE(vocab);
        CAPTURE(dim);

        DemoRequest request;
        request.ids = ids;
        request.vocab_size = vocab;
        request.dim = dim;
        request.seed = seed;
        const DemoReport report = build_demo_report(request, torch_embedding_weight(vocab, dim, seed));
        REQUIRE(report.verdict.identical);
        REQUIRE(report.linear_verdict.identical);
        REQUIRE(std::memcmp(report.lookup.values.data(), report.onehot_matmul.values.data(),
                            report.lookup.values.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("a -0.0 weight makes the one-hot product differ from the lookup") {
    // 0*w + ... + 1*(-0.0) sums to +0.0: the product cannot reproduce a negative zero.
    Matrix e(2, 1);
    e.values = {-0.0f, 1.0f};
    DemoRequest request;
    request.ids = {0};
    request.vocab_size = 2;
    request.dim = 1;
    const DemoReport report = build_demo_report(request, e);
    CHECK_FALSE(report.verdict.identical);
    CHECK(report.verdict.max_abs_diff == 0.0);
}

TEST_CASE("an infinite weight poisons the one-hot product with NaN while the lookup stays clean") {
    Matrix e(2, 1);
    e.values = {1.0f, std::numeric_limits<float>::infinity()};
    DemoRequest request;
    request.ids = {0};
    request.vocab_size = 2;
    request.dim = 1;
    const DemoReport report = build_demo_report(request, e);
    CHECK(report.lookup.values[0] == 1.0f);
    CHECK(std::isnan(report.onehot_matmul.values[0]));  // 0 * inf = NaN
    CHECK_FALSE(report.verdict.identical);
}
