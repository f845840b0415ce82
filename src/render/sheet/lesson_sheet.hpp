// A lesson sheet: one declarative description of a lesson's run that every format renders, so a
// lesson states each of its facts once. The lesson lists its tables from the request alone (shapes
// first: the printed-numbers cap is read off them before anything is drawn), then fills the sheet
// from its result: its parameters, its tables with their PyTorch names, the comparisons it makes,
// and its claims, each sentence with the data that re-checks it, its JSON field and its Python
// assert. The generic writers (sheet_writers.hpp) turn a sheet into the text view, markdown,
// json/csv/tsv, the figure's caption and the PyTorch script. What is truly one lesson's own (a
// figure's panels, a rotation's narration) stays in the lesson's files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/ids.hpp"
#include "core/kernels/embedding.hpp"
#include "core/matrix.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/text_options.hpp"

namespace embdemo {

// One line of the text header and/or one field of the JSON head.
struct SheetParameter {
    std::string name;
    std::string text;  // as the header prints it ("30,000"); empty: JSON only
    std::string note;  // in parentheses after it
    std::string json;  // its JSON value ("30000", "true"); empty: text only
};

// How the text view labels a table's rows and which it keeps in view.
enum class TableRole {
    weight,  // a table rows are selected from: rows by index, `selected` marked and kept in view
    per_id,  // one row per id (n rows): rows labelled "ids[i]  id k"
    per_bag, // one row per bag (B rows), labelled by the block: every per-bag block shows the same rows
    plain,   // rows by index
};

struct SheetTable {
    SheetTable(std::string table_name, std::string torch_expression, TableRole table_role,
               std::vector<std::size_t> table_shape, const Matrix* values, bool json = true)
        : name(std::move(table_name)), torch(std::move(torch_expression)), role(table_role),
          shape(std::move(table_shape)), matrix(values), in_json(json) {}

    std::string name;   // the JSON key and --show name: "lookup_e1"
    std::string torch;  // the PyTorch expression, for CSV's comment line: "e1(ids)"
    TableRole role = TableRole::plain;
    std::vector<std::size_t> shape;  // {B, T, d} or {n, d}; the matrix holds it as (B*T) x d
    const Matrix* matrix = nullptr;  // null in the plan (shapes only)
    bool in_json = true;             // json, csv, tsv and markdown print every value
    std::vector<std::size_t> selected;  // a weight's rows the run selects (ascending, distinct)
    // What the selected rows are, for the note that counts those a summary leaves out.
    std::string selected_what = "the rows the ids use";
    std::string python;  // the script's tensor that must have these bits ("" : not re-checked)
    std::string what;    // the script's words for it: "E1[idx]"
    // The rows of its shape that `matrix` holds (ascending), when it holds only some: a chapter's
    // n x V logits keep the rows a summary prints. Empty: every row. Known from the shape alone.
    std::vector<std::size_t> held_rows;
    bool integral = false;  // its values are whole numbers (ids), printed so in json, csv and tsv
    // Values the script embeds for it beside or instead of asserting it whole (bag's M: its used
    // columns only, and the per-sample weights), for the script's plan.
    std::uint64_t script_bound = 0;

    std::size_t rows() const;  // of the shape: n for a per-id table, whatever `matrix` holds
    std::uint64_t held_values() const;  // the float32 values `matrix` holds
};

// A block of the text view: a title line and the rows of one table, or row pairs of two tables
// (the lookup on top, its one-hot twin under it).
struct SheetBlock {
    static SheetBlock rows_of(std::string title, std::string table);
    static SheetBlock pair(std::string title, std::string top, std::string under, std::string label,
                           std::string under_label);

    std::string title;  // the whole title line: "E1 = e1.weight   4 x 2   > marks the rows the ids use"
    std::string table;
    std::string under;                  // the pair's second table ("" : no pair)
    std::string label, under_label;     // after a pair's row label: "E1[ids]", "one_hot @ E1"
    std::vector<std::string> labels;    // per row of `table` ("" : by its role)
    std::vector<std::string> notes;     // per row, right of the cells
    // Blocks of one width share their columns, and those of one group their number format too;
    // a group of its own spells a separate tensor as PyTorch prints it (tied's E and H).
    int group = 0;
    // The lesson's own lines under the block, in the block's number format (tied's top K).
    std::function<std::string(const NumberFormat&)> after;
    std::vector<std::size_t> keep_columns;  // columns a summary keeps in view (a claim names them)
    // The pair's under row as text per column, instead of the under table's numbers (max's
    // winning ids under its output).
    std::function<std::string(std::size_t row, std::size_t col)> under_cell;
};

// A comparison the lesson makes, and what it compared.
struct SheetCheck {
    SheetCheck(std::string what, std::string first, std::string second, const Comparison& verdict,
               std::size_t compared, bool in_count = true)
        : subject(std::move(what)), a(std::move(first)), b(std::move(second)), comparison(verdict),
          values(compared), counted(in_count) {}

