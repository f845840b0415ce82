#include "render/views/cost/report.hpp"

#include <array>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "render/kit/json_text.hpp"

namespace embdemo {
namespace {

std::string rows_json(const std::vector<CostRow>& rows) {
    std::vector<std::string> items;
    for (const CostRow& row : rows) {
        items.push_back(fmt::format(
            "{{\"method\": \"{}\", \"pass\": \"{}\", \"multiply_adds\": {}, \"zero_multiplies\": {}, "
            "\"additions\": {}, \"bytes_read\": {}, \"bytes_written\": {}, \"extra_bytes\": {}}}",
            cost_method_name(row.method), cost_pass_name(row.pass), row.multiply_adds, row.zero_multiplies,
            row.additions, row.bytes_read, row.bytes_written, row.extra_bytes));
    }
    return "[\n    " + fmt::format("{}", fmt::join(items, ",\n    ")) + "\n  ]";
}

constexpr std::array<const char*, 8> k_cost_columns = {"method", "pass", "multiply_adds", "zero_multiplies",
                                                      "additions", "bytes_read", "bytes_written", "extra_bytes"};

std::string cost_cell(const CostRow& row, std::size_t column) {
    switch (column) {
        case 0: return cost_method_name(row.method);
        case 1: return cost_pass_name(row.pass);
        case 2: return std::to_string(row.multiply_adds);
        case 3: return std::to_string(row.zero_multiplies);
        case 4: return std::to_string(row.additions);
        case 5: return std::to_string(row.bytes_read);
        case 6: return std::to_string(row.bytes_written);
        default: break;
    }
    return std::to_string(row.extra_bytes);
}

// The preset's parameters and shares (null without --model).
std::string model_json(const ModelPreset* preset) {
    if (!preset) return "null";
    const ModelShare share = model_share(*preset);
    return fmt::format("{{\"label\": {}, \"parameters\": {}, \"tied\": {}, \"table_parameters\": {}, "
                       "\"embedding_parameters\": {}, \"table_share\": {}, \"embedding_share\": {}, "
                       "\"factor_rank\": {}, \"factored_parameters\": {}, \"factored_saving\": {}, "
                       "\"factored_share\": {}}}",
                       json_string(preset->label), preset->parameters, preset->tied, share.table, share.embedding,
                       json_number(share.table_share), json_number(share.embedding_share), share.rank, share.factored,
                       share.saved, json_number(share.factored_share));
}

}  // namespace

LessonReport cost_report(const CostLesson& lesson) {
    const CostRequest& request = lesson.request;
    LessonReport report;
    report.head = {
        {"schema", json_string(k_cost_json_schema)},
        {"model", request.model ? json_string(request.model->name) : "null"},
        {"tokens", std::to_string(request.ids)},
        {"tokens_source", json_string(token_source_name(request.token_source))},
        {"vocab", std::to_string(request.vocab_size)},
        {"vocab_inferred", request.vocab_inferred ? "true" : "false"},
        {"dim", std::to_string(request.dim)},
        {"value_bytes", std::to_string(k_value_bytes)},
        {"index_bytes", std::to_string(k_index_bytes)},
    };
    // A text cut by another tokenizer than GPT-2's names it (GPT-2's runs keep their fields).
    if (request.token_source == TokenSource::text && request.tokenizer != TokenizerKind::gpt2) {
        report.head.insert(report.head.begin() + 4, {"tokenizer", json_string(tokenizer_name(request.tokenizer))});
    }
    report.checks = {{"rows", rows_json(lesson.rows)}, {"model_parameters", model_json(request.model)}};
    // csv/tsv/markdown: the same rows as a table of exact counts (the JSON has them as objects).
    const Matrix* shape = own_matrix(report, Matrix(lesson.rows.size(), k_cost_columns.size()));
    LessonTable table("rows", "each method's work per pass", shape, {lesson.rows.size(), k_cost_columns.size()});
    table.columns.assign(k_cost_columns.begin(), k_cost_columns.end());
    table.in_json = false;
    table.cell_text = [rows = lesson.rows](std::size_t r, std::size_t c) { return cost_cell(rows[r], c); };
    report.tables.push_back(std::move(table));
    return report;
}

}  // namespace embdemo
