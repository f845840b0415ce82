// `embdemo positions`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html, its PyTorch script. Each is
// a pure function of the lesson's result.
#pragma once

#include <string>

#include "core/lessons/positions_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/positions/report.hpp"
#include "render/views/positions/text.hpp"

namespace embdemo {

// E[ids] + P[0..T) (learned or sinusoidal P), or RoPE(E[ids], t) with its scores; and the data
// loader's inputs and targets when the ids came from one.
Figure positions_figure(const PositionsLesson& lesson, int precision);

// The token and position tables (learned, sinusoidal or rope), the data loader's batch.
std::string render_positions_python(const PositionsLesson& lesson);

}  // namespace embdemo
