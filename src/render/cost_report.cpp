#include "render/cost_report.hpp"

#include <fmt/format.h>

#include "render/json_text.hpp"

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
    report.checks = {{"rows", rows_json(lesson.rows)}};
    return report;
}

}  // namespace embdemo
