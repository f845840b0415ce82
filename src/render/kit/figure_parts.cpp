#include "render/kit/figure_parts.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "render/kit/token_label.hpp"

namespace embdemo {
namespace {

// format_number pads to the matrix's width; a figure cell centres its own text.
std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(' ');
    return first == std::string::npos ? text : text.substr(first);
}

FigureRow gap_row(std::size_t cols) {
    FigureRow row;
    row.gap = true;
    row.label = "...";
    row.cells.assign(cols, "");
    row.marked.assign(cols, false);
    return row;
}

}  // namespace

IdKeys id_keys(const TokenIds& ids, const IdShape& shape, const std::vector<std::size_t>& rows_in_view,
              const IdSource& source) {
    std::map<std::uint64_t, std::vector<std::size_t>> positions;
    std::vector<std::uint64_t> order;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (positions[ids[i]].empty()) order.push_back(ids[i]);
        positions[ids[i]].push_back(i);
    }
    IdKeys keys;
    keys.source = source;
    for (const std::uint64_t id : order) {
        if (std::find(rows_in_view.begin(), rows_in_view.end(), id) == rows_in_view.end()) continue;
        keys.of_id[id] = static_cast<int>(keys.names.size());
        keys.names.push_back(fmt::format("id {}: {}", short_id_label(id, source), describe_positions(positions[id], shape)));
    }
    return keys;
}

int key_of(const IdKeys& keys, std::uint64_t id) {
    const auto hit = keys.of_id.find(id);
    return hit == keys.of_id.end() ? k_no_key : hit->second;
}

namespace {

// The one loop behind both kinds of matrix: `cell` spells (r, c) and says whether it is marked.
FigureMatrix figure_grid(const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                         const std::function<std::pair<std::string, bool>(std::size_t, std::size_t)>& cell,
                         const std::function<void(std::size_t, FigureRow&)>& decorate) {
    FigureMatrix out;
    out.col_labels = position_labels(cols);
    for (const std::size_t r : rows) {
        if (r == k_gap) {
            out.rows.push_back(gap_row(cols.size()));
            continue;
        }
        FigureRow row;
        for (const std::size_t c : cols) {
            auto [text, marked] = c == k_gap ? std::pair<std::string, bool>{"...", false} : cell(r, c);
            row.cells.push_back(std::move(text));
            row.marked.push_back(marked);
        }
        row.label = std::to_string(r);
        decorate(r, row);
        out.rows.push_back(std::move(row));
    }
    return out;
}

}  // namespace

FigureMatrix numeric_matrix(const Matrix& m, const std::vector<std::size_t>& rows,
                            const std::vector<std::size_t>& cols, const NumberFormat& format,
                            const std::function<void(std::size_t, FigureRow&)>& decorate) {
    FigureMatrix out = value_matrix(
        rows, cols, [&](std::size_t r, std::size_t c) { return m.at(r, c); }, format, decorate);
    out.shape = shape_text(m.rows, m.cols);
    return out;
}

FigureMatrix value_matrix(const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                          const std::function<float(std::size_t, std::size_t)>& value, const NumberFormat& format,
                          const std::function<void(std::size_t, FigureRow&)>& decorate) {
    return figure_grid(
        rows, cols,
        [&](std::size_t r, std::size_t c) { return std::pair{trimmed(format_number(value(r, c), format)), false}; },
        decorate);
}

FigureMatrix text_matrix(const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                         const std::function<std::string(std::size_t, std::size_t)>& cell,
                         const std::function<bool(std::size_t, std::size_t)>& mark,
                         const std::function<void(std::size_t, FigureRow&)>& decorate) {
    return figure_grid(
        rows, cols, [&](std::size_t r, std::size_t c) { return std::pair{cell(r, c), mark(r, c)}; }, decorate);
}

FigureMatrix id_column(const IdBatch& ids, const std::vector<std::size_t>& positions, const IdKeys& keys) {
    FigureMatrix out = text_matrix(
        positions, {0}, [&](std::size_t i, std::size_t) { return short_id_label(ids.values[i], ids.source); },
        [](std::size_t, std::size_t) { return false; },
        per_id_row(ids, keys));
    out.name = "ids";
    out.shape = ids.batched ? fmt::format("B x T = {} x {}, flat", ids.batch, ids.seq)
                            : "n = " + group_thousands(ids.values.size());
    out.col_labels = {""};
    return out;
}

RowDecoration per_id_row(const IdBatch& ids, const IdKeys& keys) {
    return [&ids, &keys](std::size_t i, FigureRow& row) {
        row.label = fmt::format("ids[{}]", torch_index(ids.shape(), i));
        row.key = key_of(keys, ids.values[i]);
    };
}

RowDecoration table_row(const IdKeys& keys) {
    return [&keys](std::size_t k, FigureRow& row) {
        row.table_row = static_cast<long long>(k);
        row.key = key_of(keys, k);
        if (row.key != k_no_key && keys.source.from_text()) row.label = short_id_label(k, keys.source);
    };
}

