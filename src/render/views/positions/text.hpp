// The text view of `embdemo positions`: the token table E and the position table P with the
// rows the run uses marked, both lookups next to their one-hot products, the sum E[ids] + P[t]
// row by row, the same id at two positions getting two vectors, and the verdict. Every
// sentence comes from the lesson's numbers.
#pragma once

#include <string>

#include "core/lessons/positions_lesson.hpp"
#include "render/views/text.hpp"

namespace embdemo {

std::string render_positions_text(const PositionsLesson& lesson, const TextOptions& options);

// "Same token, two positions: id 5 at ids[0] (t = 0) and ids[2] (t = 2) ...", or a hint to
// repeat an id when none appears at two positions.
std::string repeated_token_sentence(const PositionsLesson& lesson);

}  // namespace embdemo
