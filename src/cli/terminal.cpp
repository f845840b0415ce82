#include "cli/terminal.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include <sys/ioctl.h>
#include <unistd.h>

namespace embdemo {

bool color_wanted(ColorMode mode, bool stdout_is_terminal, const char* no_color, const char* term) {
    switch (mode) {
        case ColorMode::always: return true;
        case ColorMode::never: return false;
        case ColorMode::automatic: break;
    }
    if (!stdout_is_terminal) return false;
    if (no_color != nullptr && no_color[0] != '\0') return false;
    if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
    return true;
}

bool light_background(PaletteMode mode, const char* colorfgbg) {
    switch (mode) {
        case PaletteMode::dark: return false;
        case PaletteMode::light: return true;
        case PaletteMode::automatic: break;
    }
    if (colorfgbg == nullptr) return false;
    // The background is the last field: "fg;bg" or "fg;default;bg".
    const char* last = std::strrchr(colorfgbg, ';');
    if (last == nullptr) return false;
    const std::string background(last + 1);
    if (background.empty() || background.size() > 2 ||
        background.find_first_not_of("0123456789") != std::string::npos) {
        return false;
    }
    const int colour = std::stoi(background);
    return colour == 7 || (colour >= 9 && colour <= 15);
}

std::size_t output_width(bool stdout_is_terminal, const char* columns) {
    constexpr std::size_t k_fixed_width = 80;
    if (!stdout_is_terminal) return k_fixed_width;
    std::size_t width = 0;
    winsize size{};
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) width = size.ws_col;
    if (width == 0 && columns != nullptr) {
        const std::string text(columns);
        if (!text.empty() && text.size() < 5 && text.find_first_not_of("0123456789") == std::string::npos) {
            width = static_cast<std::size_t>(std::stoul(text));
        }
    }
    return std::max(width, k_fixed_width);
}

bool stdout_is_terminal() { return isatty(STDOUT_FILENO) == 1; }
bool stdin_is_terminal() { return isatty(STDIN_FILENO) == 1; }

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace embdemo
