#include "render/views/markdown.hpp"

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/limits.hpp"
#include "render/kit/explain.hpp"
#include "render/kit/markdown_text.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {
namespace {

std::string trim_left(std::string text) { return text.erase(0, text.find_first_not_of(' ')); }

std::string table_row(const std::vector<std::string>& cells) {
    return "| " + fmt::format("{}", fmt::join(cells, " | ")) + " |\n";
}

// "| --- | ---: | ---: | --- |": text columns left-aligned, the numbers right-aligned.
std::string separator_row(std::size_t text_before, std::size_t numbers, std::size_t text_after = 0) {
    std::vector<std::string> cells(text_before, "---");
    cells.resize(text_before + numbers, "---:");
    cells.resize(text_before + numbers + text_after, "---");
    return table_row(cells);
}

std::vector<std::string> column_headers(const std::vector<std::size_t>& cols) {
    std::vector<std::string> headers;
    for (const std::size_t c : cols) headers.push_back(c == k_gap ? "..." : std::to_string(c));
    return headers;
}

std::vector<std::string> number_cells(const Matrix& m, std::size_t r, const std::vector<std::size_t>& cols,
                                      const NumberFormat& format) {
    std::vector<std::string> cells;
    for (const std::size_t c : cols) {
        cells.push_back(c == k_gap || r == k_gap ? "..." : trim_left(format_number(m.at(r, c), format)));
    }
    return cells;
}

std::string caption(const DemoReport& report, ReportMatrix which) {
    const DemoRequest& request = report.request;
    const Matrix& m = report_matrix(report, which);
    // Tensors with one row per id keep the ids' shape (B x T x ...); E is V x d.
    const std::string size = which == ReportMatrix::weight ? fmt::format("{} x {}", group_thousands(m.rows), group_thousands(m.cols))
                                                           : per_id_shape(request.shape, m.rows, m.cols);
    switch (which) {
        case ReportMatrix::weight:
            return request.origin.kind == WeightOrigin::Kind::file
                       ? fmt::format("**E**, loaded from {}, {} (rows the ids select are in bold)",
                                     markdown_code(escape_for_message(request.origin.detail), 2), size)
                       : fmt::format("**E** = `{}`, {} (rows the ids select are in bold)",
                                     describe_origin(report), size);
        case ReportMatrix::onehot: return fmt::format("**X** = `one_hot(ids, {})`, {}", m.cols, size);
        case ReportMatrix::lookup: return fmt::format("**Lookup** `E[ids]`, {}", size);
        case ReportMatrix::onehot_matmul: return fmt::format("**One-hot product** `X @ E`, {}", size);
        case ReportMatrix::linear_output:
            return fmt::format("**nn.Linear** `X @ W.T` with `W = E.T`, {}", size);
    }
    return {};
}

std::string weight_table(const DemoReport& report, int precision) {
    const Matrix& e = report.weight;
    const WeightRows shown = weight_rows(report);
    const auto& rows = shown.rows;
    const auto cols = visible_positions(e.cols, should_summarise(e.rows, e.cols));
    const NumberFormat format = visible_format(e, rows, cols, precision);

    std::vector<std::string> header{"row"};
    for (auto& name : column_headers(cols)) header.push_back(std::move(name));
    header.push_back("selected by");
    std::string out = table_row(header) + separator_row(1, cols.size(), 1);
    for (const std::size_t r : rows) {
        std::vector<std::string> cells{r == k_gap ? "..." : std::to_string(r)};
        std::string selected_by;
        const auto hit = r == k_gap ? shown.selected.end() : shown.selected.find(r);
        if (hit != shown.selected.end()) {
            cells[0] = "**" + cells[0] + "**";
            selected_by = describe_positions(hit->second, report.request.shape);
        }
        for (auto& cell : number_cells(e, r, cols, format)) cells.push_back(std::move(cell));
        cells.push_back(selected_by);
        out += table_row(cells);
    }
    if (shown.hidden_selected > 0) {
        out += fmt::format("\n({} more selected {} inside the \"...\")\n",
                           group_thousands(shown.hidden_selected),
                           shown.hidden_selected == 1 ? "row is" : "rows are");
    }
    return out;
}

std::string onehot_table(const DemoReport& report) {
    const TokenIds& ids = report.request.ids;
    const std::size_t vocab = report.request.vocab_size;
    const auto rows = visible_positions(ids.size(), should_summarise(ids.size(), vocab));
    std::string out;
    if (vocab > k_max_spelled_onehot) {
        out = table_row({"id", "one-hot row"}) + separator_row(2, 0);
        for (const std::size_t i : rows) {
            out += i == k_gap ? table_row({"...", "..."})
                              : table_row({std::to_string(ids[i]),
                                           fmt::format("**1** at column {}, the other {} entries are 0", ids[i],
                                                       group_thousands(vocab - 1))});
        }
        return out;
    }
    std::vector<std::string> header{"id"};
    for (std::size_t k = 0; k < vocab; ++k) header.push_back(std::to_string(k));
    out = table_row(header) + separator_row(1, vocab);
    for (const std::size_t i : rows) {
        std::vector<std::string> cells{i == k_gap ? "..." : std::to_string(ids[i])};
        for (std::size_t k = 0; k < vocab; ++k) {
            cells.push_back(i == k_gap ? "..." : k == ids[i] ? "**1**" : "0");
        }
        out += table_row(cells);
    }
    return out;
}

// One matrix of n rows (lookup, product, linear output) as a plain table labelled by id.
std::string result_table(const Matrix& m, const TokenIds& ids, int precision) {
    const bool summarise = should_summarise(m.rows, m.cols);
    const auto rows = visible_positions(m.rows, summarise);
    const auto cols = visible_positions(m.cols, summarise);
    const NumberFormat format = visible_format(m, rows, cols, precision);
    std::vector<std::string> header{"id"};
    for (auto& name : column_headers(cols)) header.push_back(std::move(name));
    std::string out = table_row(header) + separator_row(1, cols.size());
    for (const std::size_t r : rows) {
        std::vector<std::string> cells{r == k_gap ? "..." : std::to_string(ids[r])};
        for (auto& cell : number_cells(m, r, cols, format)) cells.push_back(std::move(cell));
        out += table_row(cells);
    }
    return out;
}

// The lookup row E[id] directly above the product row X[i] @ E, as in the text view.
std::string paired_results_table(const DemoReport& report, int precision) {
    const Matrix& lookup = report.lookup;
    const Matrix& product = report.onehot_matmul;
    const TokenIds& ids = report.request.ids;
    const bool summarise = should_summarise(lookup.rows, lookup.cols);
    const auto rows = visible_positions(lookup.rows, summarise);
    const auto cols = visible_positions(lookup.cols, summarise);
    const NumberFormat lookup_format = visible_format(lookup, rows, cols, precision);
    const NumberFormat product_format = visible_format(product, rows, cols, precision);
    std::vector<std::string> header{"id", "row"};
    for (auto& name : column_headers(cols)) header.push_back(std::move(name));
    std::string out = table_row(header) + separator_row(2, cols.size());
    for (const std::size_t r : rows) {
        if (r == k_gap) {
            out += table_row(std::vector<std::string>(header.size(), "..."));
            continue;
        }
        std::vector<std::string> first{std::to_string(ids[r]), fmt::format("`E[{}]`", ids[r])};
        for (auto& cell : number_cells(lookup, r, cols, lookup_format)) first.push_back(std::move(cell));
        std::vector<std::string> second{"", fmt::format("`X[{}] @ E`", torch_index(report.request.shape, r))};
        for (auto& cell : number_cells(product, r, cols, product_format)) second.push_back(std::move(cell));
        out += table_row(first) + table_row(second);
    }
    return out;
}

std::string matrix_table(const DemoReport& report, ReportMatrix which, int precision) {
    switch (which) {
        case ReportMatrix::weight: return weight_table(report, precision);
        case ReportMatrix::onehot: return onehot_table(report);
        case ReportMatrix::lookup:
        case ReportMatrix::onehot_matmul:
        case ReportMatrix::linear_output: break;
    }
    return result_table(report_matrix(report, which), report.request.ids, precision);
}

// The parameters as a list. Values can hold the user's text (--text, its tokens, a file name),
// so they are escaped or put in code; the text view's wrapped rows (no name) join their item,
// where they once became items of their own ("- : ids[3] ...").
std::string header_list(const DemoRequest& request) {
    std::string out;
    for (const Parameter& parameter : demo_parameters(request, fmt::format("{}", fmt::join(request.ids, ", ")))) {
        const std::string value =
            parameter.name == "file" ? markdown_code(parameter.value, 2) : markdown_escape(parameter.value);
        if (parameter.name.empty() && !out.empty()) {
            out.insert(out.size() - 1, "   " + value);
            continue;
        }
        out += fmt::format("- {}: {}{}{}\n", parameter.name, value, parameter.note.empty() ? "" : " (",
                           parameter.note.empty() ? "" : parameter.note + ")");
    }
    return out;
}

std::string verdict_paragraph(const DemoReport& report) {
    const Comparison& verdict = report.verdict;
    const std::size_t total = report.lookup.values.size();
    if (verdict.identical) {
        return fmt::format("**Verdict: IDENTICAL** -- lookup and one-hot product agree bit for bit ({}).\n",
                           count_of(total, "value", "values"));
    }
    std::string out = fmt::format("**Verdict: DIFFERENT** -- {}, max abs diff {}.",
                                  differing_values(verdict.differing, total), verdict.max_abs_diff);
    if (report.difference) out += " Why: " + explain_difference(*report.difference, report.request.shape) + '.';
    return out + '\n';
}

}  // namespace

