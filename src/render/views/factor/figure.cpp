// factor_figure: ALBERT's two factors drawn as the two routes the lesson compares, the lookup in
// E1 followed by @ E2, and the one-hot product through both factors. E2's rows are E1's shown
// columns, so each product's inner dimension lines up on the page. The caption is the sheet's.
#include <algorithm>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/kit/table.hpp"
#include "render/views/factor/view.hpp"

namespace embdemo {
namespace {

// The text view's cell budget for rows labelled "ids[i]  id k  <route>".
std::size_t pair_budget(const IdBatch& ids, const std::vector<std::size_t>& shown, const std::string& route) {
    std::size_t width = 0;
    for (const std::size_t i : shown) {
        if (i != k_gap) width = std::max(width, fmt::format("{}  id {}", flat_position_label(ids, i), ids.values[i]).size());
    }
    return block_cells_budget(width + 2 + route.size(), 0);
}

}  // namespace

Figure factor_figure(const FactorLesson& lesson, int precision) {
    const FactorRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::vector<std::size_t> e1_rows = shown_rows(lesson.e1.rows, lesson.e1.cols, used_rows(ids.values));
    const std::vector<std::size_t> n_rows = shown_rows(lesson.output.rows, std::max(request.rank, request.dim));
    const Screen narrow = choose_screen({{&lesson.e1, e1_rows}, {&lesson.lookup_e1, n_rows}}, request.rank, precision,
                                        pair_budget(ids, n_rows, "one_hot @ E1"));
    // E2's rows meet E1's columns: the same ones.
    const Screen wide = choose_screen({{&lesson.e2, narrow.cols}, {&lesson.output, n_rows}}, request.dim, precision,
                                      pair_budget(ids, n_rows, "(one_hot @ E1) @ E2"));
    const IdKeys keys = id_keys(ids.values, ids.shape(), e1_rows, ids.source);
    const auto selected = [&](std::size_t i) { return static_cast<std::size_t>(ids.values[i]); };
    const auto key = [&](std::size_t i) { return key_of(keys, ids.values[i]); };

    FigureMatrix e1 = numeric_matrix(lesson.e1, e1_rows, narrow.cols, narrow.format_of(lesson.e1), table_row(keys));
    e1.name = "E1 = e1.weight";
    FigureMatrix e2 = numeric_matrix(lesson.e2, narrow.cols, wide.cols, wide.format_of(lesson.e2), [](std::size_t, FigureRow&) {});
    e2.name = "E2 = proj.weight.T";
    FigureMatrix looked_up =
        numeric_matrix(lesson.lookup_e1, n_rows, narrow.cols, narrow.format_of(lesson.lookup_e1), per_id_row(ids, keys));
    looked_up.name = "E1[ids]";
    FigureMatrix output = numeric_matrix(lesson.output, n_rows, wide.cols, wide.format_of(lesson.output), per_id_row(ids, keys));
    output.name = "proj(e1(ids))";
    FigureMatrix x = onehot_matrix(n_rows, e1_rows, selected, per_id_row(ids, keys));
    x.name = "X = one_hot(ids)";
    x.shape = shape_text(ids.values.size(), request.vocab_size);
    FigureMatrix onehot =
        numeric_matrix(lesson.onehot_output, n_rows, wide.cols, wide.format_of(lesson.output), per_id_row(ids, keys));
    onehot.name = "(X @ E1) @ E2";
    mark_differences(onehot, lesson.output, lesson.onehot_output, n_rows, wide.cols);

    Figure figure;
    figure.title = fmt::format("Factorised embedding: E1[ids] @ E2   (V = {}, r = {}, d = {}, n = {})",
                               group_thousands(request.vocab_size), group_thousands(request.rank),
                               group_thousands(request.dim), group_thousands(ids.values.size()));
    figure.keys = keys.names;
    const FigurePanel product = joined_panel("Then the projection: E1[ids] @ E2, where E1[ids]'s column j meets E2's row j",
                                             {looked_up, e2, output}, {"x", "="});
    const FigurePanel route = joined_panel("The one-hot route: (one_hot(ids) @ E1) @ E2", {x, e1, e2, onehot}, {"x", "x", "="});
    figure.panels = {lookup_panel("The lookup in E1: each id picks its row of the narrow table", id_column(ids, n_rows, keys),
                                  e1, looked_up, n_rows, e1_rows, selected, key),
                     product, route};
    return figure;
}

}  // namespace embdemo
