#include "render/formats/svg.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include <fmt/format.h>

#include "render/formats/svg_chart.hpp"
#include "render/formats/svg_text.hpp"
#include "render/kit/xml_text.hpp"

namespace embdemo {
namespace {

constexpr int k_row = 20;
constexpr int k_margin = 20;
constexpr int k_op_gap = 44;
constexpr int k_arrow_gap = 96;
constexpr int k_cell_pad = 12;

// Okabe and Ito's palette, distinguishable with the common colour-vision deficiencies; a key
// past the eighth repeats a colour but never its dash pattern and label.
constexpr const char* k_colours[] = {"#E69F00", "#56B4E9", "#009E73", "#F0E442",
                                     "#0072B2", "#D55E00", "#CC79A7", "#999999"};
constexpr const char* k_dashes[] = {"", "6,3", "2,3", "8,3,2,3", "1,2", "10,4", "4,4", "6,2,2,2"};
constexpr int k_palette_size = 8;

int text_width(const std::string& text) { return static_cast<int>(text.size()) * k_svg_char; }

const char* colour(int key) { return k_colours[key % k_palette_size]; }

struct MatrixLayout {
    int label = 0;             // width of the row labels, right-aligned
    std::vector<int> cells;    // width of each column
    int cells_total = 0;
    int note = 0;
    int width = 0;
};

MatrixLayout layout_of(const FigureMatrix& m) {
    MatrixLayout layout;
    for (const FigureRow& row : m.rows) layout.label = std::max(layout.label, text_width(row.label) + 8);
    layout.cells.assign(m.col_labels.size(), 0);
    for (std::size_t c = 0; c < m.col_labels.size(); ++c) {
        int width = text_width(m.col_labels[c]);
        for (const FigureRow& row : m.rows) width = std::max(width, text_width(row.cells[c]));
        layout.cells[c] = width + k_cell_pad;
        layout.cells_total += layout.cells[c];
    }
    for (const FigureRow& row : m.rows) {
        if (!row.note.empty()) layout.note = std::max(layout.note, text_width(row.note) + 10);
    }
    layout.width = std::max(layout.label + layout.cells_total + layout.note,
                            std::max(text_width(m.name), text_width(m.shape)));
    return layout;
}


// One matrix at (x, y): name, shape, column labels, brackets, rows.
std::string draw_matrix(const FigureMatrix& m, const MatrixLayout& layout, int x, int y, bool page_hooks) {
    std::string out = "<g>\n";
    out += svg_text(x, y + 14, m.name, " font-weight=\"bold\"");
    out += svg_text(x, y + 14 + k_row, m.shape, " fill=\"#555555\"");
    const int cells_x = x + layout.label;
    int cx = cells_x;
    for (std::size_t c = 0; c < m.col_labels.size(); ++c) {
        out += svg_text(cx + layout.cells[c] / 2, y + 14 + 2 * k_row, m.col_labels[c],
                    " text-anchor=\"middle\" fill=\"#555555\" font-size=\"10\"");
        cx += layout.cells[c];
    }
    const int top = y + 3 * k_row;
    const int bottom = top + static_cast<int>(m.rows.size()) * k_row;
    out += fmt::format("<path d=\"M{},{} h-4 V{} h4 M{},{} h4 V{} h-4\" fill=\"none\" stroke=\"#000000\"/>\n",
                       cells_x + 2, top, bottom, cells_x + layout.cells_total - 2, top, bottom);
    for (std::size_t r = 0; r < m.rows.size(); ++r) {
        const FigureRow& row = m.rows[r];
        const int ry = top + static_cast<int>(r) * k_row;
        const bool hook = page_hooks && row.table_row >= 0;
        out += hook ? fmt::format("<g class=\"row\" data-e-row=\"{}\">\n", row.table_row) : "<g>\n";
        if (row.key != k_no_key) {
            out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.35\"/>\n",
                               cells_x, ry + 1, layout.cells_total, k_row - 2, colour(row.key));
        }
        if (hook) {
            // Outlined by the HTML page when its step reaches this row; invisible otherwise.
            out += fmt::format("<rect class=\"hl\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\"/>\n",
                               cells_x - 1, ry, layout.cells_total + 2, k_row);
        }
        out += svg_text(cells_x - 6, ry + 14, row.label, " text-anchor=\"end\" fill=\"#333333\"");
        int cell_x = cells_x;
        for (std::size_t c = 0; c < row.cells.size(); ++c) {
            const int w = layout.cells[c];
            if (row.marked[c]) {
                out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000000\" "
                                   "stroke-width=\"1.5\"/>\n",
                                   cell_x + 2, ry + 2, w - 4, k_row - 4);
            }
            out += svg_text(cell_x + w / 2, ry + 14, row.gap && c == 0 ? "..." : row.cells[c],
                        row.marked[c] ? " text-anchor=\"middle\" font-weight=\"bold\"" : " text-anchor=\"middle\"");
            cell_x += w;
        }
        if (!row.note.empty()) out += svg_text(cells_x + layout.cells_total + 8, ry + 14, row.note);
        out += "</g>\n";
    }
    return out + "</g>\n";
}

