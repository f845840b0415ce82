#include "render/formats/svg_scatter.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render/formats/svg_text.hpp"

namespace embdemo {
namespace {

constexpr int k_frame = 240;
constexpr int k_inset = 12;  // the points keep this far from the frame, so no dot is cut
constexpr int k_gap = 40;
// Past this many points the labels would cover each other: dots only.
constexpr std::size_t k_max_labels = 32;
constexpr const char* k_dot = "#1f77b4";

}  // namespace

ChartDrawing draw_scatter(const FigureScatter& scatter, int x, int y) {
    ChartDrawing drawing;
    drawing.body = svg_text(x, y + 14, scatter.title, " font-weight=\"bold\" font-size=\"14\"");
    int title_width = svg_text_width(scatter.title, 14);
    const int top = y + 28 + 18;
    int left = x + 16;
    for (const FigureScatterFrame& frame : scatter.frames) {
        drawing.body += svg_text(left, top - 8, frame.title);
        title_width = std::max(title_width, left - x + svg_text_width(frame.title));
        drawing.body += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000000\"/>\n",
                                    left, top, k_frame, k_frame);
        double lo[2] = {0.0, 0.0};
        double hi[2] = {0.0, 0.0};
        for (std::size_t i = 0; i < frame.points.size(); ++i) {
            const double v[2] = {frame.points[i].x, frame.points[i].y};
            for (int k = 0; k < 2; ++k) {
                lo[k] = i == 0 ? v[k] : std::min(lo[k], v[k]);
                hi[k] = i == 0 ? v[k] : std::max(hi[k], v[k]);
            }
        }
        // One scale for both axes, so distances in the picture are distances between the rows.
        const double span = std::max({hi[0] - lo[0], hi[1] - lo[1], 1e-12});
        const double inner = k_frame - 2 * k_inset;
        const double mid[2] = {(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0};
        const int cx0 = left + k_frame / 2;
        const int cy0 = top + k_frame / 2;
        const bool labelled = frame.points.size() <= k_max_labels;
        for (std::size_t i = 0; i < frame.points.size(); ++i) {
            const int px = cx0 + static_cast<int>(std::lround((frame.points[i].x - mid[0]) / span * inner));
            const int py = cy0 - static_cast<int>(std::lround((frame.points[i].y - mid[1]) / span * inner));
            drawing.body += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>\n", px, py, k_dot);
            if (!labelled || i >= frame.labels.size()) continue;
            const std::string& label = frame.labels[i];
            const int width = svg_text_width(label);
            const int ty = std::clamp(py + 4, top + 12, top + k_frame - 4);
            if (px + 5 + width <= left + k_frame - 2) {
                drawing.body += svg_text(px + 5, ty, label);
            } else {
                drawing.body += svg_text(std::max(px - 5, left + 2 + width), ty, label, " text-anchor=\"end\"");
            }
        }
        drawing.body += svg_text(left + k_frame / 2, top + k_frame + 16, scatter.x_label,
                                 " text-anchor=\"middle\" fill=\"#555555\"");
        drawing.body += svg_text(left - 4, top + k_frame / 2, scatter.y_label, " text-anchor=\"end\" fill=\"#555555\"");
        left += k_frame + k_gap;
    }
    drawing.width = std::max(left - k_gap, x + title_width) + 4;
    drawing.height = top + k_frame + 28 - y;
    return drawing;
}

}  // namespace embdemo
