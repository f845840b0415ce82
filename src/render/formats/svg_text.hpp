// What the SVG writers (the figure's panels and the chart) share: how text is measured, wrapped
// and written. Every coordinate is an integer computed from text lengths, so the bytes are stable.
#pragma once

#include <string>
#include <vector>

namespace embdemo {

// The svg's own font-size, that of every number in a figure.
inline constexpr int k_svg_font = 12;

// A monospace character is about 0.6 font-sizes wide; 2/3 (8 px at font-size 12) leaves room in
// every font.
constexpr int svg_char_width(int font_size) { return (font_size * 2 + 2) / 3; }
inline constexpr int k_svg_char = svg_char_width(k_svg_font);

// How wide `text` is drawn at `font_size`, counted in bytes (a UTF-8 character is never narrower
// than its bytes say).
int svg_text_width(const std::string& text, int font_size = k_svg_font);

// `text` wrapped at spaces, as the text view wraps it, into lines no wider than `width` px at
// `font_size`: never inside a word (a longer word keeps its own line).
std::vector<std::string> svg_wrap(const std::string& text, int width, int font_size = k_svg_font);

// <text x= y=>content</text>, the content escaped; `extra` holds more attributes.
std::string svg_text(int x, int y, const std::string& content, const char* extra = "");

}  // namespace embdemo
