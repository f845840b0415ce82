#include "render/views/grad/report.hpp"

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/parameters.hpp"
#include "render/views/max_norm_report.hpp"

namespace embdemo {
namespace {

const char* upstream_name(UpstreamSource source) {
    return source == UpstreamSource::file ? "file" : name_of(k_upstream_sources, source);
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

// Issue #15's tables, after the four of embdemo-grad/1 so that its readers find theirs unchanged.
void add_partways_tables(const GradLesson& lesson, std::vector<LessonTable>& tables) {
    const GradRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::size_t d = request.dim;
    if (request.max_norm) {
        tables.emplace_back("weight_after", "E after emb(ids) renormalised it", &lesson.weight_after,
                            std::vector<std::size_t>{request.vocab_size, d});
    }
    if (request.sparse) {
        tables.emplace_back("grad_values", "sparse grad values, at grad_indices", &lesson.sparse_grad.values,
                            std::vector<std::size_t>{lesson.sparse_grad.indices.size(), d});
        tables.emplace_back("grad_coalesced_values", "coalesced, at grad_coalesced_indices",
                            &lesson.sparse_coalesced.values,
                            std::vector<std::size_t>{lesson.sparse_coalesced.indices.size(), d});
    }
    // Past k_onehot_kept_values only the rows the text view lists are kept: json, csv and tsv
    // are refused before (they would print every score), and markdown says what it leaves out.
    if (lesson.grad_onehot_input.whole()) {
        tables.emplace_back("grad_onehot_input", "dL/dX = G @ E.T", &lesson.grad_onehot_input.values,
                            rows_shape(ids.batch, ids.seq, ids.batched, request.vocab_size));
    }
}

void add_partways_checks(const GradLesson& lesson, std::vector<LessonField>& checks) {
    const GradRequest& request = lesson.request;
    if (request.max_norm) checks.push_back({"norms", renorm_rows_json(lesson.renorm)});
    if (!request.sparse) return;
    const auto list = [](const std::vector<std::uint64_t>& values) { return fmt::format("[{}]", fmt::join(values, ", ")); };
    checks.push_back({"grad_indices", list(lesson.sparse_grad.indices)});
    checks.push_back({"grad_coalesced_indices", list(lesson.sparse_coalesced.indices)});
    checks.push_back({"grad_dense_bytes", std::to_string(request.vocab_size * request.dim * sizeof(float))});
    checks.push_back({"grad_sparse_bytes", std::to_string(sparse_grad_bytes(lesson.sparse_grad.indices.size(), request.dim))});
    checks.push_back({"grad_coalesced_bytes",
                      std::to_string(sparse_grad_bytes(lesson.sparse_coalesced.indices.size(), request.dim))});
}

}  // namespace

std::uint64_t grad_report_values(const GradRequest& request) {
    const std::uint64_t v = request.vocab_size, d = request.dim, n = request.ids.values.size();
    const std::uint64_t sparse = request.sparse ? 2 * n * d : 0;  // uncoalesced and coalesced values
    return 3 * v * d + n * d + n * v + (request.max_norm ? v * d : 0) + sparse;
}

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
        {"seed", seed_json(request.seed, seed_draws_table(request.origin) || request.upstream == UpstreamSource::randn)},
        {"weight_source", json_string(weight_source_name(request.origin))},
        {"weight_file", from_file ? json_string(request.origin.detail) : "null"},
        {"padding_idx", request.padding_idx ? std::to_string(*request.padding_idx) : "null"},
        {"padding_row", lesson.options.padding_row ? std::to_string(*lesson.options.padding_row) : "null"},
        {"scale_grad_by_freq", request.scale_grad_by_freq ? "true" : "false"},
        {"upstream_source", json_string(upstream_name(request.upstream))},
        {"max_norm", request.max_norm ? json_number(request.max_norm->max_norm) : "null"},
        {"norm_type", request.max_norm ? json_number(request.max_norm->norm_type) : "null"},
        {"sparse", request.sparse ? "true" : "false"},
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
    add_partways_tables(lesson, report.tables);
    // Summarised views keep the rows the ids use in sight, up to a screenful of them.
    constexpr std::size_t k_max_kept_rows = 8;
    std::vector<std::size_t> used;
    for (const GradRow& row : lesson.comparison.rows) {
        if (used.size() < k_max_kept_rows) used.push_back(row.row);
    }
    for (LessonTable& table : report.tables) {
        const bool vocab_rows = table.name == "weight" || table.name == "grad_lookup" ||
                                table.name == "grad_onehot" || table.name == "weight_after";
        if (vocab_rows) table.keep_rows = used;
    }
    const Comparison& whole = lesson.comparison.whole;
    report.checks = {
        {"rows_with_gradient", std::to_string(lesson.comparison.rows_with_gradient)},
        {"identical", whole.identical ? "true" : "false"},
        {"differing", std::to_string(whole.differing)},
        {"max_abs_diff", json_number(whole.max_abs_diff)},
        {"rows", rows_json(lesson.comparison)},
    };
    add_partways_checks(lesson, report.checks);
    const OneHotInputScores& scores = lesson.grad_onehot_input;
    if (!scores.whole()) {
        report.checks.push_back(
            {"grad_onehot_input",
             json_string(fmt::format("not shown: {} x {} scores, more than {} (the text view lists the lowest per "
                                     "position)",
                                     group_thousands(scores.positions), group_thousands(scores.vocab_size),
                                     group_thousands(k_onehot_kept_values)))});
    }
    add_id_source(report, request.ids);
    return report;
}

}  // namespace embdemo
