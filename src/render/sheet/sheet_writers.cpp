#include "render/sheet/sheet_writers.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/markdown_text.hpp"
#include "render/kit/python_kit.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

// A block of the text view as printed: labelled rows of one matrix, or of a pair of matrices
// (the bottom's row printed under the top's).
struct TextBlock {
    std::string title;
    const Matrix* top = nullptr;
    const Matrix* bottom = nullptr;
    std::function<std::string(std::size_t row, std::size_t col)> under_cell;  // instead of `bottom`'s numbers
    std::vector<std::size_t> keep_columns;
    std::vector<std::size_t> shown;      // rows of the table's shape, k_gap allowed
    std::vector<std::size_t> in_matrix;  // the same rows as rows of `top` (a held table keeps some)
    std::vector<BlockRow> rows;
    int group = 0;
};

std::string id_label(const IdBatch& ids, std::size_t i) {
    return fmt::format("{}  id {}", flat_position_label(ids, i), ids.values[i]);
}

// The rows of `table` a block shows: every per-id block the same (`shown_n`), otherwise
// PyTorch's summary with the selected rows kept in view.
std::vector<std::size_t> shown_of(const SheetTable& table, const std::vector<std::size_t>& shown_n,
                                  const std::vector<std::size_t>& shown_b) {
    if (table.role == TableRole::per_id) return shown_n;
    if (table.role == TableRole::per_bag) return shown_b;
    return shown_rows(table.rows(), table.matrix->cols, table.selected);
}

// Where row `row` of a table's shape sits in its matrix.
std::size_t matrix_row(const SheetTable& table, std::size_t row) {
    if (row == k_gap || table.held_rows.empty()) return row;
    const auto at = std::lower_bound(table.held_rows.begin(), table.held_rows.end(), row);
    if (at == table.held_rows.end() || *at != row) throw std::logic_error("a sheet shows a row its table did not keep");
    return static_cast<std::size_t>(at - table.held_rows.begin());
}

TextBlock text_block(const LessonSheet& sheet, const SheetBlock& spec, const std::vector<std::size_t>& shown_n,
                     const std::vector<std::size_t>& shown_b) {
    const SheetTable& table = sheet.table(spec.table);
    TextBlock block;
    block.title = spec.title;
    block.top = table.matrix;
    block.bottom = spec.under.empty() ? nullptr : sheet.table(spec.under).matrix;
    block.shown = shown_of(table, shown_n, shown_b);
    block.group = spec.group;
    block.under_cell = spec.under_cell;
    block.keep_columns = spec.keep_columns;
    for (const std::size_t row : block.shown) block.in_matrix.push_back(matrix_row(table, row));
    const auto own_label = [&](std::size_t row) {
        if (!spec.labels.empty()) return spec.labels[row];
        return table.role == TableRole::per_id ? id_label(*sheet.ids, row) : std::to_string(row);
    };
    std::size_t width = 0;
    for (const std::size_t row : block.shown) width = row == k_gap ? width : std::max(width, own_label(row).size());
    for (std::size_t r = 0; r < block.shown.size(); ++r) {
        const std::size_t row = block.shown[r], at = block.in_matrix[r];
        if (row == k_gap) {
            block.rows.push_back({k_gap, "", "", false});
            continue;
        }
        const std::string note = spec.notes.empty() ? "" : spec.notes[row];
        const bool marked = std::binary_search(table.selected.begin(), table.selected.end(), row);
        if (!block.bottom) {
            const std::string label = table.role == TableRole::per_id ? pad_right(own_label(row), width) : own_label(row);
            block.rows.push_back({at, label, note, marked});
            continue;
        }
        block.rows.push_back({at, pad_right(own_label(row), width) + "  " + spec.label, note, false});
        block.rows.push_back({at, std::string(width, ' ') + "  " + spec.under_label, "", false});
    }
    return block;
}

// Each pair's first row from the top matrix, the second from the bottom one.
std::string render_text_block(const TextBlock& block, const Screen& screen, Palette palette) {
    if (!block.bottom) return render_block(*block.top, block.rows, widest_label(block.rows), screen, palette);
    std::string out;
    bool second = false;
    const std::size_t label_width = widest_label(block.rows);
    for (const BlockRow& row : block.rows) {
        if (row.row != k_gap && second && block.under_cell) {
            const auto cell = [&](std::size_t col) { return block.under_cell(row.row, col); };
            out += fmt::format("    {}  {}\n", pad_right(row.label, label_width), text_cells(screen, cell, block.top));
        } else {
            out += render_block(row.row != k_gap && second ? *block.bottom : *block.top, {row}, label_width, screen, palette);
        }
        second = row.row != k_gap && !second;
    }
    return out;
}

// The values the verdict counts, and how many of them differ.
std::size_t checked_values(const LessonSheet& sheet) {
    std::size_t total = 0;
    for (const SheetCheck& check : sheet.checks) total += check.counted ? check.values : 0;
    return total;
}

