#include "render/text_sections.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/init.hpp"
#include "core/limits.hpp"
#include "render/explain.hpp"
#include "render/paint.hpp"
#include "render/parameters.hpp"
#include "render/table.hpp"

namespace embdemo {
namespace {

// When E is summarised, at most this many selected rows are forced into view.
constexpr std::size_t k_max_selected_rows_shown = 8;

std::string format_diff(double diff) { return fmt::format("{}", diff); }

}  // namespace

std::string describe_positions(const std::vector<std::size_t>& positions) {
    constexpr std::size_t k_max_listed = 3;
    std::string text;
    for (std::size_t i = 0; i < positions.size() && i < k_max_listed; ++i) {
        text += fmt::format("{}ids[{}]", i ? ", " : "", positions[i]);
    }
    if (positions.size() > k_max_listed) text += fmt::format(", ... ({} times)", positions.size());
    return text;
}

WeightRows weight_rows(const DemoReport& report) {
    WeightRows result;
    const TokenIds& ids = report.request.ids;
    for (std::size_t i = 0; i < ids.size(); ++i) result.selected[ids[i]].push_back(i);
    // A summary keeps the selected rows in view, up to a screenful of them.
    std::vector<std::size_t> forced;
    for (const auto& entry : result.selected) {
        if (forced.size() == k_max_selected_rows_shown) break;
        forced.push_back(entry.first);
    }
    const Matrix& e = report.weight;
    result.rows = visible_positions(e.rows, should_summarise(e.rows, e.cols), forced);
    for (const auto& entry : result.selected) {
        result.hidden_selected +=
            std::find(result.rows.begin(), result.rows.end(), entry.first) == result.rows.end();
    }
    return result;
}

std::string format_ids(const TokenIds& ids) {
    constexpr std::size_t k_max_listed = 12;
    std::string text = "[";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i == k_max_listed && ids.size() > k_max_listed + 1) {
            text += ", ... " + std::to_string(ids.size() - k_max_listed - 1) + " more ..., " +
                    std::to_string(ids.back());
            break;
        }
        if (i > 0) text += ", ";
        text += std::to_string(ids[i]);
    }
    return text + "]";
}

std::string describe_origin(const DemoReport& report) {
    const Matrix& e = report.weight;
    switch (report.request.origin.kind) {
        case WeightOrigin::Kind::torch: break;
        case WeightOrigin::Kind::torch_randint:
            return fmt::format("torch.randint({}, {}, ({}, {}))", k_randint_low, k_randint_high,
                               e.rows, e.cols);
        case WeightOrigin::Kind::index_pattern:
            return report.request.origin.detail + " for row k, column j";
        case WeightOrigin::Kind::file:
            return "loaded from " + escape_for_message(report.request.origin.detail);
    }
    return fmt::format("nn.Embedding({}, {}).weight", e.rows, e.cols);
}

std::string render_header(const DemoReport& report) {
    std::string out = "Embedding lookup vs one-hot matrix product\n";
    for (const Parameter& parameter : demo_parameters(report.request, format_ids(report.request.ids))) {
        out += fmt::format("  {:<7}{}{}\n", parameter.name, parameter.value,
                           parameter.note.empty() ? "" : "  (" + parameter.note + ")");
    }
    return out;
}

