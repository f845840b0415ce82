#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/lessons/cost.hpp"
#include "core/torch/init.hpp"

using namespace embdemo;

TEST_CASE("torch_randint_weight matches torch.randint(-9, 10, shape) after manual_seed") {
    // Printed by real torch 1.13.1 (Debian python3-torch): torch.manual_seed(s);
    // torch.randint(-9, 10, (V, d)).flatten().tolist()
    struct Case {
        std::uint64_t seed;
        std::size_t vocab, dim;
        std::vector<float> expected;
    };
    const Case cases[] = {
        {123, 4, 5, {6, -1, -9, 3, 8, 2, 1, 9, 5, 6, 2, -3, -3, -1, 7, 3, 0, -1, 5, -6}},
        {0, 3, 7, {6, -5, -9, -9, 2, -2, -4, 0, 0, -5, 4, -8, -6, -2, 7, 6, -8, 2, 9, -3, 1}},
        {4294967301ull, 2, 3, {0, 1, 7, -9, 9, -3}},
        {18446744073709551615ull, 1, 17, {-9, -3, -1, -1, -1, 1, -4, 8, 0, -7, -3, -6, 0, 8, 1, -2, -6}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.seed);
        const Matrix weight = torch_randint_weight(c.vocab, c.dim, c.seed, k_randint_low, k_randint_high);
        CHECK(weight.rows == c.vocab);
        CHECK(weight.cols == c.dim);
        CHECK(weight.values == c.expected);
    }
}

TEST_CASE("index_pattern_weight shows each value's row and column") {
    const Matrix weight = index_pattern_weight(4, 5);
    CHECK(weight.at(2, 0) == 20.0f);
    CHECK(weight.at(2, 4) == 24.0f);
    CHECK(weight.at(3, 1) == 31.0f);
    CHECK(index_pattern_formula(5) == "10*k + j");
    CHECK(index_pattern_max(4, 5) == 34);
}

TEST_CASE("index_pattern_weight widens the row factor when dim needs more digits") {
    const Matrix weight = index_pattern_weight(3, 12);
    CHECK(weight.at(1, 11) == 111.0f);
    CHECK(weight.at(2, 0) == 200.0f);
    CHECK(index_pattern_formula(12) == "100*k + j");
    CHECK(index_pattern_formula(10) == "10*k + j");
    CHECK(index_pattern_max(50257, 768) == 50256ull * 1000 + 767);
}

TEST_CASE("embedding_cost counts the multiplications by zero exactly") {
    const EmbeddingCost notebook = embedding_cost(3, 4, 5);
    CHECK(notebook.onehot_entries == 12);
    CHECK(notebook.product_multiplies == 60);
    CHECK(notebook.zero_multiplies == 45);
    CHECK(notebook.lookup_copies == 15);
    const EmbeddingCost gpt2 = embedding_cost(k_gpt2_context, k_gpt2_vocab, k_gpt2_dim);
    CHECK(gpt2.product_multiplies == 39523713024ull);
    CHECK(gpt2.product_multiplies - gpt2.zero_multiplies == gpt2.lookup_copies);
}
