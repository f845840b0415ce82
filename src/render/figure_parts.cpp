#include "render/figure_parts.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/table.hpp"
#include "render/text_sections.hpp"

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

IdKeys id_keys(const TokenIds& ids, const IdShape& shape, const std::vector<std::size_t>& rows_in_view) {
    std::map<std::uint64_t, std::vector<std::size_t>> positions;
    std::vector<std::uint64_t> order;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (positions[ids[i]].empty()) order.push_back(ids[i]);
        positions[ids[i]].push_back(i);
    }
    IdKeys keys;
    for (const std::uint64_t id : order) {
        if (std::find(rows_in_view.begin(), rows_in_view.end(), id) == rows_in_view.end()) continue;
        keys.of_id[id] = static_cast<int>(keys.names.size());
        keys.names.push_back(fmt::format("id {}: {}", id, describe_positions(positions[id], shape)));
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
    FigureMatrix out = figure_grid(
        rows, cols,
        [&](std::size_t r, std::size_t c) { return std::pair{trimmed(format_number(m.at(r, c), format)), false}; },
        decorate);
    out.shape = shape_text(m.rows, m.cols);
    return out;
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

}  // namespace embdemo
