// max_norm_figure: the one lookup that writes to its table. E as drawn beside E after emb(ids),
// an arrow for each row the call rescaled; the lookup reads E after; the one-hot product, with
// E as drawn, is framed where it no longer agrees.
#include <algorithm>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/views/partways_text.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

std::vector<std::string> max_norm_caption(const MaxNormLesson& lesson) {
    std::size_t rescaled = 0;
    for (const RenormRow& row : lesson.rows) rescaled += row.rescaled;
    const std::size_t total = lesson.lookup.values.size();
    return {renorm_verdict(lesson.rows.size(), rescaled, lesson.request.max_norm),
            agreement_sentence("emb(ids) and one_hot(ids) @ E as drawn", lesson.drawn_check, total),
            agreement_sentence("emb(ids) and one_hot(ids) @ E after the call", lesson.after_check, total)};
}

}  // namespace

Figure max_norm_figure(const MaxNormLesson& lesson, int precision) {
    const IdBatch& ids = lesson.request.ids;
    const Matrix& e = lesson.weight;
    const std::vector<std::size_t> rows = shown_rows(e.rows, e.cols, used_rows(ids.values));
    const std::vector<std::size_t> n_rows = shown_rows(lesson.lookup.rows, e.cols);
    // As the text view: E with its rescaled rows, then the results with the product, two groups.
    const Screen screen = choose_screen({{&e, rows, 0}, {&lesson.weight_after, rows, 0}, {&lesson.lookup, n_rows, 1},
                                         {&lesson.onehot_drawn, n_rows, 1}},
                                        e.cols, precision, block_cells_budget(std::to_string(e.rows - 1).size() + 4, 24));
    const IdKeys keys = id_keys(ids.values, ids.shape(), rows, ids.source);
    const auto selected = [&](std::size_t i) { return static_cast<std::size_t>(ids.values[i]); };
    const auto key = [&](std::size_t i) { return key_of(keys, ids.values[i]); };
    const NumberFormat& e_format = screen.format_of(e);

    const RenormPanel renorm = renorm_panel(lesson.rows, e, lesson.weight_after, rows, screen.cols, e_format, keys);
    const FigureMatrix& drawn = renorm.drawn;
    const FigureMatrix& after = renorm.after;

    const NumberFormat& result_format = screen.format_of(lesson.lookup);
    FigureMatrix looked_up = numeric_matrix(lesson.lookup, n_rows, screen.cols, result_format, per_id_row(ids, keys));
    looked_up.name = "emb(ids) = E_after[ids]";
    FigureMatrix x = onehot_matrix(n_rows, rows, selected, per_id_row(ids, keys));
    x.name = "X = one_hot(ids)";
    x.shape = shape_text(ids.values.size(), e.rows);
    FigureMatrix product = numeric_matrix(lesson.onehot_drawn, n_rows, screen.cols, result_format, per_id_row(ids, keys));
    product.name = "X @ E (as drawn)";
    mark_differences(product, lesson.lookup, lesson.onehot_drawn, n_rows, screen.cols);
    const FigurePanel onehot = joined_panel("The one-hot product reads E as it was drawn", {x, drawn, product}, {"x", "="});

    Figure figure;
    figure.title = fmt::format("Embedding lookup with {}   (V = {}, d = {}, n = {})",
                               max_norm_arguments(lesson.request.max_norm), group_thousands(e.rows),
                               group_thousands(e.cols), group_thousands(ids.values.size()));
    figure.keys = keys.names;
    figure.panels = {renorm.panel,
                     lookup_panel("Then the lookup reads E after the call", id_column(ids, n_rows, keys), after, looked_up,
                                  n_rows, rows, selected, key),
                     onehot};
    figure.caption = max_norm_caption(lesson);
    const std::size_t hidden = hidden_count(rows, used_rows(ids.values));
    if (hidden > 0) figure.caption.push_back(hidden_rows_sentence(hidden, "the rows the ids use"));
    return figure;
}

}  // namespace embdemo
