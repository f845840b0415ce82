// `embdemo bag`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html, its PyTorch script. Each is
// a pure function of the lesson's result.
#pragma once

#include <cstdint>
#include <string>

#include "core/lessons/bag_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/bag/report.hpp"
#include "render/views/bag/text.hpp"

namespace embdemo {

// The lesson's plan: the numbers bag_report's tables hold (json, csv and tsv print every one)
// and the float32 values render_bag_python embeds (at most), known from the request before the
// run, so that its checks hold them to the printed-numbers cap before anything is drawn.
// tests/unit/lesson_plans_test.cpp checks both against the report and the script themselves.
std::uint64_t bag_report_values(const BagRequest& request);
std::uint64_t bag_script_values(const BagRequest& request);

// Each bag's rows of E reduced to one row; for sum and mean also M @ E, M multi-hot (counts,
// counts / bag length, or summed per-sample weights); for max the rows each bag picks, with the
// cells that won each column framed (max has no matrix form).
Figure bag_figure(const BagLesson& lesson, int precision);

// nn.EmbeddingBag on the bags, its output, M and M @ bag.weight with the differences measured.
std::string render_bag_python(const BagLesson& lesson);

}  // namespace embdemo
