// embdemo's kernels against xtensor's own expressions, an implementation they share no code with:
// xt::view with xt::keep is the gather, a broadcast product summed over k is the matmul, and
// one summed over i is the backward's scatter-add. The
// kernels are hand-written on purpose (the loops are the lesson, and their order of k is what
// makes the two forms agree bit for bit); xtensor checks that they compute what they claim.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include "core/kernels/embedding.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/torch/init.hpp"

using namespace embdemo;

namespace {

auto as_xtensor(const Matrix& m) {
    return xt::adapt(m.values.data(), m.values.size(), xt::no_ownership(), std::vector<std::size_t>{m.rows, m.cols});
}

bool same_bits(const Matrix& ours, const xt::xtensor<float, 2>& theirs) {
    return ours.rows == theirs.shape(0) && ours.cols == theirs.shape(1) &&
           std::memcmp(ours.values.data(), theirs.data(), ours.values.size() * sizeof(float)) == 0;
}

// X @ E as xtensor spells it: [n, V, 1] * [1, V, d] -> [n, V, d], summed over V.
xt::xtensor<float, 2> product_summed_over_k(const Matrix& x, const Matrix& e) {
    const auto x_xt = as_xtensor(x);
    const auto e_xt = as_xtensor(e);
    return xt::sum(xt::view(x_xt, xt::all(), xt::all(), xt::newaxis()) * xt::view(e_xt, xt::newaxis(), xt::all(), xt::all()),
                   {1});
}

// Sizes and ids unlike the notebook's: several vocabularies and dims, repeats, the last row.
struct Case {
    std::size_t vocab;
    std::size_t dim;
    TokenIds ids;
    std::uint64_t seed;
};
const std::vector<Case> k_cases{
    {4, 5, {2, 3, 1}, 123},
    {7, 3, {6, 0, 6, 6, 2}, 1},
    {50, 17, {49, 0, 25, 25, 1, 48}, 2024},
    {1, 1, {0}, 0},
};

}  // namespace

TEST_CASE("the lookup is xtensor's row selection E[ids, :]") {
    for (const Case& c : k_cases) {
        CAPTURE(c.vocab);
        const Matrix e = torch_embedding_weight(c.vocab, c.dim, c.seed);
        const auto e_xt = as_xtensor(e);
        const xt::xtensor<float, 2> selected = xt::view(e_xt, xt::keep(c.ids), xt::all());
        CHECK(same_bits(lookup(e, c.ids), selected));
    }
}

TEST_CASE("the one-hot product is xtensor's sum over k of X[i, k] * E[k, j]") {
    for (const Case& c : k_cases) {
        CAPTURE(c.vocab);
        const Matrix e = torch_embedding_weight(c.vocab, c.dim, c.seed);
        const Matrix x = one_hot(c.ids, c.vocab);
        const xt::xtensor<float, 2> product = product_summed_over_k(x, e);
        CHECK(same_bits(matmul(x, e), product));
        // The BLAS products PyTorch computes give the same bits for one-hot rows and finite E.
        CHECK(same_bits(torch_mm(x, e), product));
        CHECK(same_bits(torch_linear(x, transpose(e)), product));
        // And the one-hot rows xtensor builds from the ids themselves: 1 where k == ids[i].
        const auto ids_xt = xt::adapt(c.ids, std::vector<std::size_t>{c.ids.size(), 1});
        const xt::xtensor<float, 2> x_from_ids = xt::cast<float>(xt::equal(ids_xt, xt::arange<std::uint64_t>(c.vocab)));
        CHECK(same_bits(x, x_from_ids));
    }
}

TEST_CASE("the product of any X sums its terms in order of k, as xtensor's sum over k does") {
    // A dense X (every term non-zero): the order of the additions shows in the last bits.
    for (const Case& c : k_cases) {
        CAPTURE(c.vocab);
        const Matrix e = torch_embedding_weight(c.vocab, c.dim, c.seed);
        const Matrix x = torch_embedding_weight(c.ids.size(), c.vocab, c.seed + 7);
        const xt::xtensor<float, 2> product = product_summed_over_k(x, e);
        CHECK(same_bits(matmul(x, e), product));
    }
}

TEST_CASE("the transpose is xtensor's, and the backward's scatter-add is its one_hot(ids).T @ G") {
    for (const Case& c : k_cases) {
        CAPTURE(c.vocab);
        const Matrix e = torch_embedding_weight(c.vocab, c.dim, c.seed);
        const xt::xtensor<float, 2> e_t = xt::transpose(as_xtensor(e));
        CHECK(same_bits(transpose(e), e_t));
        // G: any n x d upstream gradient; repeated ids must add up, in order of i.
        const Matrix g = torch_embedding_weight(c.ids.size(), c.dim, c.seed + 1);
        const Matrix x = one_hot(c.ids, c.vocab);  // as_xtensor only views it
        const auto x_xt = as_xtensor(x);
        const auto g_xt = as_xtensor(g);
        // [n, V, 1] * [n, 1, d] -> [n, V, d], summed over n.
        const xt::xtensor<float, 2> grad =
            xt::sum(xt::view(x_xt, xt::all(), xt::all(), xt::newaxis()) * xt::view(g_xt, xt::all(), xt::newaxis(), xt::all()),
                    {0});
        CHECK(same_bits(embedding_backward(g, c.ids, c.vocab), grad));
    }
}
