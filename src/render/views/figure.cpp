#include "render/views/figure.hpp"

#include <cstring>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/explain.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "render/kit/token_label.hpp"

namespace embdemo {
namespace {

// Labels for positions in ids: "ids[1, 0]" in a batch, as torch indexes it.
std::string id_position(const IdShape& shape, std::size_t i) { return fmt::format("ids[{}]", torch_index(shape, i)); }

// The ids as a one-column matrix, each row keyed by its id.
FigureMatrix ids_column(const DemoRequest& request, const std::vector<std::size_t>& rows, const IdKeys& keys) {
    FigureMatrix out;
    out.name = "idx";
    out.shape = request.shape.batched ? fmt::format("B x T = {} x {}, flat", request.shape.batch, request.shape.seq)
                                      : "n = " + group_thousands(request.ids.size());
    out.col_labels = {""};
    for (const std::size_t i : rows) {
        FigureRow row;
        row.gap = i == k_gap;
        row.label = row.gap ? "..." : id_position(request.shape, i);
        row.cells = {row.gap ? "" : short_id_label(request.ids[i], request.source)};
        row.marked = {false};
        if (!row.gap) row.key = key_of(keys, request.ids[i]);
        out.rows.push_back(std::move(row));
    }
    return out;
}

// E with the selected rows keyed and noted with the positions that select them.
FigureMatrix weight_matrix(const DemoReport& report, const WeightRows& shown, const Screen& screen,
                           const IdKeys& keys) {
    FigureMatrix e = numeric_matrix(report.weight, shown.rows, screen.cols, screen.format,
                                    [&](std::size_t k, FigureRow& row) {
                                        row.table_row = static_cast<long long>(k);
                                        const auto hit = shown.selected.find(k);
                                        if (hit == shown.selected.end()) return;
                                        row.key = key_of(keys, k);
                                        if (report.request.source.from_text()) {
                                            row.label = short_id_label(k, report.request.source);
                                        }
                                        row.note = "< " + describe_positions(hit->second, report.request.shape);
                                    });
    e.name = "E = embedding.weight";
    return e;
}

// n x d results (the lookup, the product), rows labelled by the row of E they hold.
FigureMatrix result_matrix(const DemoReport& report, const Matrix& m, const std::vector<std::size_t>& rows,
                           const Screen& screen, const IdKeys& keys, const std::string& name) {
    FigureMatrix out = numeric_matrix(m, rows, screen.cols, screen.format, [&](std::size_t i, FigureRow& row) {
        const std::uint64_t id = report.request.ids[i];
        row.label = id_position(report.request.shape, i);
        row.key = key_of(keys, id);
        // A product row is E's row only when it has the lookup's bits; otherwise (nan, -0.0 or inf
        // in E) it is labelled as what it is, the product row.
        const bool same = std::memcmp(m.row(i), report.lookup.row(i), m.cols * sizeof(float)) == 0;
        row.note = same ? fmt::format("E[{}]", id) : fmt::format("X[{}] @ E", torch_index(report.request.shape, i));
    });
    out.name = name;
    out.shape = per_id_shape(report.request.shape, m.rows, m.cols);
    return out;
}

std::vector<std::string> lookup_caption(const DemoReport& report, const WeightRows& shown, const Screen& screen) {
    const DemoRequest& request = report.request;
    std::vector<std::string> caption;
    const std::size_t total = report.lookup.values.size();
    caption.push_back(report.verdict.identical
                          ? (total == 1 ? std::string("The lookup and the one-hot product agree bit for bit in their only value.")
                                        : fmt::format("The lookup and the one-hot product agree bit for bit: {}.",
                                                      all_values(total)))
                          : fmt::format("The lookup and the one-hot product differ in {} of {} values (framed).",
                                        group_thousands(report.verdict.differing), group_thousands(total)));
    if (report.difference) caption.push_back("They differ " + explain_difference(*report.difference, request.shape) + '.');
    std::size_t rows = 0;
    std::size_t cols = 0;
    for (const std::size_t r : shown.rows) rows += r != k_gap;
    for (const std::size_t c : screen.cols) cols += c != k_gap;
    if (rows < request.vocab_size || cols < request.dim) {
        caption.push_back(fmt::format("Summarised as the text view does: {} of {} rows of E and {} of {} columns "
                                      "shown; \"...\" stands for the rest.",
                                      group_thousands(rows), group_thousands(request.vocab_size), group_thousands(cols),
                                      group_thousands(request.dim)));
    }
    if (shown.hidden_selected > 0) {
        caption.push_back(fmt::format("{} more selected rows fall inside the \"...\".", shown.hidden_selected));
    }
    return caption;
}

}  // namespace

Figure lookup_figure(const DemoReport& report, int precision) {
    const DemoRequest& request = report.request;
    const WeightRows shown = weight_rows(report);
    const Screen screen = text_screen(report, precision);
    const auto id_rows = visible_positions(request.ids.size(), should_summarise(request.ids.size(), request.dim));
    Figure figure;
    const IdKeys keys = id_keys(request.ids, request.shape, shown.rows, request.source);
    figure.title = fmt::format("embedding(idx) = one_hot(idx) @ E   (V = {}, d = {}, n = {})",
                               group_thousands(request.vocab_size), group_thousands(request.dim),
                               group_thousands(request.ids.size()));
    figure.keys = keys.names;
    const FigureMatrix e = weight_matrix(report, shown, screen, keys);

    FigurePanel lookup;
    lookup.title = "Lookup: each id picks its row of E";
    lookup.items = {ids_column(request, id_rows, keys), e,
                    result_matrix(report, report.lookup, id_rows, screen, keys, "embedding(idx) = E[idx]")};
    lookup.ops = {"", ""};
    lookup.arrows.resize(2);
    for (std::size_t r = 0; r < id_rows.size(); ++r) {
        if (id_rows[r] == k_gap) continue;
        const std::uint64_t id = request.ids[id_rows[r]];
        const std::size_t row_of_e = figure_row_of(shown.rows, static_cast<std::size_t>(id));
        lookup.arrows[0].push_back({r, row_of_e, key_of(keys, id)});
        lookup.arrows[1].push_back({row_of_e, r, key_of(keys, id)});
    }

    FigurePanel product;
    product.title = "One-hot product: X @ E, where X's column k meets E's row k";
    FigureMatrix x = indicator_matrix(
        id_rows, shown.rows, [&](std::size_t i, std::size_t k) { return request.ids[i] == k; },
        [&](std::size_t i, FigureRow& row) {
            row.label = id_position(request.shape, i);
            row.key = key_of(keys, request.ids[i]);
        });
    x.name = "X = one_hot(idx)";
    x.shape = per_id_shape(request.shape, request.ids.size(), request.vocab_size);
    FigureMatrix result = result_matrix(report, report.onehot_matmul, id_rows, screen, keys, "X @ E");
    mark_differences(result, report.lookup, report.onehot_matmul, id_rows, screen.cols);
    product.items = {x, e, result};
    product.ops = {"x", "="};
    product.arrows.resize(2);
    figure.panels = {lookup, product};
    figure.caption = lookup_caption(report, shown, screen);
    return figure;
}

}  // namespace embdemo