std::size_t differing(const LessonSheet& sheet) {
    std::size_t count = 0;
    for (const SheetCheck& check : sheet.checks) count += check.counted ? check.comparison.differing : 0;
    return count;
}

}  // namespace

std::string sheet_verdict_detail(const LessonSheet& sheet) {
    if (!sheet.verdict.empty()) return sheet.verdict;
    const std::size_t total = checked_values(sheet);
    return sheet.identical() ? fmt::format("{} bit for bit ({}){}", sheet.agree, count_of(total, "value", "values"),
                                           sheet.agree_after)
                             : differing_values(differing(sheet), total) + " " + sheet.disagree;
}

std::string render_sheet_text(const LessonSheet& sheet, const TextOptions& options, bool trace) {
    std::vector<HeaderLine> lines;
    for (const SheetParameter& parameter : sheet.parameters) {
        if (!parameter.text.empty()) lines.push_back({parameter.name, parameter.text, parameter.note});
        // A text's lines (its text, tokens and loader) follow the parameter that holds its ids.
        if (parameter.name == sheet.tokens_after && sheet.ids) {
            const std::vector<HeaderLine> tokens = token_parameters(*sheet.ids);
            lines.insert(lines.end(), tokens.begin(), tokens.end());
        }
    }
    const std::size_t n = sheet.ids ? sheet.ids->values.size() : 0;
    // Every per-id block shows the same rows: those the widest of them would show.
    std::size_t widest = 0;
    for (const SheetTable& table : sheet.tables) {
        if (table.role == TableRole::per_id) widest = std::max(widest, table.matrix->cols);
    }
    const std::vector<std::size_t> shown_n = shown_rows(n, widest);
    // Every per-bag block likewise, with the rows a claim names (selected) kept in view.
    std::size_t bags = 0, widest_bag = 0;
    std::vector<std::size_t> named_bags;
    for (const SheetTable& table : sheet.tables) {
        if (table.role != TableRole::per_bag) continue;
        bags = table.rows();
        widest_bag = std::max(widest_bag, table.shape.back());
        named_bags.insert(named_bags.end(), table.selected.begin(), table.selected.end());
    }
    std::sort(named_bags.begin(), named_bags.end());
    named_bags.erase(std::unique(named_bags.begin(), named_bags.end()), named_bags.end());
    const std::vector<std::size_t> shown_b = shown_rows(bags, widest_bag, named_bags);
    std::vector<TextBlock> blocks;
    for (const SheetBlock& spec : sheet.blocks) blocks.push_back(text_block(sheet, spec, shown_n, shown_b));

    // Blocks of one width share a screen: their columns line up, and within a group a value
    // prints the same.
    std::map<std::size_t, std::vector<const TextBlock*>> by_width;
    for (const TextBlock& block : blocks) by_width[block.top->cols].push_back(&block);
    std::map<std::size_t, Screen> screens;
    for (const auto& [cols, group] : by_width) {
        std::vector<ScreenBlock> screen_blocks;
        std::vector<std::size_t> keep;
        std::size_t label_width = 0, note_width = 0;
        for (const TextBlock* block : group) {
            screen_blocks.push_back({block->top, block->in_matrix, block->group});
            // A pair's rows are read against each other: one format covers both.
            if (block->bottom && !block->under_cell) screen_blocks.push_back({block->bottom, block->in_matrix, block->group});
            keep.insert(keep.end(), block->keep_columns.begin(), block->keep_columns.end());
            label_width = std::max(label_width, widest_label(block->rows));
            note_width = std::max(note_width, widest_note(block->rows));
        }
        screens.emplace(cols, choose_screen(screen_blocks, cols, options.precision,
                                            block_cells_budget(label_width, note_width), keep));
    }

    std::string out = render_header_lines(sheet.title, lines);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const TextBlock& block = blocks[b];
        const SheetBlock& spec = sheet.blocks[b];
        const SheetTable& table = sheet.table(spec.table);
        const Screen& screen = screens.at(block.top->cols);
        out += '\n' + wrap_words(block.title, "", "  ");
        out += render_text_block(block, screen, options.palette);
        // A summary marks at most eight selected rows: it says how many more it leaves out.
        if (!block.bottom) out += hidden_rows_line(hidden_count(block.shown, table.selected), table.selected_what);
        if (spec.after) out += spec.after(screen.format_of(*block.top));
    }
    if (trace && sheet.trace) out += '\n' + sheet.trace(options);
    for (const SheetClaim& claim : sheet.claims) {
        out += (claim.paragraph ? "\n" : "") + wrap_words(claim.sentence, "", "");
        if (claim.text_after) out += claim.text_after(options.precision);
    }
    if (sheet.checks.empty()) return out;
    return out + render_verdict(sheet.identical(), sheet_verdict_detail(sheet), options.palette);
}

