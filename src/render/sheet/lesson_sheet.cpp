#include "render/sheet/lesson_sheet.hpp"

#include <cstdint>
#include <stdexcept>

#include "core/limits.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/parameters.hpp"

namespace embdemo {
const SheetTable& LessonSheet::table(const std::string& name) const {
    for (const SheetTable& candidate : tables) {
        if (candidate.name == name) return candidate;
    }
    throw std::logic_error("a lesson sheet names a table it does not list: " + name);
}

bool LessonSheet::identical() const {
    for (const SheetCheck& check : checks) {
        if (!check.comparison.identical) return false;
    }
    return true;
}

SheetBlock SheetBlock::rows_of(std::string title, std::string table) {
    SheetBlock block;
    block.title = std::move(title);
    block.table = std::move(table);
    return block;
}

SheetBlock SheetBlock::pair(std::string title, std::string top, std::string under, std::string label,
                            std::string under_label) {
    SheetBlock block = rows_of(std::move(title), std::move(top));
    block.under = std::move(under);
    block.label = std::move(label);
    block.under_label = std::move(under_label);
    return block;
}

std::vector<SheetParameter> id_table_parameters(const IdBatch& ids, std::uint64_t vocab_size, bool vocab_inferred,
                                                std::string ids_note) {
    if (ids_note.empty()) ids_note = describe_id_count(ids.shape(), ids.values.size());
    return {
        {"ids", format_id_batch(ids), std::move(ids_note), ids_json(ids)},
        {"vocab", group_thousands(vocab_size), vocab_note(table_vocab_source(vocab_inferred, ids, vocab_size), ids.source.tokenizer),
         std::to_string(vocab_size)},
        {"vocab_inferred", "", "", vocab_inferred ? "true" : "false"},
    };
}

std::string shape_words(std::size_t rows, std::size_t cols) {
    return group_thousands(rows) + " x " + group_thousands(cols);
}

namespace {

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

}  // namespace

std::uint64_t table_values(const SheetTable& table) {
    std::uint64_t count = 1;
    for (const std::size_t extent : table.shape) count = checked_multiply(count, extent).value_or(UINT64_MAX);
    return count;
}

std::size_t SheetTable::rows() const {
    std::size_t count = 1;
    for (std::size_t axis = 0; axis + 1 < shape.size(); ++axis) count *= shape[axis];
    return count;
}

std::uint64_t SheetTable::held_values() const {
    if (held_rows.empty() || shape.empty()) return table_values(*this);
    return checked_multiply(held_rows.size(), shape.back()).value_or(UINT64_MAX);
}

std::uint64_t report_values(const std::vector<SheetTable>& tables) {
    std::uint64_t count = 0;
    for (const SheetTable& table : tables) count = saturating_add(count, table.in_json ? table_values(table) : 0);
    return count;
}

std::uint64_t script_values(const std::vector<SheetTable>& tables) {
    std::uint64_t count = 0;
    for (const SheetTable& table : tables) {
        count = saturating_add(count, table.python.empty() ? 0 : table_values(table));
        count = saturating_add(count, table.script_bound);
    }
    return count;
}

}  // namespace embdemo
