// A figure of a run as plain data: panels of matrices joined by operators ("x", "=") or by
// arrows (a lookup: id -> row of E -> row of the result), every cell already spelled as the
// text view spells it, large matrices summarised by the text view's own row and column choice.
// render/formats/svg draws a Figure; render/formats/html embeds that drawing. Nothing here knows SVG.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace embdemo {

inline constexpr int k_no_key = -1;

// One visible row of a matrix in the figure; `gap` rows stand for elided runs ("...").
struct FigureRow {
    bool gap = false;
    std::string label;               // "2", "ids[0]", "E[2]"
    std::vector<std::string> cells;  // one per visible column, "..." in a column gap
    std::vector<bool> marked;        // cells that carry the meaning (the 1s of a one-hot row)
    int key = k_no_key;              // the id group this row belongs to (colour and mark)
    std::string note;                // written right of the row: "< ids[0], ids[2]"
    long long table_row = -1;        // the row of E (or dE) this is, for the HTML highlight
};

struct FigureMatrix {
    std::string name;   // "E", "X = one_hot(idx)"
    std::string shape;  // "4 x 5"
    std::vector<std::string> col_labels;  // "" for a column gap
    std::vector<FigureRow> rows;
};

// An arrow between rows (indexes into FigureMatrix::rows) of two neighbouring matrices.
struct FigureArrow {
    std::size_t from = 0;
    std::size_t to = 0;
    int key = k_no_key;
};

// Matrices left to right; between item i and i+1 either an operator or arrows.
struct FigurePanel {
    std::string title;
    std::vector<FigureMatrix> items;
    std::vector<std::string> ops;                  // items.size() - 1 entries; "" where arrows go
    std::vector<std::vector<FigureArrow>> arrows;  // per gap, used where ops is ""
};

// A quantity with no matrix to show, such as a count of operations: one labelled bar.
struct FigureBar {
    std::string label;       // "forward: dense X @ E"
    double value = 0.0;      // > 0 to be drawn; a 0 gets its label and no bar
    std::string value_text;  // "52.7 G", as the text view spells it
    int key = k_no_key;
};

// Horizontal bars for counts that differ by orders of magnitude: drawn on a log axis, where every
// bar is visible, and on a linear one, where their lengths are in the counts' ratio.
struct FigureChart {
    std::string title;
    std::string unit;  // what the axis counts: "operations"
    std::vector<FigureBar> bars;
};

// A value against a count (the loss per step): a line through the points on axes that say what
// they count, the first and last values written by their points.
struct FigurePlotPoint {
    double x = 0.0;
    double y = 0.0;
};

struct FigurePlot {
    std::string title;
    std::string x_label;  // "steps taken"
    std::string y_label;  // "loss"
    int precision = 4;    // decimals of the values and the value axis's ticks
    std::vector<FigurePlotPoint> points;  // x ascending, y finite, at least one
};

// Points in a plane, each labelled (a table's rows on its top two principal components), in
// frames side by side that share no scale: each frame fits its own points.
struct FigureScatterFrame {
    std::string title;  // "before training: 81.2% of the variance"
    std::vector<FigurePlotPoint> points;
    std::vector<std::string> labels;  // one per point
};

struct FigureScatter {
    std::string title;
    std::string x_label;  // "PC1"
    std::string y_label;  // "PC2"
    std::vector<FigureScatterFrame> frames;
};

struct Figure {
    std::string title;
    std::vector<std::string> keys;      // keys[k]: what key k means ("id 2 (ids[0])")
    std::vector<FigurePanel> panels;    // stacked top to bottom
    std::optional<FigureChart> chart;   // under the panels
    std::optional<FigurePlot> plot;     // under the chart
    std::optional<FigureScatter> scatter;  // under the plot
    std::vector<std::string> caption;   // sentences under the panels, from the run's numbers
};

}  // namespace embdemo
