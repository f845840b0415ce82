// `embdemo tied`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html, its PyTorch script. Each is
// a pure function of the lesson's result.
#pragma once

#include <cstdint>
#include <string>

#include "core/lessons/tied_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/tied/report.hpp"
#include "render/views/tied/text.hpp"

namespace embdemo {

// The lesson's plan: the numbers tied_report's tables hold (json, csv and tsv print every one)
// and the float32 values render_tied_python embeds (at most), known from the request before the
// run, so that its checks hold them to the printed-numbers cap before anything is drawn.
// tests/unit/lesson_plans_test.cpp checks both against the report and the script themselves.
std::uint64_t tied_report_values(const TiedRequest& request);
std::uint64_t tied_script_values(const TiedRequest& request);

// H @ E.T = logits, each row's top-k logits framed.
Figure tied_figure(const TiedLesson& lesson, int precision);

// out_head = nn.Linear(d, V, bias=False) sharing E; `hidden_file` is --hidden FILE, else empty.
std::string render_tied_python(const TiedLesson& lesson, const std::string& hidden_file);

}  // namespace embdemo
