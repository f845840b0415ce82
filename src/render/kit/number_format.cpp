#include "render/kit/number_format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/compile.h>
#include <fmt/format.h>

namespace embdemo {
namespace {

// The text of one value without padding, as PyTorch's _Formatter.format spells it.
std::string spell(float value, const NumberFormat& format) {
    const double v = value;  // PyTorch formats the Python float (a double) of each element
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    switch (format.mode) {
        case NumberFormat::Mode::scientific:
            return fmt::format("{:.{}e}", v, format.precision);
        case NumberFormat::Mode::integer:
            return fmt::format("{:.0f}.", v);
        case NumberFormat::Mode::fixed:
            break;
    }
    return fmt::format("{:.{}f}", v, format.precision);
}

}  // namespace

NumberFormat choose_number_format(const std::vector<float>& values, int precision) {
    NumberFormat format;
    format.precision = precision;
    double min_abs = 0.0;
    double max_abs = 0.0;
    bool any = false;
    bool all_whole = true;
    for (const float value : values) {
        if (!std::isfinite(value) || value == 0.0f) continue;
        const double magnitude = std::fabs(static_cast<double>(value));
        min_abs = any ? std::min(min_abs, magnitude) : magnitude;
        max_abs = any ? std::max(max_abs, magnitude) : magnitude;
        any = true;
        if (value != std::ceil(value)) all_whole = false;
    }
    if (!any) {
        format.mode = NumberFormat::Mode::integer;  // all zeros print as "0." in PyTorch
    } else {
        const bool wide_range = max_abs / min_abs > 1000.0 || max_abs > 1.0e8;
        if (all_whole) {
            format.mode = wide_range ? NumberFormat::Mode::scientific : NumberFormat::Mode::integer;
        } else {
            format.mode = (wide_range || min_abs < 1.0e-4) ? NumberFormat::Mode::scientific
                                                           : NumberFormat::Mode::fixed;
        }
        if (format.mode == NumberFormat::Mode::scientific) {
            format.why = max_abs / min_abs > 1000.0 ? NumberFormat::Why::span
                         : max_abs > 1.0e8          ? NumberFormat::Why::large
                                                    : NumberFormat::Why::small;
        }
    }
    // PyTorch sets the common width from the finite non-zero values only, so "-0." or "inf"
    // can stick out; every value counts here, so columns always line up.
    for (const float value : values) {
        format.width = std::max(format.width, spell(value, format).size());
    }
    return format;
}

std::string format_number(float value, const NumberFormat& format) {
    std::string text = spell(value, format);
    if (text.size() < format.width) text.insert(0, format.width - text.size(), ' ');
    return text;
}

std::string shortest_round_trip(float value) {
    std::string text;
    append_shortest_round_trip(text, value);
    return text;
}

void append_shortest_round_trip(std::string& out, float value) {
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "inf" : "-inf";
        return;
    }
    // fmt's "{}" is the shortest text that reads back as this float when parsed *as a float*.
    // Consumers often parse as double and then round; confirm that path too, and fall back to
    // nine significant digits (always enough, and far from any rounding boundary) if not.
    char text[32];
    char* end = fmt::format_to(text, FMT_COMPILE("{}"), value);
    double reread = 0.0;
    const auto [read_end, status] = std::from_chars(text, end, reread);
    if (status != std::errc() || read_end != end || static_cast<float>(reread) != value) {
        end = fmt::format_to(text, FMT_COMPILE("{:.9g}"), value);
    }
    out.append(text, end);
}

}  // namespace embdemo
