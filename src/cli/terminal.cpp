#include "cli/terminal.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
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

std::optional<bool> osc11_is_light(const std::string& reply) {
    constexpr std::string_view k_prefix = "\x1b]11;rgb:";
    const std::size_t start = reply.find(k_prefix);
    if (start == std::string::npos) return std::nullopt;
    double channels[3] = {0, 0, 0};
    std::size_t at = start + k_prefix.size();
    for (int c = 0; c < 3; ++c) {
        const std::size_t end = reply.find_first_not_of("0123456789abcdefABCDEF", at);
        const std::size_t digits = (end == std::string::npos ? reply.size() : end) - at;
        if (digits == 0 || digits > 4) return std::nullopt;
        const double most = static_cast<double>((1u << (4 * digits)) - 1);
        channels[c] = static_cast<double>(std::stoul(reply.substr(at, digits), nullptr, 16)) / most;
        at += digits;
        if (c < 2) {
            if (at >= reply.size() || reply[at] != '/') return std::nullopt;
            ++at;
        }
    }
    // sRGB's luminance weights (Rec. 709), on the channels as the terminal gives them.
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2] > 0.5;
}

namespace {

// Asks the terminal for its background: the reply comes on the terminal's input, so it is read
// there in raw mode (no echo, no line editing) and the terminal's modes are put back. A terminal
// that does not answer costs the timeout once.
std::optional<bool> ask_background() {
    const int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (tty < 0) return std::nullopt;
    std::optional<bool> light;
    termios saved{};
    if (tcgetpgrp(tty) == getpgrp() && tcgetattr(tty, &saved) == 0) {
        termios raw = saved;
        raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
        raw.c_cc[VMIN] = 0;
        raw.c_cc[VTIME] = 0;
        if (tcsetattr(tty, TCSANOW, &raw) == 0) {
            constexpr char k_query[] = "\x1b]11;?\x1b\\";
            std::string reply;
            if (write(tty, k_query, sizeof k_query - 1) == static_cast<ssize_t>(sizeof k_query - 1)) {
                pollfd wait{tty, POLLIN, 0};
                char buffer[64];
                // Until the reply's terminator (BEL or ESC \) or the timeout.
                while (reply.size() < 256 && poll(&wait, 1, k_osc11_timeout_ms) == 1) {
                    const ssize_t got = read(tty, buffer, sizeof buffer);
                    if (got <= 0) break;
                    reply.append(buffer, static_cast<std::size_t>(got));
                    if (reply.find('\a') != std::string::npos || reply.find("\x1b\\") != std::string::npos) break;
                }
            }
            light = osc11_is_light(reply);
            tcsetattr(tty, TCSANOW, &saved);
        }
    }
    close(tty);
    return light;
}

}  // namespace

bool terminal_is_light(PaletteMode mode, const char* colorfgbg) {
    if (mode == PaletteMode::automatic && stdout_is_terminal()) {
        if (const std::optional<bool> light = ask_background()) return *light;
    }
    return light_background(mode, colorfgbg);
}

std::size_t terminal_rows() {
    winsize size{};
    return ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 ? size.ws_row : 0;
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
