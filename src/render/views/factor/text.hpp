// The text view of `embdemo factor`: the narrow table E1 and the projection E2, the lookup in E1
// next to its one-hot product, both routes through E2 side by side, the parameter counts for
// these sizes and for ALBERT, and the verdict. Every number comes from the lesson.
#pragma once

#include <string>

#include "core/lessons/factor_lesson.hpp"
#include "render/views/text.hpp"

namespace embdemo {

std::string render_factor_text(const FactorLesson& lesson, const TextOptions& options);

}  // namespace embdemo
