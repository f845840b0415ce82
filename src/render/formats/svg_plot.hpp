// A FigurePlot drawn in SVG: a line through the points over a value axis with three labelled
// ticks (the lowest value, the highest, the middle) and a count axis ticked at its ends and
// middle; the first and last points carry their values. Internal to render/formats/svg.cpp.
#pragma once

#include "render/formats/svg_chart.hpp"

namespace embdemo {

// The plot with its top-left corner at (x, y).
ChartDrawing draw_plot(const FigurePlot& plot, int x, int y);

}  // namespace embdemo