std::string draw_arrows(const std::vector<FigureArrow>& arrows, int from_x, int to_x, int top) {
    std::string out;
    for (const FigureArrow& arrow : arrows) {
        const int y1 = top + static_cast<int>(arrow.from) * k_row + k_row / 2;
        const int y2 = top + static_cast<int>(arrow.to) * k_row + k_row / 2;
        const int key = arrow.key == k_no_key ? k_palette_size - 1 : arrow.key;
        const char* dash = k_dashes[key % k_palette_size];
        out += fmt::format("<path d=\"M{},{} C{},{} {},{} {},{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}"
                           " marker-end=\"url(#head{})\"/>\n",
                           from_x + 4, y1, (from_x + to_x) / 2, y1, (from_x + to_x) / 2, y2, to_x - 6, y2, colour(key),
                           *dash ? fmt::format(" stroke-dasharray=\"{}\"", dash) : "", key % k_palette_size);
    }
    return out;
}

struct PanelDrawing {
    std::string body;
    int width = 0;
    int height = 0;
};

PanelDrawing draw_panel(const FigurePanel& panel, int y, bool page_hooks) {
    PanelDrawing drawing;
    drawing.body = svg_text(k_margin, y + 14, panel.title, " font-weight=\"bold\" font-size=\"14\"");
    const int top = y + k_row + 8;
    int x = k_margin;
    std::size_t tallest = 0;
    std::vector<MatrixLayout> layouts;
    for (const FigureMatrix& m : panel.items) layouts.push_back(layout_of(m));
    for (std::size_t i = 0; i < panel.items.size(); ++i) {
        drawing.body += draw_matrix(panel.items[i], layouts[i], x, top, page_hooks);
        tallest = std::max(tallest, panel.items[i].rows.size());
        const int right = x + layouts[i].width;
        if (i + 1 == panel.items.size()) {
            x = right;
            break;
        }
        const bool arrows = panel.ops[i].empty();
        const int next = right + (arrows ? k_arrow_gap : k_op_gap);
        if (arrows) {
            drawing.body += draw_arrows(panel.arrows[i], right, next, top + 3 * k_row);
        } else {
            const int rows_mid = top + 3 * k_row + static_cast<int>(panel.items[i].rows.size()) * k_row / 2;
            // ASCII bytes: the multiplication sign as a character reference.
            drawing.body += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"20\">{}</text>\n",
                                        (right + next) / 2, rows_mid + 6,
                                        panel.ops[i] == "x" ? "&#215;" : escape_xml(panel.ops[i]));
        }
        x = next;
    }
    drawing.width = x + k_margin;
    drawing.height = k_row + 8 + (3 + static_cast<int>(tallest)) * k_row + k_row;
    return drawing;
}

std::string markers() {
    std::string out = "<defs>\n";
    for (int key = 0; key < k_palette_size; ++key) {
        out += fmt::format("<marker id=\"head{}\" markerWidth=\"8\" markerHeight=\"8\" refX=\"1\" refY=\"4\" "
                           "orient=\"auto\" markerUnits=\"userSpaceOnUse\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"{}\"/></marker>\n",
                           key, k_colours[key]);
    }
    return out + "</defs>\n";
}

// The picture; `page_hooks` adds what the HTML page's script and CSS use (data-e-row groups
// and their outline rectangles), which plain SVG 1.1 has no attribute for.
std::string svg_element(const Figure& figure, bool page_hooks) {
    std::string body = svg_text(k_margin, k_margin + 12, figure.title, " font-weight=\"bold\" font-size=\"15\"");
    int y = k_margin + 28;
    int width = k_margin * 2 + text_width(figure.title);
    for (const FigurePanel& panel : figure.panels) {
        const PanelDrawing drawing = draw_panel(panel, y, page_hooks);
        body += drawing.body;
        width = std::max(width, drawing.width);
        y += drawing.height;
    }
    if (figure.chart) {
        const ChartDrawing chart = draw_chart(*figure.chart, k_margin, y, colour);
        body += chart.body;
        width = std::max(width, chart.width + k_margin);
        y += chart.height;
    }
    for (std::size_t k = 0; k < figure.keys.size(); ++k) {
        const int key = static_cast<int>(k);
        body += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" fill-opacity=\"0.35\" "
                            "stroke=\"{}\"/>\n",
                            k_margin, y, colour(key), colour(key));
        body += svg_text(k_margin + 20, y + 12, figure.keys[k]);
        width = std::max(width, k_margin * 2 + 20 + text_width(figure.keys[k]));
        y += k_row;
    }
    for (const std::string& line : figure.caption) {
        body += svg_text(k_margin, y + 14, line);
        width = std::max(width, k_margin * 2 + text_width(line));
        y += k_row;
    }
    const int height = y + k_margin;
    return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{}\" height=\"{}\" "
                       "viewBox=\"0 0 {} {}\" font-family=\"monospace\" font-size=\"12\">\n"
                       "<title>{}</title>\n{}<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n{}</svg>\n",
                       width, height, width, height, escape_xml(figure.title), markers(), width, height, body);
}

}  // namespace

std::string svg_text(int x, int y, const std::string& content, const char* extra) {
    return fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>\n", x, y, extra, escape_xml(content));
}


std::string render_svg_element(const Figure& figure) { return svg_element(figure, true); }

std::string render_svg(const Figure& figure) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg_element(figure, false);
}

}  // namespace embdemo
