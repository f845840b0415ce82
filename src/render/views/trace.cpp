#include "render/views/trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "core/kernels/difference.hpp"
#include "core/limits.hpp"
#include "render/kit/explain.hpp"
#include "render/kit/paint.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {
namespace {

// Where the trace's continuation lines start: under the values after "  product   ".
constexpr std::size_t k_trace_indent = 12;

// "[0 0 1 0]", or for a wide vocabulary "[0 0 0 ... 0 1 0 ... 0 0 0]": spelled out only when
// its 2V + 1 columns fit `room` (a batch's "X[0, 0]" and a two-digit id leave less than a list's).
std::string onehot_row_text(std::size_t id, std::size_t vocab, Palette palette, std::size_t room) {
    const std::vector<std::size_t> ids_shown{id};
    const bool spelled = vocab <= k_max_spelled_onehot && 2 * vocab + 1 <= room;
    const auto columns = visible_positions(vocab, !spelled, ids_shown);
    std::string text = "[";
    for (const std::size_t k : columns) {
        if (text.size() > 1) text += ' ';
        text += k == k_gap ? "..." : k == id ? paint("1", Paint::one, palette) : "0";
    }
    return text + "]";
}

// The terms of X[i] @ E[:, j] worth writing out: the first two, the selected one and the last.
// With `brief`, only the first, the selected and the last: wide numbers need the room.
std::vector<std::size_t> shown_terms(std::size_t id, std::size_t vocab, bool brief) {
    if (vocab <= 6 && !brief) return visible_positions(vocab, false);
    std::vector<std::size_t> terms{0, id, vocab - 1};
    if (!brief) terms.push_back(1);
    std::sort(terms.begin(), terms.end());
    terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
    std::vector<std::size_t> with_gaps;
    for (const std::size_t k : terms) {
        if (!with_gaps.empty() && k != with_gaps.back() + 1) with_gaps.push_back(k_gap);
        with_gaps.push_back(k);
    }
    return with_gaps;
}

// Every column of E holds only finite values: then a product column that agrees with the lookup
// agrees because every other row is multiplied by 0 (with inf or nan elsewhere it would not).
std::vector<bool> finite_columns(const Matrix& e) {
    std::vector<bool> finite(e.cols, true);
    for (std::size_t k = 0; k < e.rows; ++k) {
        for (std::size_t j = 0; j < e.cols; ++j) {
            if (!std::isfinite(e.at(k, j))) finite[j] = false;
        }
    }
    return finite;
}

// What the trace knows about one position: how each output column compares with the lookup.
struct PositionColumns {
    std::vector<Difference> differing;   // in column order
    std::vector<std::size_t> agreeing;   // in column order
};

PositionColumns compare_columns(const DemoReport& report, std::size_t position) {
    PositionColumns result;
    for (std::size_t j = 0; j < report.lookup.cols; ++j) {
        if (auto difference = difference_at(report.weight, report.request.ids, report.lookup,
                                            report.onehot_matmul, position, j)) {
            result.differing.push_back(*difference);
        } else {
            result.agreeing.push_back(j);
        }
    }
    return result;
}

// "column 1", "columns 1 and 3", "columns 0, 1, 2, ... (40 in all)".
std::string describe_columns(const std::vector<std::size_t>& columns) {
    constexpr std::size_t k_max_listed = 4;
    if (columns.size() == 1) return fmt::format("column {}", columns[0]);
    if (columns.size() <= k_max_listed) {
        std::string text = "columns ";
        for (std::size_t i = 0; i < columns.size(); ++i) {
            text += fmt::format("{}{}", i == 0 ? "" : i + 1 == columns.size() ? " and " : ", ", columns[i]);
        }
        return text;
    }
    return fmt::format("columns {}, {}, {}, ... ({} in all)", columns[0], columns[1], columns[2],
                       group_thousands(columns.size()));
}

// The explanation names the source value (nan, inf, -inf, a NaN's bits): the same cause means the
// same value too, so that "for the same reason" never stands for "inf" after "E[0, 0] is nan".
bool same_cause(const Difference& a, const Difference& b) {
    std::uint32_t a_bits = 0, b_bits = 0;
    std::memcpy(&a_bits, &a.source_value, sizeof a_bits);
    std::memcpy(&b_bits, &b.source_value, sizeof b_bits);
    return a.cause == b.cause && a.nan_source == b.nan_source && a.source_row == b.source_row && a_bits == b_bits;
}

// The sentences about the output columns that were not written out: each differing value is
// explained (grouped when the cause is the same), and agreement is only claimed where the bits
// agree.
std::string describe_other_columns(const DemoReport& report, std::size_t position, std::size_t traced,
                                   const std::vector<bool>& finite) {
    const std::string indent(k_trace_indent, ' ');
    const PositionColumns columns = compare_columns(report, position);
    std::string out;
    std::vector<bool> told(report.lookup.cols, false);
    told[traced] = true;
    for (const Difference& first : columns.differing) {
        if (told[first.column]) continue;
        std::vector<std::size_t> group;
        for (const Difference& other : columns.differing) {
            if (!told[other.column] && same_cause(first, other)) group.push_back(other.column);
        }
        for (const std::size_t j : group) told[j] = true;
        const auto traced_difference = std::find_if(
            columns.differing.begin(), columns.differing.end(),
            [&](const Difference& d) { return d.column == traced; });
        const bool as_traced = traced_difference != columns.differing.end() && same_cause(first, *traced_difference);
        const std::string reason = as_traced ? "for the same reason" : "because " + explain_cause(first, report.request.shape);
        const char* verb = group.size() == 1 ? "differs" : "differ";
        out += wrap_words(fmt::format("{} {} too, {}", describe_columns(group), verb, reason), indent, indent);
    }
    std::vector<std::size_t> agreeing;
    bool all_finite = true;
    for (const std::size_t j : columns.agreeing) {
        if (j == traced) continue;
        agreeing.push_back(j);
        all_finite = all_finite && finite[j];
    }
    if (!agreeing.empty()) {
        const std::size_t id = report.request.ids[position];
        const bool all_others = agreeing.size() + 1 == report.lookup.cols;
        const std::string which = all_others && agreeing.size() > 1
                                      ? fmt::format("the other {} columns", group_thousands(agreeing.size()))
                                      : describe_columns(agreeing);
        const char* verb = agreeing.size() == 1 ? "agrees" : "agree";
        out += wrap_words(all_finite ? fmt::format("{} {}: only row {} of E is multiplied by 1", which, verb, id)
                                     : fmt::format("{} {} bit for bit", which, verb),
                          indent, indent);
    }
    return out;
}

// The output column whose dot product is written out: the first one where the product differs
// from the lookup (that is the one worth seeing), otherwise column 0.
std::size_t traced_column(const DemoReport& report, std::size_t position) {
    for (std::size_t j = 0; j < report.lookup.cols; ++j) {
        if (difference_at(report.weight, report.request.ids, report.lookup, report.onehot_matmul,
                          position, j)) {
            return j;
        }
    }
    return 0;
}

std::string render_dot_product(const DemoReport& report, std::size_t position, const Screen& screen,
                               const std::vector<bool>& finite) {
    const Matrix& e = report.weight;
    const std::size_t id = report.request.ids[position];
    const std::size_t j = traced_column(report, position);
    const NumberFormat& format = screen.format;
    const std::string indent(k_trace_indent, ' ');

    std::string symbols;
    std::string values;
    std::size_t hidden = 0;
    for (const bool brief : {false, true}) {
        symbols.clear();
        values.clear();
        hidden = e.rows;
        for (const std::size_t k : shown_terms(id, e.rows, brief)) {
            const char* plus = symbols.empty() ? "" : " + ";
            if (k == k_gap) {
                symbols += " + ...";
                values += " + ...";
                continue;
            }
            --hidden;
            const char* one = k == id ? "1" : "0";
            symbols += fmt::format("{}{}*E[{}, {}]", plus, one, k, j);
            values += fmt::format("{}{}*{}", plus, one, format_term(e.at(k, j), format));
        }
        if (indent.size() + 2 + std::max(symbols.size(), values.size()) <= k_max_line_width) break;
    }

    const float result = report.onehot_matmul.at(position, j);
    std::string out = fmt::format("  product   X[{}] @ E, output column {}:\n",
                                  torch_index(report.request.shape, position), j);
    out += fmt::format("{}  {}\n", indent, symbols);
    out += fmt::format("{}= {}\n", indent, values);
    const auto difference = difference_at(e, report.request.ids, report.lookup,
                                          report.onehot_matmul, position, j);
    out += fmt::format("{}= {}   {} E[{}, {}]\n", indent, format_plain(result, format),
                       difference ? "not the bits of" : "which is", id, j);
    if (difference) out += wrap_words("because " + explain_cause(*difference, report.request.shape), indent, indent);
    if (hidden > 0) {
        out += fmt::format("{}({} terms not written out are 0 * E[k, {}]{})\n", indent,
                           group_thousands(hidden), j, finite[j] ? " = 0" : "");
    }
    return out + describe_other_columns(report, position, j, finite);
}

std::string traced_row(const Matrix& m, std::size_t row, const Screen& screen) {
    return format_row_cells(m, row, screen.cols, screen.format_of(m));
}

// "row 12 of X @ E": the label of a result row, as wide as the cells' indent needs.
std::string result_label(const IdShape& shape, std::size_t position) {
    return fmt::format("(X @ E)[{}]", torch_index(shape, position));
}

}  // namespace

