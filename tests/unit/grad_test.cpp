// Tests of the two backward passes (src/core/kernels/grad.hpp): the embedding backward against
// emb.weight.grad recorded from real torch 1.13.1 (tests/data/torch_grad_vectors.txt), bit for bit,
// and the one-hot backward against the plain matmul(transpose(one_hot(ids)), G) reference and
// against the embedding backward where the two must agree, and where they must not.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/kernels/grad.hpp"
#include "core/ids.hpp"
#include "core/torch/init.hpp"
#include "core/torch/torch_rng.hpp"
#include "torch_cases.hpp"

namespace embdemo {
namespace {

using testing::bits_of;

Matrix from_rows(std::size_t rows, std::size_t cols, std::vector<float> values) {
    Matrix m(rows, cols);
    m.values = std::move(values);
    return m;
}

Matrix upstream_for(const testing::RecordedCase& recorded, TorchGenerator& generator,
                    std::size_t rows, std::size_t dim) {
    if (recorded.key("upstream") == "randn") return torch_randn(generator, rows, dim);
    Matrix ones(rows, dim);
    for (float& value : ones.values) value = 1.0f;
    return ones;
}

EmbeddingOptions recorded_options(const testing::RecordedCase& recorded, std::size_t vocab) {
    EmbeddingOptions options;
    options.scale_grad_by_freq = recorded.key("scale") == "1";
    if (recorded.key("padding") != "none") {
        const auto row = resolve_padding_idx(std::stoll(recorded.key("padding")), vocab);
        REQUIRE(row);
        options.padding_row = row.value();
    }
    return options;
}

}  // namespace

TEST_CASE("embedding_backward scatter-adds G's rows: unused rows stay 0, repeats add up") {
    // ids 2, 0, 2 into V = 4: row 2 gets G[0] + G[2], row 0 gets G[1], rows 1 and 3 nothing.
    const Matrix upstream = from_rows(3, 2, {1.0f, 2.0f, 10.0f, 20.0f, 0.5f, -4.0f});
    const Matrix grad = embedding_backward(upstream, {2, 0, 2}, 4);
    CHECK(grad == from_rows(4, 2, {10.0f, 20.0f, 0.0f, 0.0f, 1.5f, -2.0f, 0.0f, 0.0f}));
    for (const std::size_t unused : {1, 3}) {
        CHECK(bits_of(grad.at(unused, 0)) == 0u);  // +0.0, not -0.0
        CHECK(bits_of(grad.at(unused, 1)) == 0u);
    }
}

TEST_CASE("embedding_backward gives the padding row nothing and scales by the id's count") {
    const Matrix upstream = from_rows(4, 1, {3.0f, 6.0f, 12.0f, 5.0f});
    EmbeddingOptions padding;
    padding.padding_row = 1;
    CHECK(embedding_backward(upstream, {1, 0, 1, 2}, 3, padding) ==
          from_rows(3, 1, {6.0f, 0.0f, 5.0f}));
    EmbeddingOptions scaled;
    scaled.scale_grad_by_freq = true;
    // Row 0 is used 3 times: (3 + 6 + 12) / 3 = 7, added as three fma(G[i], float(1/3), acc).
    CHECK(embedding_backward(upstream, {0, 0, 0, 2}, 3, scaled).at(0, 0) ==
          std::fma(12.0f, 1.0f / 3.0f, std::fma(6.0f, 1.0f / 3.0f, 3.0f * (1.0f / 3.0f))));
    CHECK(embedding_backward(upstream, {0, 0, 0, 2}, 3, scaled).at(2, 0) == 5.0f);
}

TEST_CASE("embedding_backward equals emb.weight.grad from torch bit for bit in every recorded case") {
    const auto cases = testing::load_recorded_cases(EMBDEMO_TEST_DATA_DIR "/torch_grad_vectors.txt");
    std::size_t checked = 0;
    std::size_t failed = 0;
    std::uint64_t scaled_dims = 0;  // bit d: a case with scale_grad_by_freq and this d
    for (const auto& recorded : cases) {
        if (recorded.kind != "grad") continue;
        const auto ids = parse_id_batch(recorded.key("ids"));
        REQUIRE(ids);
        const std::size_t vocab = recorded.number("vocab");
        const std::size_t dim = recorded.number("dim");
        const EmbeddingOptions options = recorded_options(recorded, vocab);
        TorchGenerator generator(recorded.number("seed"));
        torch_embedding_weight(generator, vocab, dim, options.padding_row);
        const Matrix upstream = upstream_for(recorded, generator, ids.value().values.size(), dim);
        const Matrix grad = embedding_backward(upstream, ids.value().values, vocab, options);
        if (!testing::matches_recorded(recorded, "grad", grad)) ++failed;
        if (options.scale_grad_by_freq) scaled_dims |= std::uint64_t{1} << (dim % 64);
        ++checked;
    }
    CHECK_MESSAGE(failed == 0, failed, " of ", checked, " cases differ");
    CHECK(checked >= 90);
    // Every d from 1 to 40 was recorded with scale_grad_by_freq (vectorised body and scalar tail).
    for (std::size_t dim = 1; dim <= 40; ++dim) {
        CAPTURE(dim);
        CHECK(((scaled_dims >> dim) & 1u) == 1u);
    }
}

TEST_CASE("onehot_backward is matmul(transpose(one_hot(ids)), G) bit for bit, even with inf and nan") {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const TokenIds ids = {3, 0, 3, 1};
    const Matrix upstream =
        from_rows(4, 3, {1.5f, -0.0f, inf, 2.0f, nan, -1.0f, 0.25f, 7.0f, -inf, 1e-30f, 3.0f, -0.0f});
    const Matrix reference = matmul(transpose(one_hot(ids, 5)), upstream);
    const Matrix grad = onehot_backward(upstream, ids, 5);
    REQUIRE(grad.rows == 5);
    REQUIRE(grad.cols == 3);
    for (std::size_t i = 0; i < grad.values.size(); ++i) {
        CAPTURE(i);
        CHECK(bits_of(grad.values[i]) == bits_of(reference.values[i]));
    }
}

TEST_CASE("for a plain embedding and a finite G both backward passes agree bit for bit") {
    std::mt19937 cases(77);  // sizes and ids only; every float comes from the torch generator
    for (int round = 0; round < 200; ++round) {
        const std::size_t vocab = 1 + cases() % 40;
        const std::size_t dim = 1 + cases() % 24;
        TokenIds ids(1 + cases() % 20);
        for (auto& id : ids) id = cases() % vocab;
        TorchGenerator generator(cases());
        const Matrix upstream = torch_randn(generator, ids.size(), dim);
        const Matrix lookup_grad = embedding_backward(upstream, ids, vocab);
        const Matrix onehot_grad = onehot_backward(upstream, ids, vocab);
        CAPTURE(round);
        const GradComparison comparison = compare_gradients(lookup_grad, onehot_grad, ids, {});
        CHECK(comparison.whole.identical);
        for (const GradRow& row : comparison.rows) {
            CHECK(row.expected == GradRowDifference::none);
            CHECK(row.identical);
        }
    }
}

TEST_CASE("compare_gradients names the padding row and the scaled rows as the places that differ") {
    // ids (2 x 3 batch) 2,2,2 ; 1,2,3 with padding_idx 1 and scale_grad_by_freq: row 2 is used
    // four times (scale 1/4), row 1 is the padding row, row 3 once (scale 1: the forms agree).
    const TokenIds ids = {2, 2, 2, 1, 2, 3};
    TorchGenerator generator(4);
    const Matrix upstream = torch_randn(generator, ids.size(), 4);
    EmbeddingOptions options;
    options.padding_row = 1;
    options.scale_grad_by_freq = true;
    const GradComparison comparison = compare_gradients(
        embedding_backward(upstream, ids, 6, options), onehot_backward(upstream, ids, 6), ids, options);
    CHECK_FALSE(comparison.whole.identical);
    CHECK(comparison.whole.differing == 8);  // rows 1 and 2, four values each
    CHECK(comparison.rows_with_gradient == 2);
    REQUIRE(comparison.rows.size() == 3);
    const GradRow& padded = comparison.rows[0];
    CHECK(padded.row == 1);
    CHECK(padded.padding);
    CHECK(padded.expected == GradRowDifference::padding);
    CHECK_FALSE(padded.identical);
    const GradRow& repeated = comparison.rows[1];
    CHECK(repeated.row == 2);
    CHECK(repeated.positions == std::vector<std::size_t>{0, 1, 2, 4});
    CHECK(repeated.scale == 0.25f);
    CHECK(repeated.expected == GradRowDifference::scaled);
    CHECK_FALSE(repeated.identical);
    const GradRow& single = comparison.rows[2];
    CHECK(single.row == 3);
    CHECK(single.positions == std::vector<std::size_t>{5});
    CHECK(single.expected == GradRowDifference::none);
    CHECK(single.identical);
}

TEST_CASE("gradient_rows lists the used rows ascending with the scale torch adds with") {
    EmbeddingOptions options;
    options.scale_grad_by_freq = true;
    const std::vector<GradRow> rows = gradient_rows({5, 1, 5, 5}, options);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].row == 1);
    CHECK(rows[0].scale == 1.0f);
    CHECK(rows[1].row == 5);
    CHECK(rows[1].positions == std::vector<std::size_t>{0, 2, 3});
    CHECK(bits_of(rows[1].scale) == bits_of(static_cast<float>(1.0 / 3.0)));
    CHECK(gradient_rows({5, 5}, {})[0].scale == 1.0f);  // without the option nothing is scaled
}

TEST_CASE("an infinite upstream value turns unused rows of the one-hot form into nan") {
    // 0 * inf = nan: the dense product touches every row, the scatter-add only the used ones.
    const Matrix upstream = from_rows(1, 1, {std::numeric_limits<float>::infinity()});
    const Matrix onehot_grad = onehot_backward(upstream, {1}, 3);
    CHECK(std::isnan(onehot_grad.at(0, 0)));
    CHECK(std::isinf(onehot_grad.at(1, 0)));
    const Matrix lookup_grad = embedding_backward(upstream, {1}, 3);
    CHECK(bits_of(lookup_grad.at(0, 0)) == 0u);
    CHECK_FALSE(compare_gradients(lookup_grad, onehot_grad, {1}, {}).whole.identical);
}

}  // namespace embdemo