std::string render_weight(const DemoReport& report, const TextOptions& options) {
    const Matrix& e = report.weight;
    const WeightRows shown = weight_rows(report);
    const auto& rows = shown.rows;
    const auto& selected = shown.selected;
    const std::size_t hidden_selected = shown.hidden_selected;
    std::size_t annotation_width = 0;
    for (const std::size_t r : rows) {
        const auto hit = selected.find(r);
        if (hit != selected.end()) {
            annotation_width = std::max(annotation_width, 3 + describe_positions(hit->second).size());
        }
    }
    const std::size_t label_width = std::to_string(e.rows - 1).size();
    const std::size_t budget = k_max_line_width - (label_width + 6) - annotation_width;  // "  > 12  "
    const auto cols = fitting_columns(e, rows, options.precision, budget);
    const NumberFormat format = visible_format(e, rows, cols, options.precision);

    std::string out = fmt::format("E = {}   {} x {}   > marks selected rows\n",
                                  describe_origin(report), group_thousands(e.rows),
                                  group_thousands(e.cols));
    for (const std::size_t r : rows) {
        if (r == k_gap) {
            out += fmt::format("  {}   ...\n", std::string(label_width + 1, ' '));
            continue;
        }
        const auto hit = selected.find(r);
        const std::string label = pad_left(std::to_string(r), label_width);
        const std::string cells = format_row_cells(e, r, cols, format);
        if (hit != selected.end()) {
            out += fmt::format("  {} {}  {}   {}\n", paint(">", Paint::selected, options.color),
                               paint(label, Paint::selected, options.color),
                               paint(cells, Paint::selected, options.color),
                               describe_positions(hit->second));
        } else {
            out += fmt::format("    {}  {}\n", label, cells);
        }
    }
    if (hidden_selected > 0) {
        out += fmt::format("  ({} more selected {} inside the \"...\")\n",
                           group_thousands(hidden_selected), hidden_selected == 1 ? "row is" : "rows are");
    }
    if (format.mode == NumberFormat::Mode::scientific) {
        out += "  (scientific notation, as PyTorch prints values that span more than 1000x)\n";
    }
    return out;
}

std::string render_onehot(const DemoReport& report, const TextOptions& options) {
    const TokenIds& ids = report.request.ids;
    const std::size_t vocab = report.onehot.cols;
    const auto rows = visible_positions(ids.size(), should_summarise(ids.size(), vocab));
    const std::size_t id_width = std::to_string(vocab - 1).size();

    std::string out = fmt::format("X = one_hot(ids, {})   {} x {}\n", vocab,
                                  group_thousands(ids.size()), group_thousands(vocab));
    for (const std::size_t i : rows) {
        if (i == k_gap) {
            out += "    ...\n";
            continue;
        }
        std::string row;
        if (vocab <= k_max_spelled_onehot) {
            for (std::size_t k = 0; k < vocab; ++k) {
                if (k) row += ' ';
                row += k == ids[i] ? paint("1", Paint::one, options.color) : "0";
            }
        } else {
            row = fmt::format("{} at column {}, the other {} entries are 0",
                              paint("1", Paint::one, options.color), ids[i],
                              group_thousands(vocab - 1));
        }
        out += fmt::format("  id {}   {}\n", pad_left(std::to_string(ids[i]), id_width), row);
    }
    return out;
}

// The lookup and the one-hot product next to each other, so that equal numbers line up: two
// blocks side by side when the line fits the width of a classroom terminal, otherwise each
// lookup row directly above the product row it equals.
std::string render_results(const DemoReport& report, const TextOptions& options) {
    const Matrix& lookup = report.lookup;
    const Matrix& product = report.onehot_matmul;
    const TokenIds& ids = report.request.ids;
    const auto rows = visible_positions(lookup.rows, should_summarise(lookup.rows, lookup.cols));
    std::size_t id_width = 1;
    for (const std::size_t r : rows) {
        if (r != k_gap) id_width = std::max(id_width, std::to_string(ids[r]).size());
    }
    // Room for "  id 2  X[0] @ E  " before the cells of the row-pair layout.
    const std::size_t prefix_width =
        7 + id_width + fmt::format("X[{}] @ E", lookup.rows - 1).size() + 2;
    const auto cols = fitting_columns(lookup, rows, options.precision,
                                      k_max_line_width - std::min(prefix_width, k_max_line_width / 2));
    const NumberFormat lookup_format = visible_format(lookup, rows, cols, options.precision);
    const NumberFormat product_format = visible_format(product, rows, cols, options.precision);
    const auto block_width = [&](const NumberFormat& format) {
        return cols.size() * (format.width + 1) - 1;
    };
    const std::size_t left_width = block_width(lookup_format);
    const auto cells = [&](const Matrix& m, std::size_t r, const NumberFormat& format) {
        return r == k_gap ? pad_left("...", format.width) : format_row_cells(m, r, cols, format);
    };

    // "  id 2   0.6957 ... -0.6315 |  0.6957 ...": each block keeps its own sign column.
    const std::size_t id_label_width = 5 + id_width;  // "  id 2"
    const std::size_t side_by_side_width =
        id_label_width + 1 + left_width + 3 + block_width(product_format);
    if (side_by_side_width <= k_max_line_width) {
        std::string out = fmt::format(
            "lookup E[ids] and one-hot product X @ E, side by side   {} x {} each\n",
            group_thousands(lookup.rows), group_thousands(lookup.cols));
        out += fmt::format("{} {}   {}\n", std::string(id_label_width, ' '),
                           pad_right("E[ids]", left_width), "X @ E");
        for (const std::size_t r : rows) {
            const std::string label =
                r == k_gap ? std::string(id_label_width, ' ')
                           : "  id " + pad_left(std::to_string(ids[r]), id_width);
            out += fmt::format("{} {} | {}\n", label,
                               pad_right(cells(lookup, r, lookup_format), left_width),
                               cells(product, r, product_format));
        }
        return out;
    }

    std::string out = fmt::format(
        "lookup E[ids] and one-hot product X @ E, row by row   {} x {} each\n",
        group_thousands(lookup.rows), group_thousands(lookup.cols));
    std::size_t label_width = 0;
    for (const std::size_t r : rows) {
        if (r != k_gap) label_width = std::max(label_width, fmt::format("X[{}] @ E", r).size());
    }
    for (const std::size_t r : rows) {
        if (r == k_gap) {
            out += "  ...\n";
            continue;
        }
        const std::string id = pad_left(std::to_string(ids[r]), id_width);
        out += fmt::format("  id {}  {}  {}\n", id, pad_right(fmt::format("E[{}]", ids[r]), label_width),
                           cells(lookup, r, lookup_format));
        out += fmt::format("  {}  {}  {}\n", std::string(id_width + 3, ' '),
                           pad_right(fmt::format("X[{}] @ E", r), label_width),
                           cells(product, r, product_format));
    }
    return out;
}

