#include "render/formats/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

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

}  // namespace

ChartDrawing draw_chart(const FigureChart& chart, int x, int y, const std::function<const char*(int)>& colour) {
    ChartDrawing drawing;
    drawing.body = svg_text(x, y + 14, chart.title, " font-weight=\"bold\" font-size=\"14\"");
    int label_width = 0;
    int value_width = 0;
    for (const FigureBar& bar : chart.bars) {
        label_width = std::max(label_width, text_width(bar.label) + 12);
        value_width = std::max(value_width, text_width(bar.value_text) + 12);
    }
    const auto [low, high] = decades(chart);
    const int axis_x = x + label_width;
    const int top = y + 28;
    const int bottom = top + static_cast<int>(chart.bars.size()) * k_bar_row;
    const auto position = [&, low = low, high = high](double value) {
        return axis_x + static_cast<int>(std::lround((std::log10(value) - low) / (high - low) * k_axis_width));
    };
    // A tick and a faint line per power of ten, labelled as 10^k: the scale is what the chart says.
    for (int power = low; power <= high; ++power) {
        const int tick = axis_x + (power - low) * k_axis_width / (high - low);
        drawing.body += fmt::format("<path d=\"M{},{} V{}\" stroke=\"#dddddd\"/>\n", tick, top, bottom);
        drawing.body += svg_text(tick, bottom + 16, fmt::format("10^{}", power),
                             " text-anchor=\"middle\" fill=\"#555555\" font-size=\"10\"");
    }
    drawing.body += fmt::format("<path d=\"M{},{} V{} H{}\" fill=\"none\" stroke=\"#000000\"/>\n", axis_x, top, bottom,
                                axis_x + k_axis_width);
    drawing.body += svg_text(axis_x + k_axis_width / 2, bottom + 32, chart.unit + " (log scale)",
                         " text-anchor=\"middle\" fill=\"#555555\"");
    for (std::size_t i = 0; i < chart.bars.size(); ++i) {
        const FigureBar& bar = chart.bars[i];
        const int row_y = top + static_cast<int>(i) * k_bar_row;
        drawing.body += svg_text(axis_x - 8, row_y + 16, bar.label, " text-anchor=\"end\"");
        int end = axis_x;
        if (bar.value > 0.0) {
            // A value at the axis's low end still gets a sliver, so no drawn count looks like none.
            end = std::max(position(bar.value), axis_x + 2);
            drawing.body += fmt::format(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#000000\"/>\n", axis_x,
                row_y + (k_bar_row - k_bar_height) / 2, end - axis_x, k_bar_height,
                bar.key == k_no_key ? k_grey : colour(bar.key));
        }
        drawing.body += svg_text(end + 6, row_y + 16, bar.value_text);
    }
    drawing.width = axis_x + k_axis_width + value_width;
    drawing.height = bottom - y + 44;
    return drawing;
}

}  // namespace embdemo
