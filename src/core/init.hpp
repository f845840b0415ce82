// Initial weights of the modules the demonstrator explains, as PyTorch creates them on the CPU
// right after torch.manual_seed(seed).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/matrix.hpp"

namespace embdemo {

// torch.manual_seed(seed); torch.nn.Embedding(vocab_size, dim).weight  -> vocab_size x dim
Matrix torch_embedding_weight(std::size_t vocab_size, std::size_t dim, std::uint64_t seed);

// torch.manual_seed(seed); torch.nn.Linear(in_features, out_features, bias=False).weight
// -> out_features x in_features (PyTorch stores Linear weights as out x in)
Matrix torch_linear_weight(std::size_t in_features, std::size_t out_features, std::uint64_t seed);

}  // namespace embdemo
