// The terminal facts the CLI needs, decided once: is stdout a terminal, and is colour wanted.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace embdemo {

enum class ColorMode { automatic, always, never };

// Colour only when asked for, or (automatic) when stdout is a terminal, TERM is not "dumb" and
// NO_COLOR is unset or empty (https://no-color.org). Environment values are passed in (null
// when unset) so that the rule can be tested without touching the real environment.
bool color_wanted(ColorMode mode, bool stdout_is_terminal, const char* no_color, const char* term);

// Which colours: --palette dark or light as given; auto reads COLORFGBG ("15;0" is white on
// black), which many terminals set, and takes a light background when it names white (7 or
// 9-15, the rxvt convention); without a readable COLORFGBG, the dark palette.
enum class PaletteMode { automatic, dark, light };
bool light_background(PaletteMode mode, const char* colorfgbg);

// --palette auto on a terminal: the terminal's own answer to an OSC 11 query (its background
// colour), asked on /dev/tty and waited for at most k_osc11_timeout_ms, when stdout is a terminal
// and this process is in the terminal's foreground; else COLORFGBG as light_background reads it.
inline constexpr int k_osc11_timeout_ms = 100;
bool terminal_is_light(PaletteMode mode, const char* colorfgbg);

// An OSC 11 reply ("\x1b]11;rgb:RRRR/GGGG/BBBB" then BEL or ESC \, 1 to 4 hex digits a channel):
// whether that background is light (relative luminance above one half); nullopt when it is not
// such a reply.
std::optional<bool> osc11_is_light(const std::string& reply);

bool stdout_is_terminal();

// --pause on a terminal: the escape sequence that clears the screen and homes the cursor, and
// the terminal's rows (TIOCGWINSZ; 0 when it cannot tell), so that each screen of a step fits.
inline constexpr const char* k_clear_screen = "\x1b[H\x1b[2J";
std::size_t terminal_rows();

// The width the text view may use: 80 columns when stdout is not a terminal (one fixed layout,
// so piped output is the same everywhere), otherwise the terminal's width (TIOCGWINSZ, then
// COLUMNS, as ls does), never less than 80.
std::size_t output_width(bool stdout_is_terminal, const char* columns);
bool stdin_is_terminal();
bool stderr_is_terminal();

}  // namespace embdemo
