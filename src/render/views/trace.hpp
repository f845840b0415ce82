// --trace: the demonstration slowed down to one token at a time. For each traced position it
// shows the one-hot row, the row of E the lookup copies, one output value of the one-hot product
// written out term by term, the nn.Linear reading of the same product, and whether the result
// row equals the looked-up row bit for bit.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/lessons/report.hpp"
#include "render/views/text.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {

// Positions traced when the caller does not choose: more would scroll past a projector.
inline constexpr std::size_t k_default_traced_positions = 8;

// What every traced position of one report shares: the screen (columns and number format) and
// which columns of E hold only finite values (a scan of E, done once rather than per position).
struct TraceLayout {
    Screen screen;
    std::vector<bool> finite_columns;
};
// `max_budget` narrows the cells' room further for a view that shows more blocks.
TraceLayout trace_layout(const DemoReport& report, int precision,
                         std::size_t max_budget = k_max_line_width);

// The trace of one position of report.request.ids.
std::string render_trace_position(const DemoReport& report, std::size_t position,
                                  const TraceLayout& layout, const TextOptions& options);

// The whole traced view as steps (the caller may pause between them): the header with E and X,
// one step per traced position (all when `positions` is empty, up to the default), and the
// results with the verdict.
std::vector<std::string> render_trace(const DemoReport& report,
                                      const std::vector<std::size_t>& positions,
                                      const TextOptions& options);

}  // namespace embdemo
