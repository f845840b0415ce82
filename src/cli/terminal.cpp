#include "cli/terminal.hpp"

#include <cstring>

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

bool stdout_is_terminal() { return isatty(STDOUT_FILENO) == 1; }
bool stdin_is_terminal() { return isatty(STDIN_FILENO) == 1; }

}  // namespace embdemo
