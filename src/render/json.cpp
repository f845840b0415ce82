#include "render/json.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "render/explain.hpp"
#include "render/json_text.hpp"
#include "render/lesson_report.hpp"
#include "render/number_format.hpp"

namespace embdemo {
namespace {

// null when identical; otherwise where the first difference is and why.
void append_difference(std::string& out, const std::optional<Difference>& difference, const IdShape& shape) {
    if (!difference) {
        out += "  \"first_difference\": null,\n";
        return;
    }
    const Difference& d = *difference;
    out += "  \"first_difference\": {\n";
    out += fmt::format("    \"position\": {},\n", d.position);
    out += fmt::format("    \"id\": {},\n", d.id);
    out += fmt::format("    \"column\": {},\n", d.column);
    out += fmt::format("    \"lookup\": {},\n", json_number(d.lookup_value));
    out += fmt::format("    \"onehot_matmul\": {},\n", json_number(d.product_value));
    out += fmt::format("    \"lookup_bits\": \"0x{:08x}\",\n", d.lookup_bits);
    out += fmt::format("    \"onehot_matmul_bits\": \"0x{:08x}\",\n", d.product_bits);
    out += fmt::format("    \"cause\": \"{}\",\n", difference_cause_name(d.cause));
    out += fmt::format("    \"nan_source\": \"{}\",\n", nan_source_name(d.nan_source));
    const bool has_row = d.cause == Difference::Cause::nonfinite_elsewhere ||
                         d.nan_source == Difference::NanSource::other_row ||
                         d.nan_source == Difference::NanSource::default_nan;
    out += fmt::format("    \"weight_row\": {},\n", has_row ? std::to_string(d.source_row) : "null");
    out += fmt::format("    \"explanation\": {}\n", json_string(explain_difference(d, shape)));
    out += "  },\n";
}

// A batch's per-id matrices nest as B x T x columns; E, and a flat list's matrices, as rows.
void append_matrix(std::string& out, const char* name, const Matrix& m, bool as_integers,
                   const std::vector<std::size_t>& shape) {
    const LessonTable table{name, "", &m, shape, as_integers};
    out += fmt::format("  \"{}\": ", name);
    append_json_table(out, table);
    out += ",\n";
}

}  // namespace

std::string render_json(const DemoReport& report, const MatrixSelection& show) {
    const DemoRequest& request = report.request;
    std::string out = "{\n";
    out += fmt::format("  \"schema\": \"{}\",\n", k_json_schema);
    out += fmt::format("  \"ids\": {},\n", ids_json(request.id_batch()));
    out += id_source_json(request.id_batch(), "  ");
    out += fmt::format("  \"vocab\": {},\n", request.vocab_size);
    out += fmt::format("  \"vocab_inferred\": {},\n", request.vocab_inferred);
    out += fmt::format("  \"dim\": {},\n", request.dim);
    const bool from_file = request.origin.kind == WeightOrigin::Kind::file;
    // A seed means nothing for weights read from a file.
    out += fmt::format("  \"seed\": {},\n", from_file ? "null" : std::to_string(request.seed));
    out += fmt::format("  \"weight_source\": \"{}\",\n", weight_source_name(request.origin));
    out += fmt::format("  \"weight_file\": {},\n", from_file ? json_string(request.origin.detail) : "null");
    const MatrixSelection every(k_report_matrices.begin(), k_report_matrices.end());
    if (!show.empty()) {
        std::vector<std::string> names;
        for (const ReportMatrix which : show) names.push_back('"' + std::string(matrix_name(which)) + '"');
        out += fmt::format("  \"shown\": [{}],\n", fmt::join(names, ", "));
    }
    for (const ReportMatrix which : show.empty() ? every : show) {
        const Matrix& m = report_matrix(report, which);
        const IdShape& ids = request.shape;
        append_matrix(out, matrix_name(which), m, which == ReportMatrix::onehot,
                      which == ReportMatrix::weight ? std::vector<std::size_t>{m.rows, m.cols}
                                                    : rows_shape(ids.batch, ids.seq, ids.batched, m.cols));
    }
    out += fmt::format("  \"identical\": {},\n", report.verdict.identical);
    out += fmt::format("  \"differing\": {},\n", report.verdict.differing);
    out += fmt::format("  \"max_abs_diff\": {},\n", json_number(report.verdict.max_abs_diff));
    append_difference(out, report.difference, request.shape);
    out += fmt::format("  \"linear_identical\": {}\n", report.linear_verdict.identical);
    out += "}\n";
    return out;
}

}  // namespace embdemo
