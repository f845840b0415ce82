#include "render/paint.hpp"

#include <fmt/color.h>

namespace embdemo {

std::string paint(std::string_view text, Paint role, bool color) {
    if (!color || text.empty()) return std::string(text);
    fmt::text_style style;
    switch (role) {
        case Paint::selected: style = fmt::fg(fmt::terminal_color::bright_cyan) | fmt::emphasis::bold; break;
        case Paint::one: style = fmt::fg(fmt::terminal_color::bright_yellow) | fmt::emphasis::bold; break;
        case Paint::good: style = fmt::fg(fmt::terminal_color::bright_green) | fmt::emphasis::bold; break;
        case Paint::bad: style = fmt::fg(fmt::terminal_color::bright_red) | fmt::emphasis::bold; break;
        case Paint::heading: style = fmt::emphasis::bold; break;
    }
    return fmt::format(style, "{}", text);
}

}  // namespace embdemo