std::string render_linear_view(const DemoReport& report) {
    const Matrix& e = report.weight;
    return fmt::format("nn.Linear({}, {}, bias=False), W = E.T: X @ W.T {}\n", e.rows, e.cols,
                       report.linear_verdict.identical ? "equals the lookup too"
                                                       : "differs from the lookup");
}

std::string verdict_line(const DemoReport& report, bool color) {
    const Comparison& verdict = report.verdict;
    const std::size_t total = report.lookup.values.size();
    if (verdict.identical) {
        const std::string which =
            total == 1 ? "the only value agrees" : "all " + group_thousands(total) + " values agree";
        return fmt::format("verdict: {} -- {} bit for bit, max abs diff 0\n",
                           paint("IDENTICAL", Paint::good, color), which);
    }
    std::string out = fmt::format("verdict: {} -- {} of {} values differ, max abs diff {}\n",
                                  paint("DIFFERENT", Paint::bad, color),
                                  group_thousands(verdict.differing), group_thousands(total),
                                  format_diff(verdict.max_abs_diff));
    if (report.difference) out += wrap_words(explain_difference(*report.difference), "  why: ", "       ");
    return out;
}

std::string render_plain_matrix(const Matrix& m, const TextOptions& options) {
    const auto rows = visible_positions(m.rows, should_summarise(m.rows, m.cols));
    const std::size_t label_width = std::to_string(m.rows ? m.rows - 1 : 0).size();
    const auto cols = fitting_columns(m, rows, options.precision, k_max_line_width - label_width - 4);
    const NumberFormat format = visible_format(m, rows, cols, options.precision);
    std::string out;
    for (const std::size_t r : rows) {
        if (r == k_gap) {
            out += fmt::format("  {}  ...\n", std::string(label_width, ' '));
        } else {
            out += fmt::format("  {}  {}\n", pad_left(std::to_string(r), label_width),
                               format_row_cells(m, r, cols, format));
        }
    }
    return out;
}

std::string format_plain(float value, const NumberFormat& format) {
    NumberFormat unpadded = format;
    unpadded.width = 0;
    std::string text = format_number(value, unpadded);
    if (format.mode == NumberFormat::Mode::integer && !text.empty() && text.back() == '.') {
        text.pop_back();
    }
    return text;
}

std::string format_term(float value, const NumberFormat& format) {
    const std::string text = format_plain(value, format);
    return text[0] == '-' ? '(' + text + ')' : text;
}

}  // namespace embdemo
