#include "render/kit/lesson_report.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <xtensor/xadapt.hpp>
#include <xtensor/xstrided_view.hpp>

#include "core/escape.hpp"
#include "core/gpt2/data_loader.hpp"
#include "core/limits.hpp"
#include "render/kit/delimited.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/markdown_text.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

bool wanted(const LessonTable& table, const std::vector<std::string>& show) {
    return show.empty() || std::find(show.begin(), show.end(), table.name) != show.end();
}

// `column`: the value's index along the last axis, which is the matrix's columns. A whole
// number, or a float in its shortest round-trip form (non-finite ones as nan, inf, -inf).
void append_cell(std::string& out, const LessonTable& table, float value, std::size_t column) {
    if (table.integral_column(column)) {
        fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"), static_cast<long long>(value));
    } else {
        append_shortest_round_trip(out, value);
    }
}

// The same in JSON, where a non-finite float is a string ("nan"), as json_number spells it.
void append_json_cell(std::string& out, const LessonTable& table, float value, std::size_t column) {
    if (table.integral_column(column) || std::isfinite(value)) {
        append_cell(out, table, value, column);
    } else {
        out += json_number(value);
    }
}

// Rows of a table with whole-number columns beside float ones, as delimited_rows writes each kind.
void append_mixed_rows(std::string& out, const LessonTable& table, char delimiter) {
    const Matrix& m = *table.matrix;
    for (std::size_t r = 0; r < m.rows; ++r) {
        for (std::size_t c = 0; c < m.cols; ++c) {
            if (c) out += delimiter;
            append_cell(out, table, m.at(r, c), c);
        }
        out += '\n';
    }
}

// The machine formats print every row: a table holding only some was to be refused earlier.
void require_whole(const LessonTable& table) {
    if (!table.held_rows.empty()) throw std::logic_error("table " + table.name + " holds only the rows a summary shows");
}

void append_table_rows(std::string& out, const LessonTable& table, char delimiter) {
    require_whole(table);
    const Matrix& m = *table.matrix;
    if (table.cell_text) {
        for (std::size_t r = 0; r < m.rows; ++r) {
            for (std::size_t c = 0; c < m.cols; ++c) out += (c ? std::string(1, delimiter) : "") + table.cell_text(r, c);
            out += '\n';
        }
    } else if (table.integral_columns.empty()) {
        append_delimited_rows(out, m, delimiter, table.integral, 0, m.rows);
    } else {
        append_mixed_rows(out, table, delimiter);
    }
}

// The room a table's values take in a machine format, headers and indents aside (those are
// counted per row: at most an indent of a few levels and a bracket or two).
std::size_t reserved_chars(const LessonTable& table) {
    constexpr std::size_t k_row_chars = 16;
    return table.matrix->values.size() * k_reserved_chars_per_value + table.matrix->rows * k_row_chars;
}

// Nested lists following the table's shape, walked by xtensor over the matrix's own buffer
// (an adaptor, no copy): the rows of the last axis are one line each, the outer axes open a line
// per entry, indented by depth. `prefix` holds the indices of the outer axes taken so far, so
// that every row is one strided view of the same adaptor; a view of a view would be a new type
// per axis, and the rank is only known at run time. xtensor stays in this file, not in
// lesson_report.hpp, which 36 translation units include (about 1 s of compiling each).
template <class Tensor>
void append_nested(std::string& out, const LessonTable& table, const Tensor& tensor,
                   xt::xstrided_slice_vector& prefix, std::size_t indent) {
    const std::size_t axis = prefix.size();
    const std::size_t extent = tensor.shape(axis);
    out += '[';
    if (axis + 1 == tensor.dimension()) {
        // A row of a row-major tensor is contiguous: its linear iterators walk the buffer
        // directly; the view's own iterators (a stepper per element) made the writer up to 12%
        // slower than the stride loops it replaced (docs/design.md, "xtensor: where and why").
        const auto row = xt::strided_view(tensor, prefix);
        std::size_t column = 0;
        for (auto value = row.linear_cbegin(); value != row.linear_cend(); ++value, ++column) {
            if (column) out += ", ";
            append_json_cell(out, table, *value, column);
        }
        out += ']';
        return;
    }
    for (std::size_t i = 0; i < extent; ++i) {
        out += (i ? ",\n" : "\n") + std::string(indent + 2, ' ');
        prefix.push_back(static_cast<std::ptrdiff_t>(i));
        append_nested(out, table, tensor, prefix, indent + 2);
        prefix.pop_back();
    }
    out += extent ? '\n' + std::string(indent, ' ') + ']' : "]";
}

}  // namespace

