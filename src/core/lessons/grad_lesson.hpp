// `embdemo grad`: the backward pass of an embedding, two ways. E is drawn as
// nn.Embedding(V, d, padding_idx=K) draws it (or comes from --init / --weights), the upstream
// gradient G = dL/d(lookup) is drawn right after E from the same generator (torch.randn of the
// ids' shape x d), ones, or given; then dE is computed by the embedding's own backward (a
// scatter-add that knows padding_idx and scale_grad_by_freq) and by the linear layer's backward
// one_hot(ids)ᵀ · G (which knows neither). Pure: no printing, no files.
#pragma once

#include <cstdint>
#include <optional>

#include "core/kernels/grad.hpp"
#include "core/table_sizes.hpp"
#include "core/kernels/grad_claims.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "core/kernels/max_norm.hpp"
#include "core/kernels/onehot_input.hpp"
#include "core/named_values.hpp"
#include "core/lessons/report.hpp"
#include "core/kernels/sparse_grad.hpp"

namespace embdemo {

enum class UpstreamSource { randn, ones, file };

// --upstream's words; any other word is a file of G (the JSON's upstream_source says "file").
inline constexpr NamedValue<UpstreamSource> k_upstream_sources[] = {{"randn", UpstreamSource::randn},
                                                                    {"ones", UpstreamSource::ones}};

struct GradRequest : TableSizes {
    IdBatch ids;
    WeightOrigin origin;
    std::optional<std::int64_t> padding_idx;  // as given: -V <= K < V (checked by the caller)
    bool scale_grad_by_freq = false;
    UpstreamSource upstream = UpstreamSource::randn;
    // Where the two forms part ways (issue #15):
    std::optional<MaxNorm> max_norm;  // nn.Embedding(max_norm=M, norm_type=P)
    bool sparse = false;              // nn.Embedding(sparse=True); not with scale_grad_by_freq
    std::size_t top = 3;              // swaps per position the views list, 1 <= top <= V
};

struct GradLesson {
    GradRequest request;
    EmbeddingOptions options;  // padding_idx resolved to a row
    Matrix weight;             // E, V x d
    Matrix upstream;           // G, n x d (n = B * T)
    Matrix grad_lookup;        // emb.weight.grad after emb(ids).backward(G), V x d
    Matrix grad_onehot;        // one_hot(ids)ᵀ · G, V x d
    GradComparison comparison;
    GradClaims claims;  // what the views may say about dE's rows, each re-evaluated
    // With max_norm: E after the forward renormalised it in place (the gradient is unchanged:
    // no gradient flows through the renormalisation), and what it saw per distinct id.
    Matrix weight_after;            // V x d, empty without max_norm
    std::vector<RenormRow> renorm;  // distinct ids ascending, empty without max_norm
    // With sparse: the COO gradient torch returns, and coalesced.
    SparseGrad sparse_grad;
    SparseGrad sparse_coalesced;
    // dL/dX for X = one_hot(ids) in X @ E, with E as the lookup read it (after max_norm): n x V
    // up to k_onehot_kept_values (what json, csv and tsv print), past it the rows a view shows.
    OneHotInputScores grad_onehot_input;
};

// Past k_onehot_kept_values, the positions whose scores are kept: the first and the last this
// many, which covers every row a summarised view lists.
inline constexpr std::size_t k_kept_score_positions = 8;

// `weight` is E when it does not come from the generator (--init index, --weights), otherwise
// empty; `upstream` is G from a file, otherwise empty. With torch's init, E is drawn with the
// padding row zeroed, as nn.Embedding(V, d, padding_idx=K) does; a table PyTorch would be given
// (Embedding.from_pretrained) keeps its padding row as it is. The request must be valid.
// The two n x V x d products (one_hot(ids).T @ G, G @ E.T) go a block at a time on `threads`
// threads (product_threads), `progress` hearing of each one's rows.
GradLesson run_grad_lesson(const GradRequest& request, Matrix weight, Matrix upstream, unsigned threads = 1,
                           const ProductProgress& progress = {});

}  // namespace embdemo
