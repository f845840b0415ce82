// Initial nn.Embedding and nn.Linear weights as PyTorch 1.13 creates them on the CPU right after
// torch.manual_seed(seed). Each function starts a fresh generator, exactly as if the module were
// the first thing built after the seed; sequences of modules sharing one generator are built from
// TorchGenerator directly. Biases and padding_idx are not modelled: the demonstrator has neither.
#include "core/init.hpp"

#include "core/torch_rng.hpp"

namespace embdemo {

Matrix torch_embedding_weight(std::size_t vocab_size, std::size_t dim, std::uint64_t seed) {
    // nn.Embedding: weight = empty(V, d); init.normal_(weight) with mean 0 and std 1.
    Matrix weight(vocab_size, dim);
    if (weight.values.empty()) {
        return weight;  // a zero-element tensor draws nothing
    }
    TorchGenerator generator(seed);
    normal_fill(generator, weight.values.data(), weight.values.size());
    return weight;
}

Matrix torch_linear_weight(std::size_t in_features, std::size_t out_features, std::uint64_t seed) {
    // nn.Linear: weight = empty(out, in); kaiming_uniform_(weight, a=sqrt(5)), which is
    // uniform_(-bound, bound) with a bound that depends only on in_features (the fan-in).
    Matrix weight(out_features, in_features);
    if (weight.values.empty()) {
        return weight;  // torch's kaiming_uniform_ returns early for zero-element tensors
    }
    const double bound = kaiming_uniform_bound(in_features);
    TorchGenerator generator(seed);
    uniform_fill(generator, weight.values.data(), weight.values.size(), -bound, bound);
    return weight;
}

Matrix torch_randint_weight(std::size_t vocab_size, std::size_t dim, std::uint64_t seed,
                            std::int64_t low, std::int64_t high) {
    // torch's random_from_to kernel: one 32-bit draw per element, in memory order,
    // value = draw % (high - low) + low (ATen's uniform_int_from_to for ranges below 2^32).
    Matrix weight(vocab_size, dim);
    const auto range = static_cast<std::uint64_t>(high - low);
    TorchGenerator generator(seed);
    for (float& value : weight.values) {
        value = static_cast<float>(static_cast<std::int64_t>(generator.random() % range) + low);
    }
    return weight;
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
