// A FigureScatter drawn in SVG: square frames side by side, each fitted to its own points, every
// point a dot with its label beside it (on its left where the right would leave the frame).
// Internal to render/formats/svg.cpp.
#pragma once

#include "render/formats/svg_chart.hpp"

namespace embdemo {

ChartDrawing draw_scatter(const FigureScatter& scatter, int x, int y);

}  // namespace embdemo
