// The text view of `embdemo --max-norm M`: E as drawn with its rows' norms, which rows the call
// rescaled and by what factor, E after, the lookup next to one_hot(ids) @ E as drawn (which no
// longer equals it) and the verdict with E after the call (which does). Every sentence comes from
// the lesson's numbers.
#pragma once

#include <string>

#include "core/lessons/max_norm_lesson.hpp"
#include "render/views/text.hpp"

namespace embdemo {

std::string render_max_norm_text(const MaxNormLesson& lesson, const TextOptions& options);

}  // namespace embdemo
