#include "render/views/grad/trace.hpp"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/text_sections.hpp"
#include "render/kit/paint.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

constexpr std::size_t k_indent = 14;  // under the values, after "  scatter-add "


bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The embedding's backward, step by step: the row after each addition.
std::string scatter_steps(const GradLesson& lesson, const GradRow& row, const Screen& screen) {
    const std::string indent(k_indent, ' ');
    if (row.padding) {
        return fmt::format("  scatter-add dE[{}] stays 0: padding_idx={} gets no gradient\n", row.row,
                           *lesson.request.padding_idx);
    }
    const std::string scale = row.scale == 1.0f ? "" : fmt::format(" * {}", shortest_round_trip(row.scale));
    Matrix running(1, lesson.grad_lookup.cols);
    std::string out = fmt::format("  scatter-add dE[{}] = 0, then in order of the positions:\n", row.row);
    for (std::size_t n = 0; n < row.positions.size(); ++n) {
        const std::size_t i = row.positions[n];
        for (std::size_t j = 0; j < running.cols; ++j) {
            running.at(0, j) = std::fma(lesson.upstream.at(i, j), row.scale, running.at(0, j));
        }
        if (n == 3 && row.positions.size() > 5) {
            out += fmt::format("{}... {} more additions\n", indent, row.positions.size() - 4);
            n = row.positions.size() - 2;
            continue;
        }
        out += fmt::format("{}+= {}{}   -> {}\n", indent, position_label(lesson.request.ids, i), scale,
                           format_row_cells(running, 0, screen.cols, screen.format_of(lesson.grad_lookup)));
    }
    return out;
}

// The one-hot backward for column 0 of the row, written out over the positions.
std::string onehot_sum(const GradLesson& lesson, const GradRow& row, const Screen& screen) {
    const std::string indent(k_indent, ' ');
    const IdBatch& batch = lesson.request.ids;
    const TokenIds& ids = batch.values;
    const std::size_t k = row.row;
    std::vector<std::size_t> shown{0, ids.size() - 1};
    shown.insert(shown.end(), row.positions.begin(), row.positions.end());
    const auto terms = visible_positions(ids.size(), ids.size() > 6, shown, 1);
    std::string symbols;
    std::string values;
    for (const std::size_t i : terms) {
        const char* plus = symbols.empty() ? "" : " + ";
        if (i == k_gap) {
            symbols += " + ...";
            values += " + ...";
            continue;
        }
        const char* x = ids[i] == k ? "1" : "0";
        symbols += fmt::format("{}{}*{}", plus, x, fmt::format("G[{}, 0]", position_index(batch, i)));
        values += fmt::format("{}{}*{}", plus, x, format_term(lesson.upstream.at(i, 0), screen.format_of(lesson.upstream)));
    }
    const float onehot = lesson.grad_onehot.at(k, 0);
    const float lookup = lesson.grad_lookup.at(k, 0);
    const char* at = batch.batched ? "b, t" : "t";
    std::string out =
        fmt::format("  one-hot     dE[{}, 0] = sum over {} of X[{}, {}] * G[{}, 0]\n", k, at, at, k, at);
    out += wrap_words("= " + symbols, indent, indent + "  ");
    out += wrap_words("= " + values, indent, indent + "  ");
    // Each number in the format of the table it comes from: G's terms as the G table prints
    // them, the sums as the dE table does.
    const NumberFormat& sums = screen.format_of(lesson.grad_lookup);
    out += fmt::format("{}= {}   {}\n", indent, format_plain(onehot, sums),
                       same_bits(onehot, lookup) ? "the same bits as the scatter-add"
                                                 : fmt::format("not the scatter-add's {}", format_plain(lookup, sums)));
    return out;
}

std::string trace_row(const GradLesson& lesson, const GradRow& row, const Screen& screen, const TextOptions& options) {
    std::vector<std::string> at;
    for (const std::size_t i : row.positions) at.push_back("ids[" + position_index(lesson.request.ids, i) + "]");
    std::string places = fmt::format("{}", fmt::join(at.begin(), at.begin() + std::min<std::size_t>(at.size(), 4), ", "));
    if (at.size() > 4) places += fmt::format(", ... ({} in all)", at.size());
    std::string out = paint(fmt::format("Row {} of dE: id {} at {}", row.row, row.row, places),
                            Paint::heading, options.palette) + '\n';
    out += scatter_steps(lesson, row, screen);
    out += onehot_sum(lesson, row, screen);
    if (!row.identical) {
        const char* why = row.expected == GradRowDifference::padding ? "the one-hot form knows nothing of padding_idx"
                          : row.expected == GradRowDifference::scaled
                              ? "the one-hot form adds each G row whole, without 1/count"
                              : "G holds values the two ways add differently (inf, nan or -0.0)";
        out += wrap_words(fmt::format("this row differs between the two ways: {}", why), std::string(k_indent, ' '),
                          std::string(k_indent, ' '));
    }
    return out;
}

}  // namespace

std::string render_grad_trace_row(const GradLesson& lesson, const GradRow& row, const Screen& screen,
                                  const TextOptions& options) {
    return trace_row(lesson, row, screen, options);
}

std::string render_grad_trace(const GradLesson& lesson, const Screen& screen, const TextOptions& options) {
    std::string out;
    const auto& rows = lesson.comparison.rows;
    for (std::size_t r = 0; r < rows.size() && r < k_max_traced_rows; ++r) {
        out += '\n' + trace_row(lesson, rows[r], screen, options);
    }
    if (rows.size() > k_max_traced_rows) {
        out += fmt::format("\n({} more used rows not traced)\n", group_thousands(rows.size() - k_max_traced_rows));
    }
    return out;
}

}  // namespace embdemo
