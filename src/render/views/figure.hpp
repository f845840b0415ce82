// The lookup lesson's and the backward's figures (the types: render/kit/figure_model.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/lessons/grad_lesson.hpp"
#include "core/lessons/report.hpp"
#include "render/kit/figure_model.hpp"

namespace embdemo {

// The notebook's figures for a lookup run: ids -> rows of E -> E[ids], and one_hot(idx) @ E.
Figure lookup_figure(const DemoReport& report, int precision);

}  // namespace embdemo
