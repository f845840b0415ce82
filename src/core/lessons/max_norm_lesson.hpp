// `embdemo --max-norm M`: the lookup lesson with nn.Embedding(V, d, max_norm=M, norm_type=P).
// The forward renormalises the looked-up rows of E in place before reading them, so the lookup
// is E_after[ids] while one_hot(ids) @ E, with E as it was drawn, still reads the old rows: the
// two forms stop agreeing exactly where a row was rescaled, and agree again with E after the
// call. Pure: no printing, no files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "core/kernels/max_norm.hpp"
#include "core/lessons/report.hpp"

namespace embdemo {

struct MaxNormRequest {
    DemoRequest demo;  // ids (flat), sizes, seed and the origin of E, as the lookup lesson has them
    IdBatch ids;       // the same ids with their shape
    MaxNorm max_norm;
};

// What a second emb(ids) would find in one rescaled row: the claim the text view's "next:" line
// states, kept as data so that a test can run that second call and check it.
struct RenormAfter {
    enum class Kind {
        at_max_norm,   // the norm is M to within float32 rounding (the usual case)
        below,         // finite and at most M, but not M (the scale was 0, or 1e-7 mattered): left
        above,         // finite and still above M: rescaled again
        nan_norm,      // the row holds nan (inf * scale): nan > M is false, so it is left
        inf_norm,      // the norm is inf: rescaled again
    };
    std::size_t row = 0;
    float norm = 0.0f;  // its P-norm after the call
    Kind kind = Kind::at_max_norm;
};

// Classifies a rescaled row's norm after the call against M. "At max_norm" allows 1e-6 of M:
// the scale and every element were rounded to float32 once each (a few units in the last place).
RenormAfter::Kind classify_norm_after(float norm, double max_norm);

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
    // Only rows whose norm after is finite count (nan would hide in std::max); 0 when none.
    float largest_norm_after = 0.0f;
    std::vector<RenormAfter> after;  // every rescaled row, ascending
};

// `weight` is E as the lookup lesson builds it (any origin). The request must be valid.
MaxNormLesson run_max_norm_lesson(const MaxNormRequest& request, Matrix weight);

}  // namespace embdemo
