// `embdemo --max-norm M`: the lookup lesson with nn.Embedding(V, d, max_norm=M, norm_type=P).
// The forward renormalises the looked-up rows of E in place before reading them, so the lookup
// is E_after[ids] while one_hot(ids) @ E, with E as it was drawn, still reads the old rows: the
// two forms stop agreeing exactly where a row was rescaled, and agree again with E after the
// call. Pure: no printing, no files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/embedding.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "core/max_norm.hpp"
#include "core/report.hpp"

namespace embdemo {

struct MaxNormRequest {
    DemoRequest demo;  // ids (flat), sizes, seed and the origin of E, as the lookup lesson has them
    IdBatch ids;       // the same ids with their shape
    MaxNorm max_norm;
};

struct MaxNormLesson {
    MaxNormRequest request;
    Matrix weight;                // E as drawn (or loaded), V x d
    std::vector<RenormRow> rows;  // what the renormalisation saw, distinct ids ascending
    Matrix weight_after;          // E after emb(ids), V x d
    Matrix lookup;                // emb(ids) = E_after[ids], n x d
    Matrix onehot_drawn;          // one_hot(ids) @ E as drawn, n x d
    Matrix onehot_after;          // one_hot(ids) @ E_after, n x d
    Comparison drawn_check;       // lookup vs onehot_drawn
    Comparison after_check;       // lookup vs onehot_after
    // The largest norm of a rescaled row after the call: M to within float32 rounding, on either
    // side (whether a second call rescales such a row again depends on torch's last bit).
    float largest_norm_after = 0.0f;
};

// `weight` is E as the lookup lesson builds it (any origin). The request must be valid.
MaxNormLesson run_max_norm_lesson(const MaxNormRequest& request, Matrix weight);

}  // namespace embdemo
