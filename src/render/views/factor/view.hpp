// `embdemo factor`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html, its PyTorch script. Each is
// a pure function of the lesson's result.
#pragma once

#include <cstdint>
#include <string>

#include "core/lessons/factor_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/factor/report.hpp"
#include "render/views/factor/text.hpp"

namespace embdemo {

// The lesson's plan: the numbers factor_report's tables hold (json, csv and tsv print every one)
// and the float32 values render_factor_python embeds (at most), known from the request before the
// run, so that its checks hold them to the printed-numbers cap before anything is drawn.
// tests/unit/lesson_plans_test.cpp checks both against the report and the script themselves.
std::uint64_t factor_report_values(const FactorRequest& request);
std::uint64_t factor_script_values(const FactorRequest& request);

// E1[ids] @ E2, and (one_hot(ids) @ E1) @ E2 with the cells where the routes differ framed.
Figure factor_figure(const FactorLesson& lesson, int precision);

// e1 = nn.Embedding(V, r), proj = nn.Linear(r, d, bias=False): lookup and one-hot forms.
std::string render_factor_python(const FactorLesson& lesson);

}  // namespace embdemo
