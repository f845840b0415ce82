#include "core/cost.hpp"

namespace embdemo {

EmbeddingCost embedding_cost(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim) {
    EmbeddingCost cost;
    cost.ids = ids;
    cost.vocab_size = vocab_size;
    cost.dim = dim;
    cost.onehot_entries = ids * vocab_size;
    cost.product_multiplies = cost.onehot_entries * dim;
    cost.zero_multiplies = ids * (vocab_size - 1) * dim;  // every term but the one at column id
    cost.lookup_copies = ids * dim;
    return cost;
}

}  // namespace embdemo
