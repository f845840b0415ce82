// A FigureChart drawn in SVG: horizontal bars on a log axis with a tick per power of ten, each bar
// labelled on its left and given its value on its right; under it the same bars on a linear axis,
// where a ratio of counts is a ratio of lengths (a bar under a pixel is a hairline that says its
// true length and its fraction of the longest bar). Internal to render/formats/svg.cpp, which owns
// the document, the palette and the layout of everything else.
#pragma once

#include <functional>
#include <string>

#include "render/kit/figure_model.hpp"

namespace embdemo {

struct ChartDrawing {
    std::string body;
    int width = 0;   // right edge, from x = 0
    int height = 0;
};

// The chart with its top-left corner at (x, y); `colour(key)` fills a keyed bar.
ChartDrawing draw_chart(const FigureChart& chart, int x, int y, const std::function<const char*(int)>& colour);

}  // namespace embdemo