LessonReport sheet_report(const LessonSheet& sheet) {
    LessonReport report;
    report.head.push_back({"schema", json_string(sheet.schema)});
    for (const SheetParameter& parameter : sheet.parameters) {
        if (!parameter.json.empty()) report.head.push_back({parameter.name, parameter.json});
    }
    for (const SheetTable& table : sheet.tables) {
        if (!table.in_json) continue;
        report.tables.emplace_back(table.name, table.torch, table.matrix, table.shape);
        report.tables.back().held_rows = table.held_rows;
        report.tables.back().integral = table.integral;
    }
    for (const auto& [name, json] : sheet.fields) report.checks.push_back({name, json});
    for (const SheetClaim& claim : sheet.claims) {
        if (!claim.json_field.empty()) report.checks.push_back({claim.json_field, claim.json});
    }
    if (!sheet.checks.empty()) {
        report.checks.push_back({"identical", sheet.identical() ? "true" : "false"});
        report.checks.push_back({"differing", std::to_string(differing(sheet))});
    }
    if (sheet.ids) add_id_source(report, *sheet.ids, sheet.tokens_after);
    return report;
}

std::string render_sheet_markdown(const LessonSheet& sheet, int precision) {
    std::string out = render_lesson_markdown(sheet_report(sheet), sheet.title, precision) + '\n';
    for (const SheetClaim& claim : sheet.claims) out += markdown_escape(claim.sentence) + "\n\n";
    if (sheet.checks.empty()) return out;
    return out + fmt::format("**verdict**: {} -- {}\n", sheet.identical() ? "IDENTICAL" : "DIFFERENT",
                             markdown_escape(sheet_verdict_detail(sheet)));
}

std::vector<std::string> sheet_caption(const LessonSheet& sheet) {
    std::vector<std::string> caption;
    for (const SheetCheck& check : sheet.checks) {
        caption.push_back(agreement_sentence(check.subject, check.comparison, check.values));
    }
    for (const SheetClaim& claim : sheet.claims) caption.push_back(claim.sentence);
    // The figure summarises a table as the text view does: the rows it leaves out are counted.
    for (const SheetTable& table : sheet.tables) {
        if (table.role != TableRole::weight || !table.matrix) continue;
        const std::vector<std::size_t> shown = shown_rows(table.rows(), table.matrix->cols, table.selected);
        const std::string hidden = hidden_rows_sentence(hidden_count(shown, table.selected), table.selected_what);
        if (!hidden.empty()) caption.push_back(hidden);
    }
    return caption;
}

std::string render_sheet_python(const LessonSheet& sheet) {
    // idx, when a table has a row per id: bag's lines make its own input and offsets.
    const bool per_id = std::any_of(sheet.tables.begin(), sheet.tables.end(),
                                    [](const SheetTable& table) { return table.role == TableRole::per_id; });
    const IdBatch no_ids;
    const IdBatch& ids = sheet.ids ? *sheet.ids : no_ids;
    const IdShape shape = ids.shape();
    const std::size_t n = ids.values.size();
    std::string out = python_preamble(sheet.script_what, sheet.script_run, sheet.script_imports, true);
    out += code_cell(sheet.script_definitions + (per_id ? ids_tensor_python(ids) : std::string()) + '\n' +
                     lines(sheet.torch_lines));
    out += markdown_cell("## The bit check\n\nEvery tensor above against embdemo's, bit for bit, then every claim of the "
                         "run from PyTorch's own tensors.");
    out += "# %%\n";
    for (const SheetTable& table : sheet.tables) {
        if (table.python.empty()) continue;
        const Matrix& m = *table.matrix;
        out += table.role == TableRole::per_id
                   ? expect_bits(table.python, m, all_rows(n), shape_text(m, n, &shape), table.what)
                   : expect_bits(table.python, m, table.what);
    }
    for (const SheetCheck& check : sheet.checks) {
        out += comparison_asserts(sheet.table(check.a).python, sheet.table(check.b).python, check.comparison,
                                  check.subject);
    }
    for (const SheetClaim& claim : sheet.claims) {
        if (claim.python.empty()) continue;
        out += '\n' + markdown_cell(claim.sentence) + "# %%\n" + claim.python;  // the claim as prose, then its check
    }
    out += sheet.script_after;
    const std::string agreement = sheet.script_agreement_variable.empty() ? std::string("every tensor bit for bit")
                                                                          : "{" + sheet.script_agreement_variable + "}";
    const char* quote = sheet.script_agreement_variable.empty() ? "\"" : "f\"";
    if (sheet.checks.empty()) return out + fmt::format("\nprint({}PyTorch agrees with embdemo: {}, and every claim.\")\n", quote, agreement);
    return out + fmt::format("\nprint({}PyTorch agrees with embdemo: {}, the verdict ({}) and every claim.\")\n", quote,
                             agreement, sheet.identical() ? "identical" : "differing as embdemo says");
}

}  // namespace embdemo
