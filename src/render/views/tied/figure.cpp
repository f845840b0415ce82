// tied_figure: the output layer as a product with the input table, H @ E.T = logits. E.T's
// columns are the logits' shown columns (token ids) and its rows H's shown columns, so every
// product's inner dimension lines up; each row's top-k logits are framed.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/kit/table.hpp"
#include "render/kit/token_label.hpp"
#include "render/views/tied/view.hpp"

namespace embdemo {
namespace {

// The rows of the n x V logits the figure shows (PyTorch's summary, k_gap between runs), and
// where each sits in the rows the lesson kept (all, or a chapter's first and last few).
struct ShownLogits {
    std::vector<std::size_t> rows;       // logits rows, k_gap allowed
    std::vector<std::size_t> in_values;  // the same rows as rows of `values` (k_gap kept)
    const Matrix* values = nullptr;      // the lesson's kept rows, V columns

    float at(std::size_t row, std::size_t col) const {
        const auto found = std::find(rows.begin(), rows.end(), row);
        return values->at(in_values[static_cast<std::size_t>(found - rows.begin())], col);
    }
};

// The lesson keeps the logits' first and last k_logit_edge_rows rows for the summary PyTorch
// prints, which keeps k_edge_items rows at each edge.
static_assert(k_logit_edge_rows == k_edge_items, "the kept rows are the rows a summary shows");

ShownLogits shown_logits(const TiedLesson& lesson) {
    const HeldLogits& held = lesson.logits;
    ShownLogits shown;
    shown.rows = shown_rows(held.rows, held.values.cols);
    shown.values = &held.values;
    for (const std::size_t i : shown.rows) {
        const std::size_t kept = i == k_gap ? k_gap : held.index_of(i);
        if (kept == held.held.size()) throw std::logic_error("tied: a shown row of the logits was not kept");
        shown.in_values.push_back(kept);
    }
    return shown;
}

bool in_top(const TopRow& top, std::size_t id) {
    return std::any_of(top.begin(), top.end(), [id](const TopLogit& t) { return t.id == id; });
}

// "top 2: 3 (1.52), 0 (0.98)", each logit as the logits are spelled; with --text each id also
// names its token ("top 2: 7120 "Your" (1.52), ...").
std::string top_note(const TopRow& top, const NumberFormat& format, const IdSource& source) {
    std::string text = fmt::format("top {}:", top.size());
    for (const TopLogit& t : top) {
        text += fmt::format("{} {} ({})", &t == top.begin() ? "" : ",", short_id_label(t.id, source),
                            format_plain(t.logit, format));
    }
    return text;
}

std::vector<std::string> tied_caption(const TiedLesson& lesson, const std::vector<std::size_t>& rows,
                                      const std::vector<std::size_t>& cols) {
    std::vector<std::string> caption;
    std::size_t tops = 0;
    std::size_t hidden = 0;
    for (const std::size_t i : rows) {
        if (i == k_gap) continue;
        for (const TopLogit& t : lesson.top[i]) {
            ++tops;
            hidden += std::find(cols.begin(), cols.end(), t.id) == cols.end();
        }
    }
    caption.push_back(hidden == 0 ? fmt::format("Framed: each shown row's top {} (listed right of it).",
                                                count_of(lesson.request.top, "logit", "logits"))
                                  : fmt::format("Framed: each shown row's top {}; {} of those {} fall inside the "
                                                "\"...\" (listed right of each row).",
                                                count_of(lesson.request.top, "logit", "logits"), group_thousands(hidden),
                                                group_thousands(tops)));
    return caption;
}

}  // namespace

Figure tied_figure(const TiedLesson& lesson, int precision) {
    const TiedRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const Matrix& e = lesson.weight;
    // H's rows are the logits' rows: the n x V logits are summarised first.
    const ShownLogits shown = shown_logits(lesson);
    const std::vector<std::size_t>& logit_rows = shown.rows;
    const std::vector<std::size_t>& h_rows = logit_rows;
    // Each shown row's top logit stays in view, so the frame has a cell to go round.
    std::vector<std::size_t> best;
    for (const std::size_t i : logit_rows) {
        if (i != k_gap && !lesson.top[i].empty()) best.push_back(lesson.top[i].front().id);
    }
    best = used_rows(best);
    std::size_t label = 0;
    for (const std::size_t i : logit_rows) {
        if (i != k_gap) label = std::max(label, fmt::format("{}  id {}", flat_position_label(ids, i), ids.values[i]).size());
    }
    const Screen logit_screen = choose_screen({{shown.values, shown.in_values}}, shown.values->cols, precision,
                                              block_cells_budget(label, 0), best);
    // E's rows shown as E.T's columns: the logits' columns.
    const Screen screen = choose_screen({{&e, logit_screen.cols, 0}, {&lesson.hidden, h_rows, 1}}, e.cols, precision,
                                        block_cells_budget(label, 0));
    const IdKeys keys = id_keys(ids.values, ids.shape(), logit_screen.cols, ids.source);

    FigureMatrix h = numeric_matrix(lesson.hidden, h_rows, screen.cols, screen.format_of(lesson.hidden), per_id_row(ids, keys));
    h.name = request.hidden_given ? "H (from --hidden)" : "H = E[ids]";
    const NumberFormat& e_format = screen.format_of(e);
    FigureMatrix et = value_matrix(
        screen.cols, logit_screen.cols, [&](std::size_t j, std::size_t k) { return e.at(k, j); }, e_format,
        [](std::size_t, FigureRow&) {});
    et.name = "E.T = out_head.weight.T";
    et.shape = shape_text(e.cols, e.rows);
    const NumberFormat& logit_format = logit_screen.format_of(*shown.values);
    FigureMatrix logits = value_matrix(
        logit_rows, logit_screen.cols, [&](std::size_t i, std::size_t k) { return shown.at(i, k); }, logit_format,
        [&](std::size_t i, FigureRow& row) {
            per_id_row(ids, keys)(i, row);
            row.note = top_note(lesson.top[i], logit_format, ids.source);
        });
    logits.shape = shape_text(lesson.logits.rows, shown.values->cols);
    for (std::size_t r = 0; r < logit_rows.size(); ++r) {
        if (logit_rows[r] == k_gap) continue;
        for (std::size_t c = 0; c < logit_screen.cols.size(); ++c) {
            const std::size_t k = logit_screen.cols[c];
            logits.rows[r].marked[c] = k != k_gap && in_top(lesson.top[logit_rows[r]], k);
        }
    }
    logits.name = "logits = H @ E.T";

    Figure figure;
    figure.title = fmt::format("Tied output layer: logits = H @ E.T   (V = {}, d = {}, n = {}, top {})",
                               group_thousands(request.vocab_size), group_thousands(request.dim),
                               group_thousands(ids.values.size()), request.top);
    figure.keys = keys.names;
    figure.panels = {joined_panel("out_head(H) = H @ E.T: column k of the logits is H's dot product with E[k]",
                                  {h, et, logits}, {"x", "="})};
    figure.caption = tied_caption(lesson, logit_rows, logit_screen.cols);
    return figure;
}

}  // namespace embdemo
