#include "render/views/lookup_report.hpp"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "render/kit/explain.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/parameters.hpp"

namespace embdemo {
namespace {

// null when identical; otherwise where the first difference is and why, as an object whose
// lines are indented to sit as a field of the top-level object.
std::string difference_json(const std::optional<Difference>& difference, const IdShape& shape) {
    if (!difference) return "null";
    const Difference& d = *difference;
    const bool has_row = d.cause == Difference::Cause::nonfinite_elsewhere ||
                         d.nan_source == Difference::NanSource::other_row ||
                         d.nan_source == Difference::NanSource::default_nan;
    const std::vector<std::pair<const char*, std::string>> fields = {
        {"position", std::to_string(d.position)},
        {"id", std::to_string(d.id)},
        {"column", std::to_string(d.column)},
        {"lookup", json_number(d.lookup_value)},
        {"onehot_matmul", json_number(d.product_value)},
        {"lookup_bits", fmt::format("\"0x{:08x}\"", d.lookup_bits)},
        {"onehot_matmul_bits", fmt::format("\"0x{:08x}\"", d.product_bits)},
        {"cause", json_string(difference_cause_name(d.cause))},
        {"nan_source", json_string(nan_source_name(d.nan_source))},
        {"weight_row", has_row ? std::to_string(d.source_row) : "null"},
        {"explanation", json_string(explain_difference(d, shape))},
    };
    std::string out = "{\n";
    for (std::size_t i = 0; i < fields.size(); ++i) {
        out += fmt::format("    \"{}\": {}{}\n", fields[i].first, fields[i].second, i + 1 < fields.size() ? "," : "");
    }
    return out + "  }";
}

}  // namespace

LessonReport lookup_report(const DemoReport& report, const MatrixSelection& show, bool timing) {
    const DemoRequest& request = report.request;
    const bool from_file = request.origin.kind == WeightOrigin::Kind::file;
    LessonReport out;
    out.head = {
        {"schema", json_string(k_json_schema)},
        {"ids", ids_json(request.id_batch())},
        {"vocab", std::to_string(request.vocab_size)},
        {"vocab_inferred", request.vocab_inferred ? "true" : "false"},
        {"dim", std::to_string(request.dim)},
        // A seed means nothing for weights read from a file or made by a pattern.
        {"seed", seed_json(request.seed, seed_draws_table(request.origin))},
        {"weight_source", json_string(weight_source_name(request.origin))},
        {"weight_file", from_file ? json_string(request.origin.detail) : "null"},
    };
    add_id_source(out, request.id_batch());
    if (!show.empty()) {
        std::vector<std::string> names;
        for (const ReportMatrix which : show) names.push_back('"' + std::string(matrix_name(which)) + '"');
        out.head.push_back({"shown", fmt::format("[{}]", fmt::join(names, ", "))});
    }
    const MatrixSelection every(k_report_matrices.begin(), k_report_matrices.end());
    const IdShape& ids = request.shape;
    for (const ReportMatrix which : show.empty() ? every : show) {
        const Matrix& m = report_matrix(report, which);
        out.tables.emplace_back(matrix_name(which), matrix_formula(which), &m,
                                which == ReportMatrix::weight || !ids.batched
                                    ? std::vector<std::size_t>{m.rows, m.cols}
                                    : rows_shape(ids.batch, ids.seq, ids.batched, m.cols),
                                which == ReportMatrix::onehot);
    }
    out.checks = {
        {"identical", report.verdict.identical ? "true" : "false"},
        {"differing", std::to_string(report.verdict.differing)},
        {"max_abs_diff", json_number(report.verdict.max_abs_diff)},
        {"first_difference", difference_json(report.difference, request.shape)},
        {"linear_identical", report.linear_verdict.identical ? "true" : "false"},
    };
    if (timing) {
        out.checks.push_back({"timing", fmt::format("{{\"lookup_seconds\": {}, \"onehot_matmul_seconds\": {}, \"threads\": {}}}",
                                                    json_number(report.timing.lookup_seconds),
                                                    json_number(report.timing.product_seconds),
                                                    report.timing.product_threads)});
    }
    return out;
}

}  // namespace embdemo
