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

namespace embdemo {

// One line of the text header and/or one field of the JSON head.
struct SheetParameter {
    std::string name;
    std::string text;  // as the header prints it ("30,000"); empty: JSON only
    std::string note;  // in parentheses after it
    std::string json;  // its JSON value ("30000", "true"); empty: text only
};

// How the text view labels a table's rows.
enum class TableRole {
    weight,  // a V-row table the ids select from: rows by index, the used ones marked and kept in view
    per_id,  // one row per id (n rows): rows labelled "ids[i]  id k"
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
    bool in_json = true;              // json, csv, tsv and markdown print every value
    // The text view: a block titled "title   rows x cols[   note]" (no title: not printed alone).
    std::string title;
    std::string note;
    // A per-id table whose rows print under this one's, each pair labelled (pairs[i] in
    // LessonSheet::pairs names them).
    std::string python;  // the script's tensor that must have these bits ("" : not re-checked)
    std::string what;    // the script's words for it: "E1[idx]"
};

// Two per-id tables printed as row pairs in one block: the lookup on top, its one-hot twin under it.
struct SheetPair {
    std::string title;  // "The lookup in E1, and one_hot(ids) @ E1 under it"
    std::string top, bottom;              // table names
    std::string top_label, bottom_label;  // "E1[ids]", "one_hot @ E1"
};

// A comparison the lesson makes, and what it compared.
struct SheetCheck {
    std::string subject;      // "E1[ids] and one_hot(ids) @ E1"
    std::string a, b;         // table names
    Comparison comparison;
    std::size_t values = 0;   // how many values were compared
};

// A sentence that states a count, a formula or a relation, with what re-checks it.
struct SheetClaim {
    std::string sentence;     // as every format prints it, computed from the run
    std::string json_field;   // its structured data in the JSON ("" : none)
    std::string json;
    std::string python;       // Python lines that assert it in the script ("" : none)
    // Re-checks the sentence against the numbers of the run, without the code that wrote it:
    // tests call it on random cases.
    std::function<bool()> holds;
};

struct LessonSheet {
    std::string title;   // the text view's first line; the heading of markdown and html
    std::string schema;  // "embdemo-factor/1"
    const IdBatch* ids = nullptr;
    std::vector<SheetParameter> parameters;
    std::vector<SheetTable> tables;  // in the order the text view and the JSON print them
    std::vector<SheetPair> pairs;    // blocks after the tables' own, in order
    std::vector<SheetCheck> checks;
    std::vector<SheetClaim> claims;  // printed after the blocks, in order
    std::string agree;      // the verdict when every check is identical: "both routes agree"
    std::string disagree;   // the place of the differences: "between the routes"
    // The script: what it reproduces, its run line, imports, and the PyTorch lines that recreate
    // the run (the tensors the tables' `python` names).
    std::string script_what, script_run, script_imports;
    std::vector<std::string> torch_lines;

    const SheetTable& table(const std::string& name) const;
    bool identical() const;  // every check
};

// The numbers the machine formats (json, csv, tsv) and the script would print for these tables:
// the plan the printed-numbers cap holds, known from the shapes before the run.
std::uint64_t report_values(const std::vector<SheetTable>& tables);
std::uint64_t script_values(const std::vector<SheetTable>& tables);

}  // namespace embdemo
