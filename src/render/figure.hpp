// The lookup lesson's and the backward's figures (the types: render/figure_model.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/grad_lesson.hpp"
#include "core/report.hpp"
#include "render/figure_model.hpp"

namespace embdemo {

// The notebook's figures for a lookup run: ids -> rows of E -> E[ids], and one_hot(idx) @ E.
Figure lookup_figure(const DemoReport& report, int precision);

// The same two pictures for the backward pass: G's rows scatter-added into dE's rows, and
// one_hot(idx).T @ G.
Figure grad_figure(const GradLesson& lesson, int precision);

}  // namespace embdemo