std::string render_markdown(const DemoReport& report, int precision, const MatrixSelection& show) {
    if (!show.empty()) {
        std::string out;
        for (const ReportMatrix which : show) {
            out += (out.empty() ? "" : "\n") + caption(report, which) + "\n\n" + matrix_table(report, which, precision);
        }
        return out;
    }
    const Matrix& e = report.weight;
    std::string out = "## Embedding lookup vs one-hot matrix product\n\n" + header_list(report.request);
    out += '\n' + caption(report, ReportMatrix::weight) + "\n\n" + weight_table(report, precision);
    out += '\n' + caption(report, ReportMatrix::onehot) + "\n\n" + onehot_table(report);
    out += fmt::format("\n**Lookup** `E[ids]` and **one-hot product** `X @ E`, row by row, {} each\n\n",
                       per_id_shape(report.request.shape, report.lookup.rows, report.lookup.cols));
    out += paired_results_table(report, precision);
    out += fmt::format("\n`nn.Linear({}, {}, bias=False)` with `W = E.T` ({} x {}): `X @ W.T` {}.\n", e.rows,
                       e.cols, e.cols, e.rows,
                       report.linear_verdict.identical ? "equals the lookup too" : "differs from the lookup");
    out += '\n' + verdict_paragraph(report);
    return out;
}

}  // namespace embdemo
