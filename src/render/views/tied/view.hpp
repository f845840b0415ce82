// `embdemo tied`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html, its PyTorch script. Each is
// a pure function of the lesson's result.
#pragma once

#include <string>

#include "core/lessons/tied_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/tied/report.hpp"
#include "render/views/tied/text.hpp"

namespace embdemo {

// H @ E.T = logits, each row's top-k logits framed.
Figure tied_figure(const TiedLesson& lesson, int precision);

// out_head = nn.Linear(d, V, bias=False) sharing E; `hidden_file` is --hidden FILE, else empty.
std::string render_tied_python(const TiedLesson& lesson, const std::string& hidden_file);

}  // namespace embdemo
