#include "render/formats/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/formats/svg_text.hpp"

namespace embdemo {
namespace {

constexpr int k_bar_row = 24;
constexpr int k_bar_height = 16;
constexpr int k_axis_width = 480;
constexpr const char* k_grey = "#999999";

int text_width(const std::string& text) { return static_cast<int>(text.size()) * k_svg_char; }


// The powers of ten around the drawn values: [low, high], at least one decade apart.
std::pair<int, int> decades(const FigureChart& chart) {
    double smallest = 0.0;
    double largest = 0.0;
    for (const FigureBar& bar : chart.bars) {
        if (bar.value <= 0.0) continue;
        smallest = smallest == 0.0 ? bar.value : std::min(smallest, bar.value);
        largest = std::max(largest, bar.value);
    }
    if (largest == 0.0) return {0, 1};
    const int low = static_cast<int>(std::floor(std::log10(smallest)));
    const int high = static_cast<int>(std::ceil(std::log10(largest)));
    return {low, std::max(high, low + 1)};
}

// "50,257" for an exact ratio, "3.14" otherwise.
std::string ratio_text(double ratio) {
    const double whole = std::round(ratio);
    if (ratio >= 10.0 && std::fabs(ratio - whole) <= 1e-9 * ratio) return group_thousands(static_cast<std::uint64_t>(whole));
    return fmt::format("{:.3g}", ratio);
}

// The bars' labels right-aligned before axis_x, one row each from `top`.
std::string bar_labels(const FigureChart& chart, int axis_x, int top) {
    std::string out;
    for (std::size_t i = 0; i < chart.bars.size(); ++i) {
        out += svg_text(axis_x - 8, top + static_cast<int>(i) * k_bar_row + 16, chart.bars[i].label, " text-anchor=\"end\"");
    }
    return out;
}

std::string bar_rect(int x, int row_y, int width, const FigureBar& bar,
                     const std::function<const char*(int)>& colour) {
    return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#000000\"/>\n", x,
                       row_y + (k_bar_row - k_bar_height) / 2, width, k_bar_height,
                       bar.key == k_no_key ? k_grey : colour(bar.key));
}

}  // namespace

ChartDrawing draw_chart(const FigureChart& chart, int x, int y, const std::function<const char*(int)>& colour) {
    ChartDrawing drawing;
    drawing.body = svg_text(x, y + 14, chart.title + ", on a log scale", " font-weight=\"bold\" font-size=\"14\"");
    int label_width = 0;
    int value_width = 0;
    double largest = 0.0;
    for (const FigureBar& bar : chart.bars) {
        label_width = std::max(label_width, text_width(bar.label) + 12);
        value_width = std::max(value_width, text_width(bar.value_text) + 12);
        largest = std::max(largest, bar.value);
    }
    const auto [low, high] = decades(chart);
    const int axis_x = x + label_width;
    int top = y + 28;
    int bottom = top + static_cast<int>(chart.bars.size()) * k_bar_row;
    const auto position = [&, low = low, high = high](double value) {
        return axis_x + static_cast<int>(std::lround((std::log10(value) - low) / (high - low) * k_axis_width));
    };
    // A tick and a faint line per power of ten, labelled as 10^k: the scale is what the chart says.
    for (int power = low; power <= high; ++power) {
        const int tick = axis_x + (power - low) * k_axis_width / (high - low);
        drawing.body += fmt::format("<path d=\"M{},{} V{}\" stroke=\"#dddddd\"/>\n", tick, top, bottom);
        drawing.body += svg_text(tick, bottom + 16, fmt::format("10^{}", power),
                             " text-anchor=\"middle\" fill=\"#555555\"");
    }
    drawing.body += fmt::format("<path d=\"M{},{} V{} H{}\" fill=\"none\" stroke=\"#000000\"/>\n", axis_x, top, bottom,
                                axis_x + k_axis_width);
    drawing.body += svg_text(axis_x + k_axis_width / 2, bottom + 34, chart.unit + " (log scale: each tick is 10x the last)",
                         " text-anchor=\"middle\" fill=\"#555555\"");
    drawing.body += bar_labels(chart, axis_x, top);
    for (std::size_t i = 0; i < chart.bars.size(); ++i) {
        const FigureBar& bar = chart.bars[i];
        const int row_y = top + static_cast<int>(i) * k_bar_row;
        int end = axis_x;
        if (bar.value > 0.0) {
            // A value at the axis's low end still gets a sliver, so no drawn count looks like none.
            end = std::max(position(bar.value), axis_x + 2);
            drawing.body += bar_rect(axis_x, row_y, end - axis_x, bar, colour);
        }
        drawing.body += svg_text(end + 6, row_y + 16, bar.value_text);
    }
    int right = axis_x + k_axis_width + value_width;

    // The same counts on a linear axis, so that a ratio is a ratio of lengths: a bar too short to
    // see is drawn as a hairline and says how long it really is.
    const int linear_y = bottom + 52;
    drawing.body += svg_text(x, linear_y + 14, chart.title + ", on a linear scale",
                             " font-weight=\"bold\" font-size=\"14\"");
    top = linear_y + 28;
    bottom = top + static_cast<int>(chart.bars.size()) * k_bar_row;
    for (int quarter = 0; quarter <= 4; ++quarter) {
        const int tick = axis_x + quarter * k_axis_width / 4;
        drawing.body += fmt::format("<path d=\"M{},{} V{}\" stroke=\"#dddddd\"/>\n", tick, top, bottom);
    }
    drawing.body += svg_text(axis_x, bottom + 16, "0", " text-anchor=\"middle\" fill=\"#555555\"");
    drawing.body += fmt::format("<path d=\"M{},{} V{} H{}\" fill=\"none\" stroke=\"#000000\"/>\n", axis_x, top, bottom,
                                axis_x + k_axis_width);
    drawing.body += svg_text(axis_x + k_axis_width / 2, bottom + 34,
                             chart.unit + " (linear scale: length is proportional to the count)",
                             " text-anchor=\"middle\" fill=\"#555555\"");
    drawing.body += bar_labels(chart, axis_x, top);
    for (std::size_t i = 0; i < chart.bars.size(); ++i) {
        const FigureBar& bar = chart.bars[i];
        const int row_y = top + static_cast<int>(i) * k_bar_row;
        const double length = largest > 0.0 ? bar.value / largest * k_axis_width : 0.0;
        int end = axis_x;
        std::string value = bar.value_text;
        if (bar.value > 0.0) {
            end = axis_x + std::max(1, static_cast<int>(std::lround(length)));
            drawing.body += bar_rect(axis_x, row_y, end - axis_x, bar, colour);
            if (length < 1.0) {
                value += fmt::format(": 1/{} of the longest, {:.2g} px here", ratio_text(largest / bar.value), length);
            }
        }
        drawing.body += svg_text(end + 6, row_y + 16, value);
        right = std::max(right, end + 6 + text_width(value));
    }
    drawing.width = right;
    drawing.height = bottom - y + 48;
    return drawing;
}

}  // namespace embdemo