std::vector<std::size_t> used_rows(const TokenIds& ids) {
    std::vector<std::size_t> rows(ids.begin(), ids.end());
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

FigurePanel lookup_panel(std::string title, FigureMatrix selector, FigureMatrix table, FigureMatrix result,
                         const std::vector<std::size_t>& positions, const std::vector<std::size_t>& table_rows,
                         const std::function<std::size_t(std::size_t)>& selected,
                         const std::function<int(std::size_t)>& key) {
    FigurePanel panel;
    panel.title = std::move(title);
    panel.items = {std::move(selector), std::move(table), std::move(result)};
    panel.ops = {"", ""};
    panel.arrows.resize(2);
    for (std::size_t r = 0; r < positions.size(); ++r) {
        if (positions[r] == k_gap) continue;
        const std::size_t row_of_table = figure_row_of(table_rows, selected(positions[r]));
        panel.arrows[0].push_back({r, row_of_table, key(positions[r])});
        panel.arrows[1].push_back({row_of_table, r, key(positions[r])});
    }
    return panel;
}

FigurePanel joined_panel(std::string title, std::vector<FigureMatrix> items, std::vector<std::string> ops) {
    FigurePanel panel;
    panel.title = std::move(title);
    panel.items = std::move(items);
    panel.arrows.resize(ops.size());
    panel.ops = std::move(ops);
    return panel;
}

FigureMatrix onehot_matrix(const std::vector<std::size_t>& positions, const std::vector<std::size_t>& table_rows,
                           const std::function<std::size_t(std::size_t)>& selected,
                           const std::function<void(std::size_t, FigureRow&)>& decorate) {
    return indicator_matrix(
        positions, table_rows, [&](std::size_t i, std::size_t k) { return selected(i) == k; }, decorate);
}

std::string agreement_sentence(const std::string& forms, const Comparison& check, std::size_t total) {
    if (check.identical) {
        return total == 1 ? forms + " agree bit for bit in their only value."
                          : fmt::format("{} agree bit for bit: {}.", forms, all_values(total));
    }
    return fmt::format("{} differ in {} of {} values (framed).", forms, group_thousands(check.differing),
                       group_thousands(total));
}

FigureMatrix indicator_matrix(const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                              const std::function<bool(std::size_t, std::size_t)>& one,
                              const std::function<void(std::size_t, FigureRow&)>& decorate) {
    return figure_grid(
        rows, cols,
        [&](std::size_t r, std::size_t c) { return std::pair{std::string(one(r, c) ? "1" : "0"), one(r, c)}; },
        decorate);
}

void mark_differences(FigureMatrix& shown, const Matrix& a, const Matrix& b, const std::vector<std::size_t>& rows,
                      const std::vector<std::size_t>& cols) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r] == k_gap) continue;
        for (std::size_t c = 0; c < cols.size(); ++c) {
            if (cols[c] == k_gap) continue;
            const float x = a.at(rows[r], cols[c]);
            const float y = b.at(rows[r], cols[c]);
            shown.rows[r].marked[c] = std::memcmp(&x, &y, sizeof x) != 0;
        }
    }
}

std::vector<std::string> position_labels(const std::vector<std::size_t>& positions) {
    std::vector<std::string> labels;
    for (const std::size_t p : positions) labels.push_back(p == k_gap ? "" : std::to_string(p));
    return labels;
}

std::size_t figure_row_of(const std::vector<std::size_t>& rows, std::size_t row) {
    std::size_t last_gap = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i] == row) return i;
        if (rows[i] == k_gap && (i == 0 || rows[i - 1] < row)) last_gap = i;
    }
    return last_gap;
}

std::string shape_text(std::size_t rows, std::size_t cols) {
    return fmt::format("{} x {}", group_thousands(rows), group_thousands(cols));
}

namespace {

const RenormRow* seen_row(const std::vector<RenormRow>& seen, std::size_t k) {
    const auto hit = std::find_if(seen.begin(), seen.end(), [k](const RenormRow& r) { return r.row == k; });
    return hit == seen.end() ? nullptr : &*hit;
}

}  // namespace

RenormPanel renorm_panel(const std::vector<RenormRow>& seen, const Matrix& drawn, const Matrix& after,
                         const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                         const NumberFormat& format, const IdKeys& keys) {
    RenormPanel out;
    out.drawn = numeric_matrix(drawn, rows, cols, format, [&](std::size_t k, FigureRow& row) {
        table_row(keys)(k, row);
        if (const RenormRow* row_seen = seen_row(seen, k)) {
            row.note = fmt::format("norm {}{}", shortest_round_trip(row_seen->norm), row_seen->rescaled ? " > max_norm" : "");
        }
    });
    out.drawn.name = "E as drawn";
    out.after = numeric_matrix(after, rows, cols, format, [&](std::size_t k, FigureRow& row) {
        table_row(keys)(k, row);
        const RenormRow* row_seen = seen_row(seen, k);
        if (row_seen != nullptr && row_seen->rescaled) row.note = "x " + shortest_round_trip(row_seen->scale);
    });
    out.after.name = "E after emb(ids)";
    mark_differences(out.after, drawn, after, rows, cols);

    FigurePanel& panel = out.panel;
    panel.title = "emb(ids) first rescales, in place, each looked-up row whose norm is above max_norm";
    panel.items = {out.drawn, out.after};
    panel.ops = {""};
    panel.arrows.resize(1);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const RenormRow* row_seen = rows[r] == k_gap ? nullptr : seen_row(seen, rows[r]);
        if (row_seen != nullptr && row_seen->rescaled) panel.arrows[0].push_back({r, r, key_of(keys, rows[r])});
    }
    return out;
}

}  // namespace embdemo
