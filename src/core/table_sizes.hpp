// The sizes and seed every lesson's request shares: V (and whether it was inferred from the
// ids), d and the seed of torch.manual_seed. Validation fills them once (Options' DemoRequest);
// a lesson's request takes them in one assignment, request.sizes() = options.request.sizes(),
// never field by field.
#pragma once

#include <cstdint>

namespace embdemo {

struct TableSizes {
    std::uint64_t vocab_size = 0;
    bool vocab_inferred = false;  // V came from max(ids) + 1, as the notebook does
    std::uint64_t dim = 0;
    std::uint64_t seed = 123;

    TableSizes& sizes() { return *this; }
    const TableSizes& sizes() const { return *this; }
};

}  // namespace embdemo
