// What the SVG writers (the figure's panels and the chart) share: how text is measured and
// written. Every coordinate is an integer computed from text lengths, so the bytes are stable.
#pragma once

#include <string>

namespace embdemo {

// A monospace character at font-size 12 is about 7.2 px wide; 8 leaves room in every font.
inline constexpr int k_svg_char = 8;

// <text x= y=>content</text>, the content escaped; `extra` holds more attributes.
std::string svg_text(int x, int y, const std::string& content, const char* extra = "");

}  // namespace embdemo
