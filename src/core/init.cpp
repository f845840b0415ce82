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

}  // namespace embdemo
