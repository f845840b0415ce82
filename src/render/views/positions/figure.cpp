// positions_figure: the input of the first block, E[ids] + P[0..T), drawn as two lookups and a
// sum (learned or sinusoidal P), as a lookup and a rotation with the scores that show RoPE
// depends on offsets alone, or as ALiBi's lookup by distance; the data loader's inputs beside
// their targets when it made the ids. The caption is the sheet's.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/kit/table.hpp"
#include "render/kit/token_label.hpp"
#include "render/views/positions/view.hpp"

namespace embdemo {
namespace {

struct PositionsLayout {
    std::vector<std::size_t> e_rows, p_rows, n_rows, t_rows;
    Screen screen;
};

PositionsLayout positions_layout(const PositionsLesson& lesson, int precision) {
    const IdBatch& ids = lesson.request.ids;
    const bool has_table = traits_of(lesson.request.encoding).has_table;
    std::vector<std::size_t> first_t(ids.seq);
    std::iota(first_t.begin(), first_t.end(), std::size_t{0});
    PositionsLayout layout;
    layout.e_rows = shown_rows(lesson.weight.rows, lesson.weight.cols, used_rows(ids.values));
    layout.n_rows = shown_rows(ids.values.size(), lesson.request.dim);
    layout.t_rows = shown_rows(ids.seq, lesson.request.dim);
    std::vector<ScreenBlock> blocks{{&lesson.weight, layout.e_rows}, {&lesson.token_lookup, layout.n_rows},
                                    {&lesson.output, layout.n_rows}};
    if (has_table) {
        layout.p_rows = shown_rows(lesson.position_weight.rows, lesson.position_weight.cols, first_t);
        blocks.push_back({&lesson.position_weight, layout.p_rows});
        blocks.push_back({&lesson.position_lookup, layout.t_rows});
    }
    layout.screen = choose_screen(blocks, lesson.request.dim, precision, block_cells_budget(20, 14));
    return layout;
}

// A B x T batch of ids (the loader's inputs or targets) as a matrix of ids, each naming its token.
FigureMatrix batch_matrix(const std::vector<std::uint64_t>& values, const IdBatch& shape, const std::string& name) {
    const std::vector<std::size_t> cols = visible_positions(shape.seq, shape.seq > k_max_spelled_onehot);
    FigureMatrix out = text_matrix(
        shown_rows(shape.batch, shape.seq), cols,
        [&](std::size_t b, std::size_t t) { return short_id_label(values[b * shape.seq + t], shape.source); },
        [](std::size_t, std::size_t) { return false; }, [](std::size_t b, FigureRow& row) { row.label = fmt::format("[{}]", b); });
    out.name = name;
    out.shape = shape_text(shape.batch, shape.seq);
    return out;
}

FigurePanel rope_scores_panel(const RopeScores& scores, int precision) {
    std::vector<std::size_t> rows(scores.offsets.size());
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    std::vector<std::size_t> cols(scores.starts.size());
    std::iota(cols.begin(), cols.end(), std::size_t{0});
    FigureMatrix m = text_matrix(
        rows, cols, [&](std::size_t k, std::size_t p) { return fmt::format("{:.{}f}", scores.scores[k][p], precision); },
        [](std::size_t, std::size_t) { return false; },
        [&](std::size_t k, FigureRow& row) { row.label = fmt::format("k = {}", scores.offsets[k]); });
    for (std::size_t p = 0; p < cols.size(); ++p) m.col_labels[p] = fmt::format("p = {}", scores.starts[p]);
    m.name = "q . k, rotated to p and p + k";
    m.shape = shape_text(rows.size(), cols.size());
    return joined_panel("What no table can do: along each row only p changes, and the score stays", {m});
}

// ALiBi's bias drawn as the lookup it is: each causal pair (i, j) picks row i - j of D.
FigurePanel alibi_panel(const AlibiBias& alibi, int precision) {
    const std::vector<std::size_t> pair_rows = shown_rows(alibi.bias.rows, alibi.bias.cols);
    std::vector<std::size_t> used;
    for (const std::size_t p : pair_rows) {
        if (p != k_gap) used.push_back(alibi.pair_distance[p]);
    }
    used = used_rows(used);
    const std::vector<std::size_t> d_rows = shown_rows(alibi.distances.rows, alibi.distances.cols, used);
    const Screen screen = choose_screen({{&alibi.distances, d_rows}, {&alibi.bias, pair_rows}}, alibi.distances.cols,
                                        precision, block_cells_budget(16, 0));
    std::vector<std::string> pair_names;
    for (std::size_t i = 0; i < alibi.distances.rows; ++i) {
        for (std::size_t j = 0; j <= i; ++j) pair_names.push_back(fmt::format("i = {}, j = {}", i, j));
    }
    FigureMatrix distance = text_matrix(
        pair_rows, {0}, [&](std::size_t p, std::size_t) { return std::to_string(alibi.pair_distance[p]); },
        [](std::size_t, std::size_t) { return false; }, [&](std::size_t p, FigureRow& row) { row.label = pair_names[p]; });
    distance.name = "k = i - j";
    distance.shape = fmt::format("P = {}", alibi.pair_distance.size());
    distance.col_labels = {""};
    FigureMatrix table = numeric_matrix(alibi.distances, d_rows, screen.cols, screen.format_of(alibi.distances),
                                        [](std::size_t k, FigureRow& row) {
                                            row.table_row = static_cast<long long>(k);
                                            row.label = fmt::format("k = {}", k);
                                        });
    table.name = "D = m_h * (-k), frozen";
    FigureMatrix bias = numeric_matrix(alibi.bias, pair_rows, screen.cols, screen.format_of(alibi.bias),
                                       [&](std::size_t p, FigureRow& row) { row.label = pair_names[p]; });
    bias.name = "bias = D[i - j]";
    return lookup_panel("ALiBi's bias: each query i and key j <= i look up row i - j of D (no parameter, no gradient)",
                        distance, table, bias, pair_rows, d_rows,
                        [&](std::size_t p) { return static_cast<std::size_t>(alibi.pair_distance[p]); },
                        [](std::size_t) { return k_no_key; });
}

}  // namespace

Figure positions_figure(const PositionsLesson& lesson, int precision) {
    const PositionsRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const PositionEncodingTraits& traits = traits_of(request.encoding);
    const bool rope = traits.turns_rows;
    const PositionsLayout layout = positions_layout(lesson, precision);
    const Screen& screen = layout.screen;
    const IdKeys keys = id_keys(ids.values, ids.shape(), layout.e_rows, ids.source);
    const auto at = [&](const Matrix& m, const std::vector<std::size_t>& rows, const RowDecoration& decorate,
                        const std::string& name) {
        FigureMatrix out = numeric_matrix(m, rows, screen.cols, screen.format_of(m), decorate);
        out.name = name;
        return out;
    };
    const FigureMatrix e = at(lesson.weight, layout.e_rows, table_row(keys), "E = token table");
    const FigureMatrix tok = at(lesson.token_lookup, layout.n_rows, per_id_row(ids, keys), "tok = E[ids]");
    FigureMatrix output = at(lesson.output, layout.n_rows, [&](std::size_t i, FigureRow& row) {
        per_id_row(ids, keys)(i, row);
        row.note = rope ? fmt::format("t = {}", position_of(ids, i))
                        : fmt::format("E[{}] + P[{}]", ids.values[i], position_of(ids, i));
    }, rope ? "RoPE(tok, t)" : "tok + pos");
    mark_differences(output, lesson.output, lesson.onehot_output, layout.n_rows, screen.cols);

    Figure figure;
    figure.title = fmt::format("{}   (V = {}, d = {}, C = {}, {})",
                               rope                   ? "RoPE(E[ids], t): a lookup, then a rotation"
                               : traits.biases_scores ? "E[ids], and ALiBi's bias by distance on the scores"
                                                      : "E[ids] + P[0..T): two lookups, added",
                               group_thousands(request.vocab_size), group_thousands(request.dim),
                               group_thousands(request.context),
                               ids.batched ? fmt::format("B x T = {} x {}", ids.batch, ids.seq) : fmt::format("T = {}", ids.seq));
    figure.keys = keys.names;
    const auto selected = [&](std::size_t i) { return static_cast<std::size_t>(ids.values[i]); };
    figure.panels.push_back(lookup_panel("tok = E[ids]: each id picks its row of the token table",
                                         id_column(ids, layout.n_rows, keys), e, tok, layout.n_rows, layout.e_rows,
                                         selected, [&](std::size_t i) { return key_of(keys, ids.values[i]); }));
    if (rope) {
        FigurePanel turn;
        turn.title = "Each row turned by its position t: column pairs rotated by t * 10000^(-2j/d); no table, no P";
        turn.items = {tok, output};
        turn.ops = {""};
        turn.arrows.resize(1);
        for (std::size_t r = 0; r < layout.n_rows.size(); ++r) {
            if (layout.n_rows[r] != k_gap) turn.arrows[0].push_back({r, r, key_of(keys, ids.values[layout.n_rows[r]])});
        }
        figure.panels.push_back(turn);
        if (lesson.rope_scores) figure.panels.push_back(rope_scores_panel(*lesson.rope_scores, precision));
    } else if (traits.biases_scores) {
        figure.panels.push_back(alibi_panel(*lesson.alibi, precision));
    } else {
        const IdKeys no_keys;
        FigureMatrix t_column = text_matrix(
            layout.t_rows, {0}, [](std::size_t t, std::size_t) { return std::to_string(t); },
            [](std::size_t, std::size_t) { return false; }, [](std::size_t t, FigureRow& row) { row.label = fmt::format("t = {}", t); });
        t_column.name = "arange(T)";
        t_column.shape = fmt::format("T = {}", ids.seq);
        t_column.col_labels = {""};
        const char* table = traits.drawn ? "P = position table (drawn after E)" : "P = sinusoidal table (computed)";
        figure.panels.push_back(lookup_panel(
            "pos = P[arange(T)]: position t picks row t", t_column, at(lesson.position_weight, layout.p_rows, table_row(no_keys), table),
            at(lesson.position_lookup, layout.t_rows, [](std::size_t t, FigureRow& row) { row.label = fmt::format("t = {}", t); },
               "pos"),
            layout.t_rows, layout.p_rows, [](std::size_t t) { return t; }, [](std::size_t) { return k_no_key; }));
        FigureMatrix pos_per_row = value_matrix(
            layout.n_rows, screen.cols, [&](std::size_t i, std::size_t c) { return lesson.position_lookup.at(position_of(ids, i), c); },
            screen.format_of(lesson.position_lookup), [&](std::size_t i, FigureRow& row) { row.label = fmt::format("P[{}]", position_of(ids, i)); });
        pos_per_row.name = ids.batched ? "pos, the same for every b" : "pos";
        pos_per_row.shape = per_id_shape(ids.shape(), ids.values.size(), request.dim);
        figure.panels.push_back(
            joined_panel("The input of the first block: tok + pos, row by row", {tok, pos_per_row, output}, {"+", "="}));
    }
    if (request.ids.source.loader.used()) {
        figure.panels.push_back(joined_panel("The data loader's first batch: inputs, and targets shifted by one token",
                                             {batch_matrix(ids.values, ids, "inputs"), batch_matrix(request.ids.source.loader.targets, ids, "targets")},
                                             {"->"}));
    }
    return figure;
}

}  // namespace embdemo
