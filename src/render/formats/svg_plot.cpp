#include "render/formats/svg_plot.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render/formats/svg_text.hpp"

namespace embdemo {
namespace {

constexpr int k_plot_width = 480;
constexpr int k_plot_height = 200;
// Points up to this many are marked with a dot; more would merge into a thick line.
constexpr std::size_t k_max_dots = 40;
constexpr const char* k_line = "#1f77b4";

// A diverged run's losses reach 1e34: past 1000 a value is written with an exponent, as the text
// view's steps table writes it.
std::string value_text(double value, int precision) {
    return std::fabs(value) >= 1000.0 ? fmt::format("{:.2e}", value) : fmt::format("{:.{}f}", value, precision);
}

std::string count_text(double value) { return fmt::format("{:g}", value); }

}  // namespace

ChartDrawing draw_plot(const FigurePlot& plot, int x, int y) {
    ChartDrawing drawing;
    drawing.body = svg_text(x, y + 14, plot.title, " font-weight=\"bold\" font-size=\"14\"");
    double low = plot.points.front().y;
    double high = low;
    for (const FigurePlotPoint& p : plot.points) {
        low = std::min(low, p.y);
        high = std::max(high, p.y);
    }
    const double x_low = plot.points.front().x;
    const double x_high = plot.points.back().x;
    // A flat series or a single point still needs a range to divide by; it is drawn mid-height.
    const double span = high > low ? high - low : 1.0;
    const double x_span = x_high > x_low ? x_high - x_low : 1.0;
    const double y_mid = high > low ? (low + high) / 2.0 : low;
    const double y_base = high > low ? low : low - 0.5;

    const std::string ticks[3] = {value_text(low, plot.precision), value_text(y_mid, plot.precision),
                                  value_text(high, plot.precision)};
    int tick_width = 0;
    for (const std::string& t : ticks) tick_width = std::max(tick_width, svg_text_width(t));
    const int axis_x = x + std::max(tick_width + 10, svg_text_width(plot.y_label) / 2);
    // Room above the area for the value axis's label and a value written over the top point.
    const int top = y + 28 + 18 + 18;
    const int bottom = top + k_plot_height;
    const int right = axis_x + k_plot_width;
    const auto px = [&](double v) {
        return axis_x + static_cast<int>(std::lround((v - x_low) / x_span * k_plot_width));
    };
    const auto py = [&](double v) {
        return bottom - static_cast<int>(std::lround((v - y_base) / span * k_plot_height));
    };

    drawing.body += svg_text(x, top - 24, plot.y_label, " fill=\"#555555\"");
    const double tick_values[3] = {low, y_mid, high};
    for (int i = 0; i < 3; ++i) {
        if (i > 0 && !(high > low)) break;
        const int ty = py(tick_values[i]);
        drawing.body += fmt::format("<path d=\"M{},{} H{}\" stroke=\"#dddddd\"/>\n", axis_x, ty, right);
        drawing.body += svg_text(axis_x - 6, ty + 4, ticks[i], " text-anchor=\"end\" fill=\"#555555\"");
    }
    std::vector<double> x_ticks = {x_low};
    const double x_mid = std::round((x_low + x_high) / 2.0);
    if (x_high - x_low >= 4.0) x_ticks.push_back(x_mid);
    if (x_high > x_low) x_ticks.push_back(x_high);
    for (const double t : x_ticks) {
        const int tx = px(t);
        drawing.body += fmt::format("<path d=\"M{},{} V{}\" stroke=\"#000000\"/>\n", tx, bottom, bottom + 4);
        drawing.body += svg_text(tx, bottom + 18, count_text(t), " text-anchor=\"middle\" fill=\"#555555\"");
    }
    drawing.body += fmt::format("<path d=\"M{},{} V{} H{}\" fill=\"none\" stroke=\"#000000\"/>\n", axis_x, top, bottom,
                                right);
    drawing.body += svg_text(axis_x + k_plot_width / 2, bottom + 36, plot.x_label,
                             " text-anchor=\"middle\" fill=\"#555555\"");

    // More points than pixel columns: each column keeps its highest and lowest point, in the order
    // they come, so a spike is as tall as it was and the file stays a few kB.
    std::string line;
    int column = -1;
    int column_min = 0;
    int column_max = 0;
    bool max_first = false;
    const auto flush = [&] {
        if (column < 0) return;
        const int a = max_first ? column_max : column_min;
        const int b = max_first ? column_min : column_max;
        line += fmt::format("{}{},{}", line.empty() ? "" : " ", column, a);
        if (b != a) line += fmt::format(" {},{}", column, b);
    };
    for (const FigurePlotPoint& p : plot.points) {
        const int cx = px(p.x);
        const int cy = py(p.y);
        if (cx != column) {
            flush();
            column = cx;
            column_min = column_max = cy;
            max_first = false;
            continue;
        }
        // Pixel y grows downwards: the smallest cy is the highest value.
        if (cy < column_min) {
            if (column_max == column_min) max_first = true;
            column_min = cy;
        }
        column_max = std::max(column_max, cy);
    }
    flush();
    drawing.body += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", line, k_line);
    if (plot.points.size() <= k_max_dots) {
        for (const FigurePlotPoint& p : plot.points) {
            drawing.body += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>\n", px(p.x), py(p.y), k_line);
        }
    }
    // The first value starts at its point, the last ends at its own, both just above the line.
    const FigurePlotPoint& first = plot.points.front();
    const FigurePlotPoint& last = plot.points.back();
    drawing.body += svg_text(px(first.x) + 6, py(first.y) - 8, value_text(first.y, plot.precision));
    if (plot.points.size() > 1) {
        drawing.body += svg_text(px(last.x), py(last.y) - 8, value_text(last.y, plot.precision),
                                 " text-anchor=\"end\"");
    }
    const int last_text_right = px(last.x) + svg_text_width(count_text(x_high)) / 2;
    drawing.width = std::max(right, last_text_right) + 4;
    drawing.height = bottom + 36 + 12 - y;
    return drawing;
}

}  // namespace embdemo
