// The figures (--format svg and html) of the lookup lesson's --max-norm and grad's --optimizer
// (each lesson with a folder of its own declares its figure in its view.hpp): each a pure function
// from a lesson's result to a Figure (render/views/figure.hpp), every cell spelled and every row and
// column chosen as the lesson's text view does, every caption sentence computed from the run.
// None of them knows SVG or the command line.
#pragma once

#include "core/lessons/max_norm_lesson.hpp"
#include "core/kernels/optim.hpp"
#include "render/kit/figure_model.hpp"

namespace embdemo {

// E as drawn and its rescaled rows after emb(ids), the lookup in E after, and one_hot(ids) @ E
// with E as drawn.
Figure max_norm_figure(const MaxNormLesson& lesson, int precision);

}  // namespace embdemo