    std::string subject;     // "E1[ids] and one_hot(ids) @ E1"
    std::string a, b;        // table names
    Comparison comparison;
    std::size_t values = 0;  // how many values were compared
    bool counted = true;     // in the verdict's count (false: a consequence the verdict adds after it)
};

// A sentence that states a count, a formula or a relation, with what re-checks it.
struct SheetClaim {
    SheetClaim(std::string text, std::string field, std::string field_json, std::string python_lines,
               std::function<bool()> check)
        : sentence(std::move(text)), json_field(std::move(field)), json(std::move(field_json)),
          python(std::move(python_lines)), holds(std::move(check)) {}

    std::string sentence;    // as every format prints it, computed from the run
    std::string json_field;  // its structured data in the JSON ("" : none)
    std::string json;
    std::string python;      // Python lines that assert it in the script ("" : none)
    // Re-checks the sentence against the numbers of the run, without the code that wrote it:
    // tests call it on random cases.
    std::function<bool()> holds;
    bool paragraph = false;  // the text view starts a paragraph with it
    // The text view's own layout of the data the sentence speaks of (a table of scores), printed
    // under it; the JSON field carries the same data for machines.
    std::function<std::string(int precision)> text_after;
};

struct LessonSheet {
    std::string title;   // the text view's first line; the heading of markdown and html
    std::string schema;  // "embdemo-factor/1"
    const IdBatch* ids = nullptr;  // a text's ids name their tokens; bag's typed bags have none
    std::string tokens_after = "ids";  // the parameter a text's lines follow (bag: "bags")
    std::vector<SheetParameter> parameters;
    std::vector<SheetTable> tables;  // in the order the JSON prints them
    std::vector<SheetBlock> blocks;  // in the order the text view prints them
    std::vector<SheetCheck> checks;  // none: the lesson compares nothing, and has no verdict
    std::vector<SheetClaim> claims;  // printed after the blocks, in order
    // JSON fields that are no claim's (a result the run did not have, as null), before the claims'.
    std::vector<std::pair<std::string, std::string>> fields;
    // The verdict: "<agree> bit for bit (N values)<agree_after>" when every check is identical,
    // otherwise "K of N values differ <disagree>".
    std::string agree, agree_after, disagree;
    std::string verdict;  // the lesson's own verdict detail, when it measures more than a count (bag's ulps)
    // A step-by-step view (--trace) printed between the blocks and the claims.
    std::function<std::string(const TextOptions&)> trace;
    // The script: what it reproduces, its run line, imports, and the PyTorch lines that recreate
    // the run (the tensors the tables' `python` names).
    std::string script_what, script_run, script_imports;
    std::string script_definitions;  // functions the lines call, before the ids
    std::vector<std::string> torch_lines;
    std::string script_after;        // the lesson's own checks, after the claims' asserts
    // The closing line's "what agrees": every tensor bit for bit, or the Python variable that says
    // what does (train's, whose overflowing runs can end in NaN with other sign bits).
    std::string script_agreement_variable;

    const SheetTable& table(const std::string& name) const;
    bool identical() const;  // every check
};

// The parameters every lesson on a table of ids starts with: ids (with `ids_note`, or their count
// and shape), vocab (where V came from) and, for JSON alone, vocab_inferred.
std::vector<SheetParameter> id_table_parameters(const IdBatch& ids, std::uint64_t vocab_size, bool vocab_inferred,
                                                std::string ids_note = "");

// "4 x 2", "30,000 x 768": a block title's shape.
std::string shape_words(std::size_t rows, std::size_t cols);

// The values a table's shape holds, saturating at UINT64_MAX instead of wrapping.
std::uint64_t table_values(const SheetTable& table);

// The numbers the machine formats (json, csv, tsv) and the script would print for these tables:
// the plan the printed-numbers cap holds, known from the shapes before the run.
std::uint64_t report_values(const std::vector<SheetTable>& tables);
std::uint64_t script_values(const std::vector<SheetTable>& tables);

}  // namespace embdemo
