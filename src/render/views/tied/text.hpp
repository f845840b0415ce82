// The text view of `embdemo tied`: E (which is also the output layer's weight), the hidden state
// H, the logits H @ E.T, the top-K token ids per position, why the output side needs no
// transpose, the parameter counts with and without tying (this run and GPT-2 small), and what
// tying does to E's gradient. Every number comes from the lesson.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/lessons/tied_lesson.hpp"
#include "render/views/text.hpp"

namespace embdemo {

// The rows of the n x V logits a summarised view shows (PyTorch's summary, k_gap between runs),
// and where each sits in the rows the lesson kept (all, or a chapter's first and last few).
struct ShownLogits {
    std::vector<std::size_t> rows;       // logits rows, k_gap allowed
    std::vector<std::size_t> in_values;  // the same rows as rows of `values` (k_gap kept)
    const Matrix* values = nullptr;      // the lesson's kept rows, V columns

    float at(std::size_t row, std::size_t col) const;  // logits[row][col] for a shown row
};
ShownLogits shown_logits(const TiedLesson& lesson);

std::string render_tied_text(const TiedLesson& lesson, const TextOptions& options);

// "With H = E[ids], all 3 positions rank their own id first: ..." (H = E[ids] only).
std::string own_rank_sentence(const TiedLesson& lesson);

}  // namespace embdemo
