// The terminal facts the CLI needs, decided once: is stdout a terminal, and is colour wanted.
#pragma once

#include <cstddef>

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

bool stdout_is_terminal();

// The width the text view may use: 80 columns when stdout is not a terminal (one fixed layout,
// so piped output is the same everywhere), otherwise the terminal's width (TIOCGWINSZ, then
// COLUMNS, as ls does), never less than 80.
std::size_t output_width(bool stdout_is_terminal, const char* columns);
bool stdin_is_terminal();
bool stderr_is_terminal();

}  // namespace embdemo
