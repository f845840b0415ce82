#include "render/text.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/limits.hpp"
#include "render/explain.hpp"
#include "render/paint.hpp"
#include "render/parameters.hpp"
#include "render/table.hpp"

namespace embdemo {
namespace {

// Wider vocabularies print each one-hot row as "1 at column k" instead of every zero.
constexpr std::size_t k_max_spelled_onehot = 24;
// When E is summarised, at most this many selected rows are forced into view.
constexpr std::size_t k_max_selected_rows_shown = 8;

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
    switch (report.request.origin.kind) {
        case WeightOrigin::Kind::torch: break;
        case WeightOrigin::Kind::file: return "loaded from " + escape_for_message(report.request.origin.detail);
    }
    return fmt::format("nn.Embedding({}, {}).weight", report.weight.rows, report.weight.cols);
}

std::string render_header(const DemoReport& report) {
    std::string out = "Embedding lookup vs one-hot matrix product\n";
    for (const Parameter& parameter : demo_parameters(report.request, format_ids(report.request.ids))) {
        out += fmt::format("  {:<7}{}{}\n", parameter.name, parameter.value,
                           parameter.note.empty() ? "" : "  (" + parameter.note + ")");
    }
    return out;
}

// positions[id] = the positions in ids that select row id (only for selected rows).
std::map<std::size_t, std::vector<std::size_t>> positions_by_row(const TokenIds& ids) {
    std::map<std::size_t, std::vector<std::size_t>> positions;
    for (std::size_t i = 0; i < ids.size(); ++i) positions[ids[i]].push_back(i);
    return positions;
}

std::string describe_positions(const std::vector<std::size_t>& positions) {
    constexpr std::size_t k_max_listed = 3;
    std::string text;
    for (std::size_t i = 0; i < positions.size() && i < k_max_listed; ++i) {
        text += fmt::format("{}ids[{}]", i ? ", " : "", positions[i]);
    }
    if (positions.size() > k_max_listed) text += fmt::format(", ... ({} times)", positions.size());
    return text;
}

std::string render_weight(const DemoReport& report, const TextOptions& options) {
    const Matrix& e = report.weight;
    const auto selected = positions_by_row(report.request.ids);
    const bool summarise = should_summarise(e.rows, e.cols);

    std::vector<std::size_t> forced;
    for (const auto& entry : selected) {
        if (forced.size() == k_max_selected_rows_shown) break;
        forced.push_back(entry.first);
    }
    const auto rows = visible_positions(e.rows, summarise, forced);
    const std::size_t label_width = std::to_string(e.rows - 1).size();
    // Room for "  > 12  " before the cells and "   ids[0]" after them.
    const std::size_t budget = k_max_line_width - (label_width + 6) - 10;
    const auto cols = fitting_columns(e, rows, options.precision, budget);
    const NumberFormat format = visible_format(e, rows, cols, options.precision);

    std::string out = fmt::format("E = {}   {} x {}   (> marks a row the ids select)\n",
                                  describe_origin(report), group_thousands(e.rows),
                                  group_thousands(e.cols));
    for (const std::size_t r : rows) {
        if (r == k_gap) {
            out += fmt::format("  {}   ...\n", std::string(label_width + 1, ' '));
            continue;
        }
        const auto hit = selected.find(r);
        const bool is_selected = hit != selected.end();
        const std::string label = pad_left(std::to_string(r), label_width);
        const std::string cells = format_row_cells(e, r, cols, format);
        if (is_selected) {
            out += fmt::format("  {} {}  {}   {}\n", paint(">", Paint::selected, options.color),
                               paint(label, Paint::selected, options.color),
                               paint(cells, Paint::selected, options.color),
                               describe_positions(hit->second));
        } else {
            out += fmt::format("    {}  {}\n", label, cells);
        }
    }
    return out;
}

std::string render_onehot(const DemoReport& report, const TextOptions& options) {
    const TokenIds& ids = report.request.ids;
    const std::size_t vocab = report.onehot.cols;
    const auto rows = visible_positions(ids.size(), should_summarise(ids.size(), vocab));
    const std::size_t id_width = std::to_string(vocab - 1).size();

    std::string out = fmt::format("X = one_hot(ids, {})   {} x {}\n", vocab, ids.size(),
                                  group_thousands(vocab));
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

    // "2  0.6957 ... -0.6315 | 0.6957 ...": the product block starts with its own sign column.
    const std::size_t side_by_side_width = id_width + 1 + left_width + 2 + block_width(product_format);
    if (side_by_side_width <= k_max_line_width) {
        std::string out = fmt::format("{}  one-hot product X @ E   {} x {}\n",
                                      pad_right(fmt::format("lookup E[ids]   {} x {}", lookup.rows, lookup.cols),
                                                id_width + 1 + left_width),
                                      product.rows, product.cols);
        for (const std::size_t r : rows) {
            const std::string label = r == k_gap ? "" : std::to_string(ids[r]);
            out += fmt::format("{} {} |{}\n", pad_left(label, id_width),
                               pad_right(cells(lookup, r, lookup_format), left_width),
                               cells(product, r, product_format));
        }
        return out;
    }

    std::string out = fmt::format(
        "lookup E[ids] and one-hot product X @ E, row by row   {} x {} each\n", lookup.rows,
        lookup.cols);
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
    return fmt::format("nn.Linear({}, {}, bias=False) with W = E.T ({} x {}): X @ W.T {}\n",
                       e.rows, e.cols, e.cols, e.rows,
                       report.linear_verdict.identical ? "equals the lookup too" : "differs from the lookup");
}

std::string format_diff(double diff) { return fmt::format("{}", diff); }

}  // namespace

std::string verdict_line(const DemoReport& report, bool color) {
    const Comparison& verdict = report.verdict;
    const std::size_t total = report.lookup.values.size();
    if (verdict.identical) {
        return fmt::format("verdict: {} -- lookup and one-hot product agree bit for bit ({} values)\n",
                           paint("IDENTICAL", Paint::good, color), group_thousands(total));
    }
    std::string out = fmt::format("verdict: {} -- {} of {} values differ, max abs diff {}\n",
                                  paint("DIFFERENT", Paint::bad, color), group_thousands(verdict.differing),
                                  group_thousands(total), format_diff(verdict.max_abs_diff));
    if (report.difference) out += "  why: " + explain_difference(*report.difference) + '\n';
    return out;
}

std::string render_text(const DemoReport& report, const TextOptions& options) {
    std::string out = render_header(report);
    out += '\n' + render_weight(report, options);
    out += '\n' + render_onehot(report, options);
    out += '\n' + render_results(report, options);
    out += '\n' + render_linear_view(report);
    out += verdict_line(report, options.color);
    return out;
}

}  // namespace embdemo
