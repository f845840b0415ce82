// What a lesson hands to the machine formats: its parameters and checks as JSON fields, and its
// named tables with their shapes. One JSON writer and one CSV/TSV writer serve every lesson, so
// a new lesson lists its tables instead of writing a renderer per format. The tables point into
// the lesson's result, which must outlive the report.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ids.hpp"
#include "core/matrix.hpp"

namespace embdemo {

struct LessonField {
    std::string name;
    std::string json;  // the value, already JSON ("4", "true", "\"torch\"", "[2, 3]", "null")
};

inline constexpr std::size_t k_row_text_chars = 40;

struct LessonTable {
    LessonTable(std::string table_name, std::string table_formula, const Matrix* values,
                std::vector<std::size_t> table_shape, bool is_integral = false)
        : name(std::move(table_name)), formula(std::move(table_formula)), matrix(values),
          shape(std::move(table_shape)), integral(is_integral) {}

    std::string name;     // the JSON key and the --show name: "grad_lookup"
    std::string formula;  // for the comment line of CSV/TSV: "emb.weight.grad"
    const Matrix* matrix = nullptr;
    std::vector<std::size_t> shape;  // e.g. {B, T, d}; the matrix holds it as (B*T) x d
    bool integral = false;           // printed as integers (one-hot entries, counts)
    std::vector<std::size_t> keep_rows;  // summarised views still show these (e.g. the used rows)

    // Tables of records (one row per moved row, per token) rather than of values:
    std::vector<std::string> columns;           // their names, for markdown's header and the CSV comment
    std::vector<std::size_t> integral_columns;  // the whole-number columns of a float table (a step, a row)
    // Markdown only: a column of text after the row number (a token), escaped there and cut
    // to k_row_text_chars characters.
    std::function<std::string(std::size_t row)> row_text;
    std::string row_text_name;
    // csv/tsv/markdown: every cell spelled by the table itself (names, or counts past float32's
    // exact range); the matrix then only gives the shape.
    std::function<std::string(std::size_t row, std::size_t column)> cell_text;
    // false: csv/tsv/markdown only, because the JSON says the same another way (a list of
    // objects) or not at all, and its bytes are a versioned schema.
    bool in_json = true;
    // A table too large to hold, held by the rows a summary of it shows: `matrix` has its rows
    // `held_rows` (ascending) of the rows `shape` gives. Only markdown, which summarises, takes
    // one; the machine formats print every value and refuse such a table before it is made.
    std::vector<std::size_t> held_rows;

    bool integral_column(std::size_t column) const;
};

struct LessonReport {
    std::vector<LessonField> head;    // "schema" first, then the parameters
    std::vector<LessonTable> tables;
    std::vector<LessonField> checks;  // after the tables
    // Tables the report made itself (records spelled out from a lesson's lists), kept alive
    // with it: shared, so that copying or moving a report keeps the tables' pointers valid.
    std::vector<std::shared_ptr<const Matrix>> owned;
};

// `matrix` kept in `report.owned`, for a table to point at.
const Matrix* own_matrix(LessonReport& report, Matrix matrix);

// For ids made from --text: "text" and "tokens" after the head's "ids" field (nothing otherwise).
void add_id_source(LessonReport& report, const IdBatch& ids, const std::string& after = "ids");

// The shape of an n x d matrix whose n rows come from B x T ids: {B, T, d}, or {n, d}.
std::vector<std::size_t> rows_shape(std::size_t batch, std::size_t seq, bool batched, std::size_t cols);

// Appends one table as JSON nested lists following its shape ("[\n    [1, 2],\n    [3, 4]\n  ]"),
// indented to sit as a field of a top-level object. Appending, not returning, keeps a large
// table's text from being copied.
void append_json_table(std::string& out, const LessonTable& table);

// Every lesson's JSON names the embdemo that wrote it, right after its "schema" field:
// `"embdemo_version": "0.1.0"` (the project's version, as --version prints it).
inline constexpr const char* k_version_json_name = "embdemo_version";
const std::string& version_json_value();  // the quoted version, e.g. "\"0.1.0\""

// One JSON object: head, every table (nested lists following its shape), checks. With `show`,
// only the tables named there; tables not `in_json` never.
std::string render_lesson_json(const LessonReport& report, const std::vector<std::string>& show);

// CSV/TSV: each table as "# name (formula) shape" and its rows (n x d, batches flattened); with
// `show`, only those tables, and a single one without its comment line.
std::string render_lesson_delimited(const LessonReport& report, char delimiter,
                                    const std::vector<std::string>& show);

// Markdown for lecture notes: a `##` title, the parameters and checks as lists, each table as a
// Markdown table summarised as PyTorch prints (tables over 1,000 values show their edge rows and
// columns around "..."), numbers with `precision` decimals in PyTorch's print format.
std::string render_lesson_markdown(const LessonReport& report, const std::string& title, int precision);

// The names a lesson's --show accepts, "weight, upstream, ...", for messages and help.
std::string table_names(const LessonReport& report);

}  // namespace embdemo