bool LessonTable::integral_column(std::size_t column) const {
    return integral || std::find(integral_columns.begin(), integral_columns.end(), column) != integral_columns.end();
}

const Matrix* own_matrix(LessonReport& report, Matrix matrix) {
    report.owned.push_back(std::make_shared<const Matrix>(std::move(matrix)));
    return report.owned.back().get();
}

std::vector<std::size_t> rows_shape(std::size_t batch, std::size_t seq, bool batched, std::size_t cols) {
    if (batched) return {batch, seq, cols};
    return {batch * seq, cols};
}

void append_json_table(std::string& out, const LessonTable& table) {
    require_whole(table);
    const std::vector<float>& values = table.matrix->values;
    const auto tensor = xt::adapt(values.data(), values.size(), xt::no_ownership(), table.shape);
    xt::xstrided_slice_vector prefix;
    prefix.reserve(table.shape.size());
    append_nested(out, table, tensor, prefix, 2);
}

void add_id_source(LessonReport& report, const IdBatch& ids, const std::string& after) {
    if (!ids.source.from_text()) return;
    auto& head = report.head;
    auto after_ids = std::find_if(head.begin(), head.end(), [&after](const LessonField& field) { return field.name == after; });
    if (after_ids != head.end()) ++after_ids;
    std::vector<LessonField> fields{{"text", json_string(ids.source.text)}, {"tokens", tokens_json(ids)}};
    // GPT-2's runs keep the fields they always had; another tokenizer is named.
    if (ids.source.tokenizer != TokenizerKind::gpt2) {
        fields.insert(fields.begin() + 1, {"tokenizer", json_string(tokenizer_name(ids.source.tokenizer))});
    }
    const LoaderWindows& loader = ids.source.loader;
    if (loader.used()) {
        fields.push_back({"targets", ids_json(target_batch(loader.targets, ids.batch, ids.seq))});
        fields.push_back({"loader", fmt::format("{{\"batch_size\": {}, \"max_length\": {}, \"stride\": {}, \"windows\": {}}}",
                                                loader.batch, loader.context, loader.stride, loader.windows)});
    }
    head.insert(after_ids, fields.begin(), fields.end());
}

const std::string& version_json_value() {
    static const std::string value = json_string(EMBDEMO_VERSION);
    return value;
}

std::string render_lesson_json(const LessonReport& report, const std::vector<std::string>& show) {
    // Written in place, its fields' and tables' room reserved (k_reserved_chars_per_value): a
    // report can hold hundreds of megabytes of pre-spelled JSON (every piece of a 16 MiB text),
    // which a copy per field, or a move to a larger buffer, would double.
    std::size_t fields_size = 0;
    for (const auto* fields : {&report.head, &report.checks}) {
        for (const LessonField& field : *fields) fields_size += field.name.size() + field.json.size() + 8;
    }
    for (const LessonTable& table : report.tables) {
        if (table.in_json && wanted(table, show)) fields_size += table.name.size() + 8 + reserved_chars(table);
    }
    std::string out = "{\n";
    out.reserve(fields_size + 4 + 64);  // 64: the version's field
    bool first = true;
    const auto open = [&](const std::string& name) {
        out += first ? "  \"" : ",\n  \"";
        out += name;
        out += "\": ";
        first = false;
    };
    for (const LessonField& field : report.head) {
        open(field.name);
        out += field.json;
        if (field.name == "schema") {
            open(k_version_json_name);
            out += version_json_value();
        }
    }
    for (const LessonTable& table : report.tables) {
        if (!table.in_json || !wanted(table, show)) continue;
        open(table.name);
        append_json_table(out, table);
    }
    for (const LessonField& field : report.checks) {
        open(field.name);
        out += field.json;
    }
    out += first ? "}\n" : "\n}\n";
    return out;
}

