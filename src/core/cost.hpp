// The analytic cost of the two ways to get embedding vectors, counted exactly: how much work the
// one-hot product does (and how much of it multiplies by zero) against the lookup's copies.
// Shape legend: n ids, V vocabulary rows, d dimensions.
#pragma once

#include <cstdint>

namespace embdemo {

struct EmbeddingCost {
    std::uint64_t ids = 0, vocab_size = 0, dim = 0;
    std::uint64_t onehot_entries = 0;        // n * V values in X
    std::uint64_t product_multiplies = 0;    // n * V * d multiply-adds in X @ E
    std::uint64_t zero_multiplies = 0;       // n * (V - 1) * d of them multiply by 0
    std::uint64_t lookup_copies = 0;         // n * d values copied by E[ids], no arithmetic
};

// Counts for the given sizes; the products must fit in 64 bits (true for any real model).
EmbeddingCost embedding_cost(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim);

// GPT-2 small's token table and context length, the "real model" of the walkthrough.
inline constexpr std::uint64_t k_gpt2_vocab = 50257;
inline constexpr std::uint64_t k_gpt2_dim = 768;
inline constexpr std::uint64_t k_gpt2_context = 1024;

}  // namespace embdemo
