// `embdemo factor`: ALBERT's factorised embedding. Instead of one V x d table, a narrow table
// E1 = nn.Embedding(V, r) and a projection proj = nn.Linear(r, d, bias=False), drawn in that
// order after one seed; proj stores its weight as d x r, so the second factor is E2 = weight.T
// (r x d) and the layer computes proj(e1(ids)) = E1[ids] @ E2. The lookup in E1 is again the
// one-hot product, so (one_hot @ E1) @ E2 gives the same output bit for bit. Pure: no printing.
#pragma once

#include <cstdint>

#include "core/kernels/embedding.hpp"
#include "core/table_sizes.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"

namespace embdemo {

struct FactorRequest : TableSizes {
    IdBatch ids;
    std::uint64_t rank = 0;  // r, 1 <= r < d (the caller checks)
};

// V·d for one table against V·r + r·d for the two factors.
struct FactorParameters {
    std::uint64_t full = 0;
    std::uint64_t factored = 0;
};
FactorParameters factor_parameters(std::uint64_t vocab_size, std::uint64_t dim, std::uint64_t rank);

// ALBERT's sizes (Lan et al. 2020): V = 30,000, d = 768, r = 128.
inline constexpr std::uint64_t k_albert_vocab = 30000;
inline constexpr std::uint64_t k_albert_dim = 768;
inline constexpr std::uint64_t k_albert_rank = 128;

struct FactorLesson {
    FactorRequest request;
    Matrix e1;              // V x r: nn.Embedding(V, r).weight
    Matrix e2;              // r x d: nn.Linear(r, d, bias=False).weight.T, drawn after E1
    Matrix lookup_e1;       // E1[ids], n x r
    Matrix onehot_e1;       // one_hot(ids) @ E1, n x r
    Matrix output;          // E1[ids] @ E2 = proj(e1(ids)), n x d
    Matrix onehot_output;   // (one_hot(ids) @ E1) @ E2, n x d
    Comparison first_check;   // lookup_e1 vs onehot_e1
    Comparison output_check;  // output vs onehot_output
    FactorParameters here;
    FactorParameters albert;
};

// The request must be valid: every id < V, 1 <= r < d, sizes within the caps.
FactorLesson run_factor_lesson(const FactorRequest& request);

}  // namespace embdemo
