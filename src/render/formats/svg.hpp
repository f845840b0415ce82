// --format svg: a Figure drawn as one SVG 1.1 document. Generic font families only, no external
// references, no scripts; every coordinate an integer computed from the text lengths, so the
// bytes depend only on the run. Colour marks which id a row belongs to, and never alone: the
// rows carry labels and notes, the arrows of each id their own dash pattern, the 1s of a
// one-hot matrix a frame and bold type.
#pragma once

#include <string>

#include "render/kit/figure_model.hpp"

namespace embdemo {

// The whole document, XML declaration included.
std::string render_svg(const Figure& figure);

// The <svg> element alone, for embedding in HTML: rows of E (or dE) are <g class="row"
// data-e-row="K"> with an outline rectangle for the page's script and CSS, attributes the
// standalone SVG 1.1 document leaves out.
std::string render_svg_element(const Figure& figure);

}  // namespace embdemo
