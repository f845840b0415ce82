// Initial weights of the modules the demonstrator explains, as PyTorch creates them on the CPU
// right after torch.manual_seed(seed). The seed-taking functions start a fresh generator; the
// generator-taking ones continue one, so a table and the tensors drawn after it (an upstream
// gradient, a second table) come out of one stream exactly as in a PyTorch script.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/matrix.hpp"
#include "core/parse_result.hpp"

namespace embdemo {

class TorchGenerator;

// nn.Embedding's rule for padding_idx: -V <= K < V, and a negative K means row K + V.
// Returns the row, or why K is refused (the caller adds which option it came from).
ParseResult<std::size_t> resolve_padding_idx(std::int64_t padding_idx, std::size_t vocab_size);

// nn.Embedding(vocab_size, dim, padding_idx=K).weight on `generator`: drawn as without padding,
// then row K set to +0 (zeroing draws nothing). `padding_row` is the resolved K.
Matrix torch_embedding_weight(TorchGenerator& generator, std::size_t vocab_size, std::size_t dim,
                              std::optional<std::size_t> padding_row = std::nullopt);

// torch.randn(rows, cols) on `generator`. Any shape with the same element count draws the same
// values in the same order (randn(B, T, d) is randn(B * T, d) reshaped), so B x T x d callers
// pass rows = B * T.
Matrix torch_randn(TorchGenerator& generator, std::size_t rows, std::size_t cols);

// torch.manual_seed(seed); torch.nn.Embedding(vocab_size, dim).weight  -> vocab_size x dim
Matrix torch_embedding_weight(std::size_t vocab_size, std::size_t dim, std::uint64_t seed);

// torch.manual_seed(seed); torch.nn.Linear(in_features, out_features, bias=False).weight
// -> out_features x in_features (PyTorch stores Linear weights as out x in)
Matrix torch_linear_weight(std::size_t in_features, std::size_t out_features, std::uint64_t seed);

// nn.Linear(in_features, out_features, bias=False).weight on `generator` (out x in), for a
// Linear built after another module from the same seed.
Matrix torch_linear_weight(TorchGenerator& generator, std::size_t in_features, std::size_t out_features);

// The range of --init randint: whole numbers from -9 to 9, small enough to multiply by hand.
inline constexpr std::int64_t k_randint_low = -9;
inline constexpr std::int64_t k_randint_high = 10;  // exclusive, as in torch.randint

// torch.manual_seed(seed); torch.randint(low, high, (vocab_size, dim)) as float32: small
// integers a class can multiply by hand, still drawn exactly as PyTorch draws them.
// Requires low < high and a range below 2^32 (each value uses one 32-bit draw).
Matrix torch_randint_weight(std::size_t vocab_size, std::size_t dim, std::uint64_t seed,
                            std::int64_t low, std::int64_t high);

// The same on `generator`, so that tensors drawn after the table continue its stream.
Matrix torch_randint_weight(TorchGenerator& generator, std::size_t vocab_size, std::size_t dim,
                            std::int64_t low, std::int64_t high);

// E[k][j] = k * 10^m + j with m the number of digits of dim - 1 (at least 1): every value
// shows its own position (row 2 of a 4 x 5 table reads 20 21 22 23 24).
Matrix index_pattern_weight(std::size_t vocab_size, std::size_t dim);

// "10*k + j": the formula index_pattern_weight uses for this dim, as the views print it.
std::string index_pattern_formula(std::size_t dim);

// The largest value index_pattern_weight would hold, so callers can refuse tables whose values
// would not be exact in float32 (above 2^24).
std::uint64_t index_pattern_max(std::uint64_t vocab_size, std::uint64_t dim);

}  // namespace embdemo
