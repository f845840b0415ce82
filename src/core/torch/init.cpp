// Initial nn.Embedding and nn.Linear weights as PyTorch 1.13 creates them on the CPU right after
// torch.manual_seed(seed). Each function starts a fresh generator, exactly as if the module were
// the first thing built after the seed; the generator-taking overloads continue a stream that
// earlier tensors used. Linear biases are not modelled: the demonstrator has none.
#include "core/torch/init.hpp"

#include <algorithm>
#include <cstddef>

#include "core/threads.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {
namespace {

// product_threads counts work in a product's multiply-adds; one normal draw of a large table
// costs about as much time as this many of them (1.3 ns against the BLAS's 0.04 ns a term on the
// development machine). So a table gets both cores from the same ~20 ms of work a product does,
// the notebook's 4 x 5 never starts a thread, and EMBDEMO_THREADS / OMP_NUM_THREADS decide both.
constexpr std::uint64_t k_product_terms_per_normal = 32;

NormalFillSplit table_split(std::size_t values) {
    NormalFillSplit split;
    split.threads = product_threads(k_product_terms_per_normal, values, 1);
    return split;
}

}  // namespace

ParseResult<std::size_t> resolve_padding_idx(std::int64_t padding_idx, std::size_t vocab_size) {
    const auto vocab = static_cast<std::int64_t>(vocab_size);
    if (padding_idx >= vocab || padding_idx < -vocab) {
        const std::string allowed =
            vocab_size == 0 ? "none: the table has no rows"
                            : std::to_string(-vocab) + " to " + std::to_string(vocab - 1);
        return ParseResult<std::size_t>::fail("is outside the table (allowed: " + allowed + ")");
    }
    return ParseResult<std::size_t>::ok(
        static_cast<std::size_t>(padding_idx < 0 ? padding_idx + vocab : padding_idx));
}

Matrix torch_embedding_weight(TorchGenerator& generator, std::size_t vocab_size, std::size_t dim,
                              std::optional<std::size_t> padding_row) {
    // nn.Embedding: weight = empty(V, d); init.normal_(weight) with mean 0 and std 1; then
    // weight[padding_idx].fill_(0), which draws nothing, so later draws do not move.
    Matrix weight(vocab_size, dim);
    const std::size_t values = weight.values.size();
    normal_fill(generator, weight.values.data(), values, 0.0f, 1.0f, table_split(values));  // 0: no draw
    if (padding_row) {
        std::fill_n(weight.values.begin() + static_cast<std::ptrdiff_t>(*padding_row * dim), dim, 0.0f);
    }
    return weight;
}

Matrix torch_randn(TorchGenerator& generator, std::size_t rows, std::size_t cols) {
    // torch.randn is empty(shape).normal_(0, 1): the same kernel as nn.Embedding's weight.
    Matrix values(rows, cols);
    normal_fill(generator, values.values.data(), values.values.size(), 0.0f, 1.0f,
                table_split(values.values.size()));
    return values;
}

Matrix torch_embedding_weight(std::size_t vocab_size, std::size_t dim, std::uint64_t seed) {
    TorchGenerator generator(seed);
    return torch_embedding_weight(generator, vocab_size, dim);
}

Matrix torch_linear_weight(TorchGenerator& generator, std::size_t in_features, std::size_t out_features) {
    // nn.Linear: weight = empty(out, in); kaiming_uniform_(weight, a=sqrt(5)), which is
    // uniform_(-bound, bound) with a bound that depends only on in_features (the fan-in).
    Matrix weight(out_features, in_features);
    if (weight.values.empty()) {
        return weight;  // torch's kaiming_uniform_ returns early for zero-element tensors
    }
    const double bound = kaiming_uniform_bound(in_features);
    uniform_fill(generator, weight.values.data(), weight.values.size(), -bound, bound);
    return weight;
}

Matrix torch_linear_weight(std::size_t in_features, std::size_t out_features, std::uint64_t seed) {
    TorchGenerator generator(seed);
    return torch_linear_weight(generator, in_features, out_features);
}

Matrix torch_randint_weight(TorchGenerator& generator, std::size_t vocab_size, std::size_t dim,
                            std::int64_t low, std::int64_t high) {
    // torch's random_from_to kernel: one 32-bit draw per element, in memory order,
    // value = draw % (high - low) + low (ATen's uniform_int_from_to for ranges below 2^32).
    Matrix weight(vocab_size, dim);
    const auto range = static_cast<std::uint64_t>(high - low);
    for (float& value : weight.values) {
        value = static_cast<float>(static_cast<std::int64_t>(generator.random() % range) + low);
    }
    return weight;
}

Matrix torch_randint_weight(std::size_t vocab_size, std::size_t dim, std::uint64_t seed,
                            std::int64_t low, std::int64_t high) {
    TorchGenerator generator(seed);
    return torch_randint_weight(generator, vocab_size, dim, low, high);
}

namespace {

std::uint64_t index_pattern_scale(std::uint64_t dim) {
    std::uint64_t scale = 10;
    while (scale < dim) scale *= 10;
    return scale;
}

}  // namespace

Matrix index_pattern_weight(std::size_t vocab_size, std::size_t dim) {
    Matrix weight(vocab_size, dim);
    const std::uint64_t scale = index_pattern_scale(dim);
    for (std::size_t k = 0; k < vocab_size; ++k) {
        for (std::size_t j = 0; j < dim; ++j) weight.at(k, j) = static_cast<float>(k * scale + j);
    }
    return weight;
}

std::string index_pattern_formula(std::size_t dim) {
    return std::to_string(index_pattern_scale(dim)) + "*k + j";
}

std::uint64_t index_pattern_max(std::uint64_t vocab_size, std::uint64_t dim) {
    if (vocab_size == 0 || dim == 0) return 0;
    return (vocab_size - 1) * index_pattern_scale(dim) + (dim - 1);
}

}  // namespace embdemo
