#include "render/formats/svg.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include <fmt/format.h>

#include "render/formats/svg_chart.hpp"
#include "render/formats/svg_plot.hpp"
#include "render/formats/svg_scatter.hpp"
#include "render/formats/svg_text.hpp"
#include "render/kit/table.hpp"
#include "render/kit/xml_text.hpp"

namespace embdemo {
namespace {

// A matrix row's pitch and its text's baseline within it: 18 px rows of 12 px numbers keep a
// three-panel lesson within a slide's height.
constexpr int k_row = 18;
constexpr int k_baseline = k_row - 5;
// A "..." row (rows left out between the shown ones) takes about half a row: E at GPT-2's V shows
// its selected rows between such gaps, and full rows for them made it taller than a slide.
constexpr int k_gap_row = 10;
constexpr int k_gap_baseline = 7;
constexpr int k_margin = 20;
constexpr int k_beside_gap = 24;  // between the loss plot and the scatter right of it
constexpr int k_op_gap = 44;
constexpr int k_arrow_gap = 72;
constexpr int k_cell_pad = 12;
// Headings: the figure's title and each panel's, and the line pitch of their wrapped lines.
constexpr int k_title_font = 15;
constexpr int k_heading_font = 14;
constexpr int k_heading_row = 18;
// The narrowest drawing: a small figure's title and caption still get lines of 77 characters.
constexpr int k_min_width = 640;
// The narrowest drawing with its caption beside it.
constexpr int k_min_beside = 400;
// The caption's line pitch: prose reads at a tighter pitch than the matrices' rows.
constexpr int k_caption_row = 16;
constexpr int k_key_row = 20;
// The slide a figure is fitted to (scale = min(1280 / width, 720 / height)): the caption goes
// beside the drawing instead of under it when that fits the slide at a larger scale.
constexpr int k_slide_width = 1280;
constexpr int k_slide_height = 720;
constexpr int k_caption_columns[] = {320, 360, 400, 440, 480, 520, 560, 600, 640, 680, 720};
// Between one panel's last row and the next panel's heading.
constexpr int k_panel_gap = 14;

// Okabe and Ito's palette, distinguishable with the common colour-vision deficiencies; a key
// past the eighth repeats a colour but never its dash pattern and label.
constexpr const char* k_colours[] = {"#E69F00", "#56B4E9", "#009E73", "#F0E442",
                                     "#0072B2", "#D55E00", "#CC79A7", "#999999"};
constexpr const char* k_dashes[] = {"", "6,3", "2,3", "8,3,2,3", "1,2", "10,4", "4,4", "6,2,2,2"};
constexpr int k_palette_size = 8;

int text_width(const std::string& text) { return svg_text_width(text); }

// Lines of text, one <text> each, the first's baseline at (x, y), `pitch` apart.
std::string text_lines(const std::vector<std::string>& lines, int x, int y, int pitch, const char* extra = "") {
    std::string out;
    for (const std::string& line : lines) {
        out += svg_text(x, y, line, extra);
        y += pitch;
    }
    return out;
}

const char* colour(int key) { return k_colours[key % k_palette_size]; }

struct MatrixLayout {
    int label = 0;             // width of the row labels, right-aligned
    std::vector<int> cells;    // width of each column
    int cells_total = 0;
    int note = 0;
    int width = 0;
    std::vector<int> row_y;    // each row's top, from the first row's
    int rows_height = 0;
};

int row_height(const FigureRow& row) { return row.gap ? k_gap_row : k_row; }

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
    for (const FigureRow& row : m.rows) {
        layout.row_y.push_back(layout.rows_height);
        layout.rows_height += row_height(row);
    }
    return layout;
}


// One matrix at (x, y): name, shape, column labels, brackets, rows.
std::string draw_matrix(const FigureMatrix& m, const MatrixLayout& layout, int x, int y, bool page_hooks) {
    // The page's steps name a matrix by the first word of its name ("E", "tok", "X").
    std::string out = page_hooks ? fmt::format("<g class=\"matrix\" data-matrix=\"{}\">\n",
                                               escape_xml(m.name.substr(0, m.name.find(' '))))
                                 : "<g>\n";
    out += svg_text(x, y + k_baseline, m.name, " font-weight=\"bold\"");
    out += svg_text(x, y + k_baseline + k_row, m.shape, " fill=\"#555555\"");
    const int cells_x = x + layout.label;
    int cx = cells_x;
    for (std::size_t c = 0; c < m.col_labels.size(); ++c) {
        out += svg_text(cx + layout.cells[c] / 2, y + k_baseline + 2 * k_row, m.col_labels[c],
                    " text-anchor=\"middle\" fill=\"#555555\"");
        cx += layout.cells[c];
    }
    const int top = y + 3 * k_row;
    const int bottom = top + layout.rows_height;
    out += fmt::format("<path d=\"M{},{} h-4 V{} h4 M{},{} h4 V{} h-4\" fill=\"none\" stroke=\"#000000\"/>\n",
                       cells_x + 2, top, bottom, cells_x + layout.cells_total - 2, top, bottom);
    for (std::size_t r = 0; r < m.rows.size(); ++r) {
        const FigureRow& row = m.rows[r];
        const int ry = top + layout.row_y[r];
        const int h = row_height(row);
        const int baseline = ry + (row.gap ? k_gap_baseline : k_baseline);
        const bool hook = page_hooks && row.table_row >= 0;
        out += hook ? fmt::format("<g class=\"row\" data-e-row=\"{}\">\n", row.table_row) : "<g>\n";
        if (row.key != k_no_key) {
            out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.35\"/>\n",
                               cells_x, ry + 1, layout.cells_total, h - 2, colour(row.key));
        }
        if (hook) {
            // Outlined by the HTML page when its step reaches this row; invisible otherwise.
            out += fmt::format("<rect class=\"hl\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\"/>\n",
                               cells_x - 1, ry, layout.cells_total + 2, h);
        }
        out += svg_text(cells_x - 6, baseline, row.label, " text-anchor=\"end\" fill=\"#333333\"");
        int cell_x = cells_x;
        for (std::size_t c = 0; c < row.cells.size(); ++c) {
            const int w = layout.cells[c];
            if (row.marked[c]) {
                out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000000\" "
                                   "stroke-width=\"1.5\"/>\n",
                                   cell_x + 2, ry + 2, w - 4, h - 4);
            }
            out += svg_text(cell_x + w / 2, baseline, row.gap && c == 0 ? "..." : row.cells[c],
                        row.marked[c] ? " text-anchor=\"middle\" font-weight=\"bold\"" : " text-anchor=\"middle\"");
            cell_x += w;
        }
        if (!row.note.empty()) out += svg_text(cells_x + layout.cells_total + 8, baseline, row.note);
        out += "</g>\n";
    }
    return out + "</g>\n";
}