TraceLayout trace_layout(const DemoReport& report, int precision, std::size_t max_budget) {
    const std::size_t trace_budget =
        k_max_line_width - (k_trace_indent + result_label(report.request.shape, report.lookup.rows - 1).size() + 3);
    const std::size_t budget =
        std::min({weight_cells_budget(report), results_cells_budget(report), trace_budget, max_budget});
    return TraceLayout{choose_screen(report, precision, budget), finite_columns(report.weight)};
}

std::string render_trace_position(const DemoReport& report, std::size_t position,
                                  const TraceLayout& layout, const TextOptions& options) {
    const TokenIds& ids = report.request.ids;
    const std::size_t id = ids[position];
    const Matrix& e = report.weight;
    const std::string indent(k_trace_indent, ' ');

    const IdShape& shape = report.request.shape;
    const std::string at = torch_index(shape, position);
    const std::string heading = shape.batched ? fmt::format("Position ids[{}] of {} x {}: id {}", at, shape.batch, shape.seq, id)
                                              : fmt::format("Position ids[{}] of {}: id {}", position, ids.size(), id);
    std::string out = paint(heading, Paint::heading, options.palette) + '\n';
    const auto first = std::find(ids.begin(), ids.end(), ids[position]) - ids.begin();
    if (static_cast<std::size_t>(first) < position) {
        const auto earlier = static_cast<std::size_t>(first);
        out += wrap_words(fmt::format("id {} was already at position {}: the same row of E is selected again", id,
                                      "ids[" + torch_index(shape, earlier) + "]"),
                          "  repeated  ", std::string(k_trace_indent, ' '));
    }
    const std::string onehot_head = fmt::format("  one-hot   X[{}] = ", at);
    const std::string onehot_note = fmt::format("   (1 at column {} of {})", id, group_thousands(e.rows));
    const std::size_t used = onehot_head.size() + onehot_note.size();
    const std::size_t room = used < k_max_line_width ? k_max_line_width - used : 0;
    out += onehot_head + onehot_row_text(id, e.rows, options.palette, room) + onehot_note + '\n';
    const std::string label = result_label(shape, position);
    out += fmt::format("  lookup    copies row {} of E\n{}{} = {}\n", id, indent,
                       pad_right(fmt::format("E[{}]", id), label.size()),
                       paint(traced_row(e, id, layout.screen), Paint::selected, options.palette));
    out += render_dot_product(report, position, layout.screen, layout.finite_columns);
    const bool same = compare_columns(report, position).differing.empty();
    // "picks column id" is only true where the product row has E[id]'s bits; otherwise the other
    // columns' 0 * w terms are what changed the sum, and the sentence says that W.T is summed too.
    if (same) {
        out += fmt::format("  nn.Linear W = E.T is {} x {} (out x in), so X[{}] @ W.T picks\n"
                           "{}column {} of W, and column {} of W is row {} of E\n",
                           group_thousands(e.cols), group_thousands(e.rows), at, indent, id, id, id);
    } else {
        out += wrap_words(fmt::format("W = E.T is {} x {} (out x in), so X[{}] @ W.T adds every column of W "
                                      "times its entry of X[{}], as X @ E adds every row of E: column {} (row {} of "
                                      "E) times 1{}",
                                      group_thousands(e.cols), group_thousands(e.rows), at, at, id, id,
                                      e.rows == 1   ? std::string(", on top of the sum's starting +0.0")
                                      : e.rows == 2 ? std::string(" and the other one times 0")
                                                    : " and the other " + group_thousands(e.rows - 1) + " times 0"),
                          "  nn.Linear ", indent);
    }
    out += fmt::format("  result    {} = {}\n{}{}\n", label,
                       traced_row(report.onehot_matmul, position, layout.screen), indent,
                       same ? fmt::format("the same bits as E[{}]", id)
                            : paint(fmt::format("DIFFERENT bits from E[{}]", id), Paint::bad,
                                    options.palette));
    return out;
}

std::vector<std::string> render_trace(const DemoReport& report,
                                      const std::vector<std::size_t>& positions,
                                      const TextOptions& options) {
    const TraceLayout layout = trace_layout(report, options.precision);
    std::vector<std::string> steps;
    steps.push_back(render_header(report) + '\n' + render_weight(report, layout.screen, options) +
                    '\n' + render_onehot(report, options));

    std::vector<std::size_t> traced = positions;
    std::string not_traced;
    if (traced.empty()) {
        const std::size_t count = std::min(report.request.ids.size(), k_default_traced_positions);
        for (std::size_t i = 0; i < count; ++i) traced.push_back(i);
        if (report.request.ids.size() > count) {
            not_traced = fmt::format("({} more positions not traced; choose them with "
                                     "--trace-positions)\n",
                                     report.request.ids.size() - count);
        }
    }
    for (const std::size_t position : traced) {
        steps.push_back(render_trace_position(report, position, layout, options));
    }
    steps.push_back(not_traced + render_results(report, layout.screen, options.width) + '\n' +
                    render_linear_view(report) + verdict_line(report, options));
    return steps;
}

}  // namespace embdemo
