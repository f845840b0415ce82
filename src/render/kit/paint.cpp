#include "render/kit/paint.hpp"

#include <fmt/color.h>

namespace embdemo {

namespace {

fmt::text_style style_for(Paint role, Palette palette) {
    const bool light = palette == Palette::light;
    const auto colour = [&](fmt::terminal_color on_dark, fmt::terminal_color on_light) {
        return fmt::fg(light ? on_light : on_dark) | fmt::emphasis::bold;
    };
    using fmt::terminal_color;
    switch (role) {
        case Paint::selected: return colour(terminal_color::bright_cyan, terminal_color::blue);
        case Paint::one:
            return colour(terminal_color::bright_yellow, terminal_color::magenta) | fmt::emphasis::underline;
        case Paint::good: return colour(terminal_color::bright_green, terminal_color::green);
        case Paint::bad: return colour(terminal_color::bright_red, terminal_color::red);
        case Paint::heading: break;
    }
    return fmt::emphasis::bold;
}

}  // namespace

std::string paint(std::string_view text, Paint role, Palette palette) {
    if (palette == Palette::none || text.empty()) return std::string(text);
    return fmt::format(style_for(role, palette), "{}", text);
}

}  // namespace embdemo