std::string render_lesson_delimited(const LessonReport& report, char delimiter,
                                    const std::vector<std::string>& show) {
    std::size_t room = 0;
    for (const LessonTable& table : report.tables) {
        if (!wanted(table, show)) continue;
        room += reserved_chars(table) + table.name.size() + table.formula.size() + 64;  // its header line
        for (const std::string& column : table.columns) room += column.size() + 2;
    }
    std::string out;
    out.reserve(room);  // written in place, never moved (k_reserved_chars_per_value)
    for (const LessonTable& table : report.tables) {
        if (!wanted(table, show)) continue;
        if (show.size() == 1) {
            append_table_rows(out, table, delimiter);
            return out;
        }
        if (!out.empty()) out += '\n';
        out += fmt::format("# {} ({}) {}", table.name, table.formula, fmt::join(table.shape, " x "));
        if (!table.columns.empty()) out += fmt::format(": {}", fmt::join(table.columns, ", "));
        out += '\n';
        append_table_rows(out, table, delimiter);
    }
    return out;
}

namespace {

// The longest value a list item shows: a 1 MiB --text is summarised, as the tables are.
constexpr std::size_t k_max_markdown_value_chars = 1000;

// A JSON value as Markdown code: strings without their quotes, everything else as written, with
// the characters beyond ASCII that show as themselves written as themselves ("naïve", not
// "na\u00efve"). The code span outlasts any run of backticks inside, so a --text with a backtick
// cannot close it and let its own HTML through.
std::string markdown_value(const std::string& ascii_json) {
    const std::string json = json_with_visible_characters(ascii_json);
    const bool plain_string = json.size() >= 2 && json.front() == '"' && json.back() == '"' &&
                              json.find('\\') == std::string::npos;
    const std::string value = plain_string ? json.substr(1, json.size() - 2) : json;
    const std::string_view kept = cut_for_markdown(value, k_max_markdown_value_chars);
    if (kept.size() == value.size()) return markdown_code(value);
    const std::size_t chars = static_cast<std::size_t>(
        std::count_if(value.begin(), value.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xc0) != 0x80; }));
    return markdown_code(std::string(kept) + "...") +
           fmt::format(" (the first {} of {} characters; --format json has them all)", k_max_markdown_value_chars,
                       group_thousands(chars));
}

// A row's text in a table cell: cut, then escaped outside code, where every '|' keeps its
// backslash and every backslash is doubled, so no reading of GFM's table rule lets a token end
// its cell (in a code span a backslash escapes nothing, and "\\|" would be ambiguous).
std::string markdown_row_text(const std::string& text) {
    const std::string_view kept = cut_for_markdown(text, k_row_text_chars);
    return '"' + markdown_escape(kept) + (kept.size() < text.size() ? "\"..." : "\"");
}

// The table's rows (batches flattened) whether or not it holds them all.
std::size_t table_row_count(const LessonTable& table) {
    if (table.held_rows.empty()) return table.matrix->rows;
    std::size_t rows = 1;
    for (std::size_t i = 0; i + 1 < table.shape.size(); ++i) rows *= table.shape[i];
    return rows;
}

