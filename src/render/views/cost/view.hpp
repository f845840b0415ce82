// `embdemo cost`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html. Each is a pure function of
// the lesson's result.
#pragma once

#include "core/lessons/cost.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/cost/report.hpp"
#include "render/views/cost/text.hpp"

namespace embdemo {

// The work of each way to compute the embedding, forward and backward, on a log axis.
Figure cost_figure(const CostLesson& lesson);

}  // namespace embdemo
