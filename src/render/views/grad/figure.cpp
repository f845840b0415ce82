// grad_figure: the backward pass drawn like the lookup, from the grad text view's own summary.
// With max_norm, E as drawn and after the forward's in-place renorm come first: the backward
// never reads E, so dE below is what it is without max_norm.
#include <algorithm>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/views/figure.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/views/grad/text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/views/partways_text.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "render/kit/token_label.hpp"
#include "render/views/grad/view.hpp"

namespace embdemo {
namespace {

std::string g_position(const IdBatch& ids, std::size_t i) {
    return position_label(ids, i);
}

// dE (either way), its used rows keyed, the padding row noted.
FigureMatrix grad_matrix(const GradLesson& lesson, const Matrix& m, const GradLayout& layout, const IdKeys& keys,
                         const std::string& name) {
    FigureMatrix out = numeric_matrix(m, layout.rows, layout.screen.cols, layout.screen.format,
                                      [&](std::size_t k, FigureRow& row) {
                                          table_row(keys)(k, row);
                                          if (lesson.options.padding_row == k) row.note = "padding_idx";
                                      });
    out.name = name;
    return out;
}

std::vector<std::string> grad_caption(const GradLesson& lesson) {
    const GradComparison& comparison = lesson.comparison;
    const std::size_t total = lesson.grad_lookup.values.size();
    std::vector<std::string> caption{rows_with_gradient_sentence(lesson.claims)};
    caption.push_back(comparison.whole.identical
                          ? (total == 1 ? std::string("Both ways give the same value, bit for bit.")
                                        : fmt::format("Both ways give the same {} values, bit for bit.",
                                                      group_thousands(total)))
                          : fmt::format("The two ways differ in {} of {} values (framed in X.T @ G).",
                                        group_thousands(comparison.whole.differing), group_thousands(total)));
    if (lesson.request.max_norm) {
        const auto rescaled = std::count_if(lesson.renorm.begin(), lesson.renorm.end(),
                                            [](const RenormRow& row) { return row.rescaled; });
        caption.push_back(renorm_verdict(lesson.renorm.size(), static_cast<std::size_t>(rescaled),
                                         *lesson.request.max_norm));
        caption.push_back("dE is what it is without max_norm: the backward adds rows of G and never reads E, and the "
                          "renorm runs under no_grad.");
    }
    return caption;
}

// E as drawn and, where the forward rescaled a row, E after it; the rows as the text view shows E's.
FigurePanel renorm_grad_panel(const GradLesson& lesson, const GradLayout& layout, const IdKeys& keys, int precision) {
    const Matrix& e = lesson.weight;
    const Screen screen = choose_screen({{&e, layout.rows, 0}, {&lesson.weight_after, layout.rows, 0}}, e.cols, precision,
                                        block_cells_budget(std::to_string(e.rows - 1).size() + 4, 24));
    RenormPanel renorm =
        renorm_panel(lesson.renorm, e, lesson.weight_after, layout.rows, screen.cols, screen.format_of(e), keys);
    const bool any = std::any_of(lesson.renorm.begin(), lesson.renorm.end(),
                                 [](const RenormRow& row) { return row.rescaled; });
    if (any) return renorm.panel;
    renorm.drawn.name = "E";
    return joined_panel("emb(ids) rescales no row: every looked-up row's norm is at most max_norm", {renorm.drawn});
}

}  // namespace

Figure grad_figure(const GradLesson& lesson, int precision) {
    const GradRequest& request = lesson.request;
    const TokenIds& ids = request.ids.values;
    const GradLayout layout = grad_layout(lesson, precision);
    const IdKeys keys = id_keys(ids, request.ids.shape(), layout.rows, request.ids.source);
    Figure figure;
    // The title equates the two only when every value of dE agrees bit for bit.
    const char* equation = lesson.comparison.whole.identical ? "dE = one_hot(idx).T @ G"
                                                             : "dE vs one_hot(idx).T @ G: they differ";
    figure.title = fmt::format("{}   (V = {}, d = {}, n = {}{})", equation, group_thousands(request.vocab_size),
                               group_thousands(request.dim), group_thousands(ids.size()),
                               request.max_norm ? ", " + max_norm_arguments(*request.max_norm) : "");
    figure.keys = keys.names;
    const auto decorate_g = [&](std::size_t i, FigureRow& row) {
        row.label = g_position(request.ids, i);
        row.key = key_of(keys, ids[i]);
        row.note = "id " + short_id_label(ids[i], request.ids.source);
    };
    FigureMatrix g = numeric_matrix(lesson.upstream, layout.g_rows, layout.screen.cols, layout.screen.format, decorate_g);
    g.name = "G = dL/d(lookup)";
    g.shape = per_id_shape(request.ids.shape(), lesson.upstream.rows, lesson.upstream.cols);  // B x T x d for a batch

    FigurePanel scatter;
    scatter.title = lesson.options.padding_row ? "Embedding backward: G[t] is added into dE[ids[t]], except padding_idx"
                                               : "Embedding backward: G[t] is added into dE[ids[t]]";
    scatter.items = {g, grad_matrix(lesson, lesson.grad_lookup, layout, keys, "dE = embedding.weight.grad")};
    scatter.ops = {""};
    scatter.arrows.resize(1);
    for (std::size_t r = 0; r < layout.g_rows.size(); ++r) {
        if (layout.g_rows[r] == k_gap) continue;
        const std::uint64_t id = ids[layout.g_rows[r]];
        if (lesson.options.padding_row == id) continue;  // the embedding adds nothing into padding_idx
        scatter.arrows[0].push_back({r, figure_row_of(layout.rows, static_cast<std::size_t>(id)), key_of(keys, id)});
    }

    FigurePanel product;
    product.title = "Linear backward: X.T @ G, where X.T's column t meets G[t]";
    FigureMatrix xt = indicator_matrix(
        layout.rows, layout.g_rows, [&](std::size_t k, std::size_t i) { return ids[i] == k; },
        [&](std::size_t k, FigureRow& row) { row.key = key_of(keys, k); });
    // X.T's columns are G's rows: label them as G's rows are labelled.
    for (std::size_t c = 0; c < layout.g_rows.size(); ++c) {
        if (layout.g_rows[c] != k_gap) xt.col_labels[c] = position_index(request.ids, layout.g_rows[c]);
    }
    xt.name = "X.T = one_hot(idx).T";
    xt.shape = shape_text(request.vocab_size, ids.size());
    FigureMatrix onehot = grad_matrix(lesson, lesson.grad_onehot, layout, keys, "X.T @ G");
    mark_differences(onehot, lesson.grad_lookup, lesson.grad_onehot, layout.rows, layout.screen.cols);
    product.items = {xt, g, onehot};
    product.ops = {"x", "="};
    product.arrows.resize(2);
    figure.panels = {scatter, product};
    if (request.max_norm) figure.panels.insert(figure.panels.begin(), renorm_grad_panel(lesson, layout, keys, precision));
    figure.caption = grad_caption(lesson);
    std::vector<std::size_t> used_rows;
    for (const GradRow& row : lesson.comparison.rows) used_rows.push_back(row.row);
    const std::size_t hidden = hidden_count(layout.rows, used_rows);
    if (hidden > 0) figure.caption.push_back(hidden_rows_sentence(hidden, "the rows the ids use"));
    return figure;
}

}  // namespace embdemo