// The matrix row of each of the table's rows `rows` (k_gap kept).
std::vector<std::size_t> matrix_rows(const LessonTable& table, const std::vector<std::size_t>& rows) {
    if (table.held_rows.empty()) return rows;
    std::vector<std::size_t> in_matrix;
    for (const std::size_t r : rows) {
        const auto at = std::lower_bound(table.held_rows.begin(), table.held_rows.end(), r);
        if (r != k_gap && (at == table.held_rows.end() || *at != r)) {
            throw std::logic_error("markdown: table " + table.name + " does not hold the row it shows");
        }
        in_matrix.push_back(r == k_gap ? k_gap : static_cast<std::size_t>(at - table.held_rows.begin()));
    }
    return in_matrix;
}

std::string markdown_table(const LessonTable& table, int precision) {
    const Matrix& m = *table.matrix;
    const std::size_t row_count = table_row_count(table);
    const bool summarise = should_summarise(row_count, m.cols);
    const auto rows = visible_positions(row_count, summarise, table.keep_rows);
    const auto held = matrix_rows(table, rows);
    const auto cols = visible_positions(m.cols, summarise);
    // The number format comes from the float columns alone: a step number must not make a
    // table of small deltas fixed-point.
    std::vector<std::size_t> float_cols;
    for (const std::size_t c : cols) {
        if (c != k_gap && !table.integral_column(c)) float_cols.push_back(c);
    }
    NumberFormat format = visible_format(m, held, float_cols, precision);
    format.width = 0;
    // A table of records numbers them "#": their own columns may hold a "row" (of E).
    std::vector<std::string> header{table.columns.empty() ? "row" : "#"};
    if (table.row_text) header.push_back(table.row_text_name);
    for (const std::size_t c : cols) {
        header.push_back(c == k_gap ? "..." : c < table.columns.size() ? table.columns[c] : std::to_string(c));
    }
    std::string out = "| " + fmt::format("{}", fmt::join(header, " | ")) + " |\n|";
    for (std::size_t i = 0; i < header.size(); ++i) out += i == 0 || (i == 1 && table.row_text) ? " --- |" : " ---: |";
    out += '\n';
    for (std::size_t shown = 0; shown < rows.size(); ++shown) {
        const std::size_t r = rows[shown];
        std::vector<std::string> cells{r == k_gap ? "..." : std::to_string(r)};
        if (table.row_text) cells.push_back(r == k_gap ? "..." : markdown_row_text(table.row_text(r)));
        for (const std::size_t c : cols) {
            if (r == k_gap || c == k_gap) {
                cells.push_back("...");
            } else if (table.cell_text) {
                cells.push_back(markdown_escape(table.cell_text(r, c)));
            } else if (table.integral_column(c)) {
                cells.push_back(fmt::format("{}", static_cast<long long>(m.at(held[shown], c))));
            } else {
                cells.push_back(format_number(m.at(held[shown], c), format));
            }
        }
        out += "| " + fmt::format("{}", fmt::join(cells, " | ")) + " |\n";
    }
    return out;
}

}  // namespace

std::string render_lesson_markdown(const LessonReport& report, const std::string& title, int precision) {
    std::string out = "## " + title + "\n\n";
    for (const LessonField& field : report.head) {
        if (field.name != "schema") out += fmt::format("- {}: {}\n", field.name, markdown_value(field.json));
    }
    for (const LessonTable& table : report.tables) {
        out += fmt::format("\n**{}** ({}), {}{}\n\n", table.name, table.formula, fmt::join(table.shape, " x "),
                           table.shape.size() > 2 ? " (rows flattened)" : "");
        out += markdown_table(table, precision);
    }
    out += '\n';
    for (const LessonField& field : report.checks) {
        // Structured checks (lists of objects) are for machines; the JSON carries them.
        if (field.json.find('{') == std::string::npos) {
            out += fmt::format("- {}: {}\n", field.name, markdown_value(field.json));
        }
    }
    return out;
}

std::string table_names(const LessonReport& report) {
    std::string names;
    for (const LessonTable& table : report.tables) names += (names.empty() ? "" : ", ") + table.name;
    return names;
}

}  // namespace embdemo
