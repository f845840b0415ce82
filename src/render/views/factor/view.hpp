// `embdemo factor`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html, its PyTorch script. Each is
// a pure function of the lesson's result.
#pragma once

#include <string>

#include "core/lessons/factor_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/factor/report.hpp"
#include "render/views/factor/text.hpp"

namespace embdemo {

// E1[ids] @ E2, and (one_hot(ids) @ E1) @ E2 with the cells where the routes differ framed.
Figure factor_figure(const FactorLesson& lesson, int precision);

// e1 = nn.Embedding(V, r), proj = nn.Linear(r, d, bias=False): lookup and one-hot forms.
std::string render_factor_python(const FactorLesson& lesson);

}  // namespace embdemo
