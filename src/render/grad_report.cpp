#include "render/grad_report.hpp"

#include <fmt/format.h>

#include "render/json_text.hpp"

namespace embdemo {
namespace {

const char* upstream_name(UpstreamSource source) {
    switch (source) {
        case UpstreamSource::randn: break;
        case UpstreamSource::ones: return "ones";
        case UpstreamSource::file: return "file";
    }
    return "randn";
}

const char* expected_name(GradRowDifference difference) {
    switch (difference) {
        case GradRowDifference::none: break;
        case GradRowDifference::padding: return "padding";
        case GradRowDifference::scaled: return "scaled";
    }
    return "none";
}

std::string rows_json(const GradComparison& comparison) {
    std::vector<std::string> rows;
    for (const GradRow& row : comparison.rows) {
        rows.push_back(fmt::format(
            "{{\"row\": {}, \"positions\": [{}], \"padding\": {}, \"scale\": {}, \"expected\": \"{}\", "
            "\"identical\": {}}}",
            row.row, fmt::join(row.positions, ", "), row.padding, json_number(row.scale),
            expected_name(row.expected), row.identical));
    }
    if (rows.empty()) return "[]";
    return "[\n    " + fmt::format("{}", fmt::join(rows, ",\n    ")) + "\n  ]";
}

}  // namespace

LessonReport grad_report(const GradLesson& lesson) {
    const GradRequest& request = lesson.request;
    const bool from_file = request.origin.kind == WeightOrigin::Kind::file;
    LessonReport report;
    report.head = {
        {"schema", json_string(k_grad_json_schema)},
        {"ids", ids_json(request.ids)},
        {"vocab", std::to_string(request.vocab_size)},
        {"vocab_inferred", request.vocab_inferred ? "true" : "false"},
        {"dim", std::to_string(request.dim)},
        {"seed", std::to_string(request.seed)},
        {"weight_source", json_string(weight_source_name(request.origin))},
        {"weight_file", from_file ? json_string(request.origin.detail) : "null"},
        {"padding_idx", request.padding_idx ? std::to_string(*request.padding_idx) : "null"},
        {"padding_row", lesson.options.padding_row ? std::to_string(*lesson.options.padding_row) : "null"},
        {"scale_grad_by_freq", request.scale_grad_by_freq ? "true" : "false"},
        {"upstream_source", json_string(upstream_name(request.upstream))},
    };
    const IdBatch& ids = request.ids;
    const std::size_t v = request.vocab_size;
    const std::size_t d = request.dim;
    report.tables = {
        {"weight", "E", &lesson.weight, {v, d}, false},
        {"upstream", "G = dL/d(lookup)", &lesson.upstream, rows_shape(ids.batch, ids.seq, ids.batched, d), false},
        {"grad_lookup", "emb.weight.grad", &lesson.grad_lookup, {v, d}, false},
        {"grad_onehot", "one_hot(ids).T @ G", &lesson.grad_onehot, {v, d}, false},
    };
    // Summarised views keep the rows the ids use in sight, up to a screenful of them.
    constexpr std::size_t k_max_kept_rows = 8;
    std::vector<std::size_t> used;
    for (const GradRow& row : lesson.comparison.rows) {
        if (used.size() < k_max_kept_rows) used.push_back(row.row);
    }
    for (LessonTable& table : report.tables) {
        if (table.name != "upstream") table.keep_rows = used;
    }
    const Comparison& whole = lesson.comparison.whole;
    report.checks = {
        {"rows_with_gradient", std::to_string(lesson.comparison.rows_with_gradient)},
        {"identical", whole.identical ? "true" : "false"},
        {"differing", std::to_string(whole.differing)},
        {"max_abs_diff", json_number(whole.max_abs_diff)},
        {"rows", rows_json(lesson.comparison)},
    };
    add_id_source(report, request.ids.source);
    return report;
}

}  // namespace embdemo