// Arrows from rows of the matrix laid out as `from` to rows of the one laid out as `to`, each
// from the middle of its row; `top` is where both matrices' first rows start.
std::string draw_arrows(const std::vector<FigureArrow>& arrows, const MatrixLayout& from, const MatrixLayout& to,
                        int from_x, int to_x, int top) {
    const auto middle = [](const MatrixLayout& layout, std::size_t row) {
        const int next = row + 1 < layout.row_y.size() ? layout.row_y[row + 1] : layout.rows_height;
        return (layout.row_y[row] + next) / 2;
    };
    std::string out;
    for (const FigureArrow& arrow : arrows) {
        const int y1 = top + middle(from, arrow.from);
        const int y2 = top + middle(to, arrow.to);
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

// The panel at y, its title wrapped to `width` (0: the matrices alone, to measure how wide they are).
PanelDrawing draw_panel(const FigurePanel& panel, int y, bool page_hooks, int width) {
    PanelDrawing drawing;
    int title_height = k_row;
    if (width > 0) {
        const std::vector<std::string> title = svg_wrap(panel.title, width - 2 * k_margin, k_heading_font);
        drawing.body = text_lines(title, k_margin, y + 14, k_heading_row, " font-weight=\"bold\" font-size=\"14\"");
        title_height += static_cast<int>(title.size() - 1) * k_heading_row;
    }
    const int top = y + title_height + 8;
    int x = k_margin;
    int tallest = 0;
    std::vector<MatrixLayout> layouts;
    for (const FigureMatrix& m : panel.items) layouts.push_back(layout_of(m));
    for (std::size_t i = 0; i < panel.items.size(); ++i) {
        drawing.body += draw_matrix(panel.items[i], layouts[i], x, top, page_hooks);
        tallest = std::max(tallest, layouts[i].rows_height);
        const int right = x + layouts[i].width;
        if (i + 1 == panel.items.size()) {
            x = right;
            break;
        }
        const bool arrows = panel.ops[i].empty();
        const int next = right + (arrows ? k_arrow_gap : k_op_gap);
        if (arrows) {
            drawing.body += draw_arrows(panel.arrows[i], layouts[i], layouts[i + 1], right, next, top + 3 * k_row);
        } else {
            const int rows_mid = top + 3 * k_row + layouts[i].rows_height / 2;
            // ASCII bytes: the multiplication sign as a character reference.
            drawing.body += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"20\">{}</text>\n",
                                        (right + next) / 2, rows_mid + 6,
                                        panel.ops[i] == "x" ? "&#215;" : escape_xml(panel.ops[i]));
        }
        x = next;
    }
    drawing.width = x + k_margin;
    drawing.height = title_height + 8 + 3 * k_row + tallest + k_panel_gap;
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

struct Drawing {
    std::string body;
    int height = 0;  // the y under the keys
};

// The title, the panels, the chart, the plot, the scatter and the keys, every heading and key wrapped to `width`.
Drawing draw_figure(const Figure& figure, bool page_hooks, int width) {
    const int text_width_px = width - 2 * k_margin;
    const std::vector<std::string> title = svg_wrap(figure.title, text_width_px, k_title_font);
    Drawing out;
    out.body = text_lines(title, k_margin, k_margin + 12, k_row, " font-weight=\"bold\" font-size=\"15\"");
    int y = k_margin + 28 + static_cast<int>(title.size() - 1) * k_row;
    for (const FigurePanel& panel : figure.panels) {
        const PanelDrawing drawing = draw_panel(panel, y, page_hooks, width);
        out.body += drawing.body;
        y += drawing.height;
    }
    if (figure.chart) {
        const ChartDrawing chart = draw_chart(*figure.chart, k_margin, y, colour);
        out.body += chart.body;
        y += chart.height;
    }
    // The scatter goes right of the plot: stacked, the two would be too tall for a slide.
    int beside_x = k_margin;
    int row_height = 0;
    if (figure.plot) {
        const ChartDrawing plot = draw_plot(*figure.plot, k_margin, y);
        out.body += plot.body;
        beside_x = plot.width + k_beside_gap;
        row_height = plot.height;
    }
    if (figure.scatter) {
        const ChartDrawing scatter = draw_scatter(*figure.scatter, beside_x, y);
        out.body += scatter.body;
        row_height = std::max(row_height, scatter.height);
    }
    y += row_height;
    // The keys side by side, as many to a line as fit; a key wider than the drawing wraps.
    int key_x = k_margin;
    for (std::size_t k = 0; k < figure.keys.size(); ++k) {
        const int key = static_cast<int>(k);
        const std::vector<std::string> lines = svg_wrap(figure.keys[k], text_width_px - 20);
        int key_width = 0;
        for (const std::string& line : lines) key_width = std::max(key_width, 20 + text_width(line));
        if (key_x > k_margin && (lines.size() > 1 || key_x + key_width > width - k_margin)) {
            key_x = k_margin;
            y += k_key_row;
        }
        out.body += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" "
                                "fill-opacity=\"0.35\" stroke=\"{}\"/>\n",
                                key_x, y, colour(key), colour(key));
        out.body += text_lines(lines, key_x + 20, y + 12, k_key_row);
        if (lines.size() > 1) {
            y += static_cast<int>(lines.size()) * k_key_row;
            continue;
        }
        key_x += key_width + 24;
    }
    if (key_x > k_margin) y += k_key_row;
    out.height = y;
    return out;
}

double slide_scale(int width, int height) {
    return std::min(static_cast<double>(k_slide_width) / width, static_cast<double>(k_slide_height) / height);
}

// The caption's sentences wrapped to `width` px, one list of lines.
std::vector<std::string> caption_lines(const Figure& figure, int width) {
    std::vector<std::string> lines;
    for (const std::string& sentence : figure.caption) {
        for (std::string& line : svg_wrap(sentence, width)) lines.push_back(std::move(line));
    }
    return lines;
}

// The picture; `page_hooks` adds what the HTML page's script and CSS use (data-e-row groups
// and their outline rectangles), which plain SVG 1.1 has no attribute for. Its size is the
// drawing's (the panels' matrices, the chart): the title, the headings, the keys and the caption
// are wrapped to it, so no sentence sets the size of the picture. The caption goes under the
// drawing (at least k_min_width wide), or in a column on its right where that fits a slide at a
// larger scale.
std::string svg_element(const Figure& figure, bool page_hooks) {
    int natural = k_min_beside;
    for (const FigurePanel& panel : figure.panels) natural = std::max(natural, draw_panel(panel, 0, page_hooks, 0).width);
    if (figure.chart) natural = std::max(natural, draw_chart(*figure.chart, k_margin, 0, colour).width + k_margin);
    if (figure.plot || figure.scatter) {
        const int scatter_x = figure.plot ? draw_plot(*figure.plot, k_margin, 0).width + k_beside_gap : k_margin;
        natural = std::max(natural, figure.scatter ? draw_scatter(*figure.scatter, scatter_x, 0).width + k_margin
                                                   : scatter_x - k_beside_gap + k_margin);
    }

    int width = std::max(natural, k_min_width);
    Drawing drawing = draw_figure(figure, page_hooks, width);
    std::vector<std::string> caption = caption_lines(figure, width - 2 * k_margin);
    int caption_x = k_margin;
    int caption_y = drawing.height;
    int height = drawing.height + static_cast<int>(caption.size()) * k_caption_row + k_margin;
    if (!caption.empty()) {
        const Drawing narrow = draw_figure(figure, page_hooks, natural);
        const int top = k_margin + 8;
        bool beside = false;
        for (const int column : k_caption_columns) {
            std::vector<std::string> lines = caption_lines(figure, column);
            const int h = std::max(narrow.height, top + static_cast<int>(lines.size()) * k_caption_row) + k_margin;
            const int w = natural + column + k_margin;
            if (slide_scale(w, h) > slide_scale(width, height)) {
                caption = std::move(lines);
                caption_x = natural;
                caption_y = top;
                width = w;
                height = h;
                beside = true;
            }
        }
        if (beside) drawing = narrow;
    }
    std::string body = drawing.body + (page_hooks ? "<g class=\"caption\">\n" : "") +
                       text_lines(caption, caption_x, caption_y + 14, k_caption_row) + (page_hooks ? "</g>\n" : "");
    return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{}\" height=\"{}\" "
                       "viewBox=\"0 0 {} {}\" font-family=\"monospace\" font-size=\"{}\">\n"
                       "<title>{}</title>\n{}<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n{}</svg>\n",
                       width, height, width, height, k_svg_font, escape_xml(figure.title), markers(), width, height,
                       body);
}

}  // namespace

int svg_text_width(const std::string& text, int font_size) {
    return static_cast<int>(text.size()) * svg_char_width(font_size);
}

std::vector<std::string> svg_wrap(const std::string& text, int width, int font_size) {
    const std::size_t columns = static_cast<std::size_t>(std::max(1, width / svg_char_width(font_size)));
    const std::string wrapped = wrap_words(text, "", "", columns);
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < wrapped.size();) {
        const std::size_t end = wrapped.find('\n', start);
        lines.push_back(wrapped.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string svg_text(int x, int y, const std::string& content, const char* extra) {
    return fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>\n", x, y, extra, escape_xml(content));
}


std::string render_svg_element(const Figure& figure) { return svg_element(figure, true); }

std::string render_svg(const Figure& figure) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg_element(figure, false);
}

}  // namespace embdemo
