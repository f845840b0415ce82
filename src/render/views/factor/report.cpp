#include "render/views/factor/report.hpp"

#include <fmt/format.h>

#include "render/kit/json_text.hpp"

namespace embdemo {
namespace {

std::string parameters_json(const FactorParameters& counts) {
    return fmt::format("{{\"full\": {}, \"factored\": {}}}", counts.full, counts.factored);
}

}  // namespace

LessonReport factor_report(const FactorLesson& lesson) {
    const FactorRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    LessonReport report;
    report.head = {
        {"schema", json_string(k_factor_json_schema)},
        {"ids", ids_json(ids)},
        {"vocab", std::to_string(request.vocab_size)},
        {"vocab_inferred", request.vocab_inferred ? "true" : "false"},
        {"dim", std::to_string(request.dim)},
        {"rank", std::to_string(request.rank)},
        {"seed", std::to_string(request.seed)},
    };
    const auto per_id = [&](std::size_t cols) { return rows_shape(ids.batch, ids.seq, ids.batched, cols); };
    report.tables = {
        {"e1", "e1.weight", &lesson.e1, {request.vocab_size, request.rank}, false},
        {"e2", "proj.weight.T", &lesson.e2, {request.rank, request.dim}, false},
        {"lookup_e1", "e1(ids)", &lesson.lookup_e1, per_id(request.rank), false},
        {"output", "proj(e1(ids)) = E1[ids] @ E2", &lesson.output, per_id(request.dim), false},
        {"onehot_output", "(one_hot(ids) @ E1) @ E2", &lesson.onehot_output, per_id(request.dim), false},
    };
    const bool identical = lesson.first_check.identical && lesson.output_check.identical;
    report.checks = {
        {"parameters", parameters_json(lesson.here)},
        {"albert_parameters", parameters_json(lesson.albert)},
        {"identical", identical ? "true" : "false"},
        {"differing", std::to_string(lesson.first_check.differing + lesson.output_check.differing)},
    };
    add_id_source(report, ids);
    return report;
}

std::uint64_t factor_report_values(const FactorRequest& request) {
    const std::uint64_t v = request.vocab_size, d = request.dim, r = request.rank, n = request.ids.values.size();
    return v * r + r * d + n * r + 2 * n * d;  // e1, e2, lookup_e1, output, onehot_output
}

}  // namespace embdemo
