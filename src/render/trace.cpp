#include "render/trace.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/difference.hpp"
#include "core/limits.hpp"
#include "render/explain.hpp"
#include "render/paint.hpp"
#include "render/table.hpp"
#include "render/text_sections.hpp"

namespace embdemo {
namespace {


// "[0 0 1 0]", or for a wide vocabulary "[0 0 0 ... 0 1 0 ... 0 0 0]".
std::string onehot_row_text(std::size_t id, std::size_t vocab, bool color) {
    const std::vector<std::size_t> ids_shown{id};
    const auto columns = visible_positions(vocab, vocab > k_max_spelled_onehot, ids_shown);
    std::string text = "[";
    for (const std::size_t k : columns) {
        if (text.size() > 1) text += ' ';
        text += k == k_gap ? "..." : k == id ? paint("1", Paint::one, color) : "0";
    }
    return text + "]";
}

// The terms of X[i] @ E[:, j] worth writing out: the first two, the selected one and the last.
std::vector<std::size_t> shown_terms(std::size_t id, std::size_t vocab) {
    if (vocab <= 6) return visible_positions(vocab, false);
    std::vector<std::size_t> terms{0, 1, id, vocab - 1};
    std::sort(terms.begin(), terms.end());
    terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
    std::vector<std::size_t> with_gaps;
    for (const std::size_t k : terms) {
        if (!with_gaps.empty() && k != with_gaps.back() + 1) with_gaps.push_back(k_gap);
        with_gaps.push_back(k);
    }
    return with_gaps;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool rows_identical(const Matrix& a, const Matrix& b, std::size_t row) {
    return std::memcmp(a.row(row), b.row(row), a.cols * sizeof(float)) == 0;
}

// The output column whose dot product is written out: the first one where the product differs
// from the lookup (that is the one worth seeing), otherwise column 0.
std::size_t traced_column(const DemoReport& report, std::size_t position) {
    for (std::size_t j = 0; j < report.lookup.cols; ++j) {
        if (!same_bits(report.lookup.at(position, j), report.onehot_matmul.at(position, j))) return j;
    }
    return 0;
}

std::string render_dot_product(const DemoReport& report, std::size_t position,
                               const TextOptions& options) {
    const Matrix& e = report.weight;
    const std::size_t id = report.request.ids[position];
    const std::size_t j = traced_column(report, position);
    const auto terms = shown_terms(id, e.rows);

    std::vector<float> shown_values;
    for (const std::size_t k : terms) {
        if (k != k_gap) shown_values.push_back(e.at(k, j));
    }
    shown_values.push_back(report.onehot_matmul.at(position, j));
    const NumberFormat format = choose_number_format(shown_values, options.precision);

    std::string symbols;
    std::string values;
    for (const std::size_t k : terms) {
        const bool first = symbols.empty();
        if (k == k_gap) {
            symbols += " + ...";
            values += " + ...";
            continue;
        }
        const char* one = k == id ? "1" : "0";
        symbols += fmt::format("{}{}*E[{},{}]", first ? "" : " + ", one, k, j);
        values += fmt::format("{}{}*{}", first ? "" : " + ", one, format_term(e.at(k, j), format));
    }
    std::size_t hidden = e.rows;
    for (const std::size_t k : terms) {
        if (k != k_gap) --hidden;
    }

    const float result = report.onehot_matmul.at(position, j);
    std::string out = fmt::format("  product   X[{}] @ E, output column {}:\n", position, j);
    out += fmt::format("              {}\n", symbols);
    out += fmt::format("            = {}\n", values);
    const auto difference = difference_at(e, report.request.ids, report.lookup,
                                          report.onehot_matmul, position, j);
    out += fmt::format("            = {}   {} E[{},{}]\n", format_plain(result, format),
                       difference ? "not the bits of" : "which is", id, j);
    if (difference) {
        const std::string indent(12, ' ');
        out += wrap_words("because " + explain_cause(*difference), indent, indent);
    }
    if (hidden > 0) {
        out += fmt::format("            ({} terms not written out are 0 * E[k,{}] = 0)\n",
                           group_thousands(hidden), j);
    }
    if (e.cols > 1) {
        const std::string others = e.cols == 2 ? fmt::format("column {}", 1 - j)
                                               : fmt::format("the other {} columns", e.cols - 1);
        const std::string indent(12, ' ');
        out += wrap_words(fmt::format("{} too: only row {} of E is multiplied by 1", others, id),
                          indent, indent);
    }
    return out;
}

std::string traced_row(const Matrix& m, std::size_t row, const TextOptions& options) {
    const std::vector<std::size_t> rows{row};
    const auto cols = fitting_columns(m, rows, options.precision, k_max_line_width - 36);
    return format_row_cells(m, row, cols, visible_format(m, rows, cols, options.precision));
}

}  // namespace

std::string render_trace_position(const DemoReport& report, std::size_t position,
                                  const TextOptions& options) {
    const TokenIds& ids = report.request.ids;
    const std::size_t id = ids[position];
    const Matrix& e = report.weight;

    std::string out = paint(fmt::format("Position {} of {}: id {}", position, ids.size(), id),
                            Paint::heading, options.color) + '\n';
    const auto first = std::find(ids.begin(), ids.end(), ids[position]) - ids.begin();
    if (static_cast<std::size_t>(first) < position) {
        out += fmt::format("  repeated  id {} was already at position {}: the same row of E is "
                           "selected again\n",
                           id, first);
    }
    out += fmt::format("  one-hot   X[{}] = {}   (1 at column {} of {})\n", position,
                       onehot_row_text(id, e.rows, options.color), id, group_thousands(e.rows));
    const std::string result_label = fmt::format("row {} of X @ E", position);
    out += fmt::format("  lookup    copies row {} of E\n            {} = {}\n", id,
                       pad_right(fmt::format("E[{}]", id), result_label.size()),
                       paint(traced_row(e, id, options), Paint::selected, options.color));
    out += render_dot_product(report, position, options);
    out += fmt::format("  nn.Linear W = E.T is {} x {} (out x in), so X[{}] @ W.T picks\n"
                       "            column {} of W, and column {} of W is row {} of E\n",
                       e.cols, e.rows, position, id, id, id);
    const bool same = rows_identical(report.lookup, report.onehot_matmul, position);
    out += fmt::format("  result    {} = {}\n            {}\n", result_label,
                       traced_row(report.onehot_matmul, position, options),
                       same ? fmt::format("the same bits as E[{}]", id)
                            : paint(fmt::format("DIFFERENT bits from E[{}]", id), Paint::bad,
                                    options.color));
    return out;
}

std::vector<std::string> render_trace(const DemoReport& report,
                                      const std::vector<std::size_t>& positions,
                                      const TextOptions& options) {
    std::vector<std::string> steps;
    steps.push_back(render_header(report) + '\n' + render_weight(report, options) + '\n' +
                    render_onehot(report, options));

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
        steps.push_back(render_trace_position(report, position, options));
    }
    steps.push_back(not_traced + render_results(report, options) + '\n' +
                    render_linear_view(report) + verdict_line(report, options.color));
    return steps;
}

}  // namespace embdemo
