// nn.Embedding's max_norm, as PyTorch 1.13's embedding_renorm_cpu_ (aten/src/ATen/native/
// Embedding.cpp) applies it inside the forward: before the lookup, each distinct id's row whose
// P-norm exceeds M is multiplied, in place, by M / (norm + 1e-7). The only place where the lookup
// changes the table it reads, so the one-hot product with the table as drawn stops matching it.
// No gradient flows through it (torch runs it under no_grad). Pure: no printing.
//
// Shape legend: V = rows of E, d = columns of E. Ids are checked by the caller (every id < V).
#pragma once

#include <cstddef>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/matrix.hpp"

namespace embdemo {

struct MaxNorm {
    double max_norm = 1.0;   // M: a positive finite number
    double norm_type = 2.0;  // P: a positive number or +inf, as nn.Embedding's norm_type
};

// One distinct id's row as the renormalisation saw it.
struct RenormRow {
    std::size_t row = 0;    // the id
    float norm = 0.0f;      // its P-norm before the call (a float32, as torch's row.norm is)
    bool rescaled = false;  // norm > M
    float scale = 1.0f;     // float(M / (norm + 1e-7)) when rescaled, else 1
};

// The P-norm of a row of d floats. Summed in double and rounded once to float32: torch sums in
// float32 in an order of its vectorised kernel that it does not specify, so the two agree within a
// few units in the last place (the tests allow 1e-6 relative). P = inf is max |x|, exactly.
float row_norm(const float* row, std::size_t d, double norm_type);

// embedding_renorm_(weight, ids, M, P): visits the distinct ids in ascending order (torch sorts a
// copy of the ids and skips repeats) and rescales each row whose norm is above M by
// float(M / (norm + 1e-7)), one float multiplication per element as torch's `row *= scale` does.
// Returns what it saw for every distinct id, ascending.
std::vector<RenormRow> embedding_renorm(Matrix& weight, const TokenIds& ids, const MaxNorm& max_norm);

}  // namespace embdemo
