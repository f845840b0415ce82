// The text view of `embdemo tied`: E (which is also the output layer's weight), the hidden state
// H, the logits H @ E.T, the top-K token ids per position, why the output side needs no
// transpose, the parameter counts with and without tying (this run and GPT-2 small), and what
// tying does to E's gradient. Every number comes from the lesson.
#pragma once

#include <string>

#include "core/lessons/tied_lesson.hpp"
#include "render/views/text.hpp"

namespace embdemo {

std::string render_tied_text(const TiedLesson& lesson, const TextOptions& options);

// "With H = E[ids], all 3 positions rank their own id first: ..." (H = E[ids] only).
std::string own_rank_sentence(const TiedLesson& lesson);

}  // namespace embdemo
