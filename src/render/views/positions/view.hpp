// `embdemo positions`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html, its PyTorch script. Each is
// a pure function of the lesson's result.
#pragma once

#include <cstdint>
#include <string>

#include "core/lessons/positions_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/positions/report.hpp"
#include "render/views/positions/text.hpp"

namespace embdemo {

// The lesson's plan: the numbers positions_report's tables hold (json, csv and tsv print every one)
// and the float32 values render_positions_python embeds (at most), known from the request before the
// run, so that its checks hold them to the printed-numbers cap before anything is drawn.
// tests/unit/lesson_plans_test.cpp checks both against the report and the script themselves.
std::uint64_t positions_report_values(const PositionsRequest& request);
std::uint64_t positions_script_values(const PositionsRequest& request);

// E[ids] + P[0..T) (learned or sinusoidal P), or RoPE(E[ids], t) with its scores; and the data
// loader's inputs and targets when the ids came from one.
Figure positions_figure(const PositionsLesson& lesson, int precision);

// The token and position tables (learned, sinusoidal or rope), the data loader's batch.
std::string render_positions_python(const PositionsLesson& lesson);

}  // namespace embdemo
