#include "render/views/max_norm_report.hpp"

#include <fmt/format.h>

#include "render/kit/json_text.hpp"
#include "render/kit/parameters.hpp"

namespace embdemo {
namespace {

std::string check_fields(const Comparison& check) {
    return fmt::format("{{\"identical\": {}, \"differing\": {}, \"max_abs_diff\": {}}}", check.identical,
                       check.differing, json_number(check.max_abs_diff));
}

}  // namespace

std::string renorm_rows_json(const std::vector<RenormRow>& rows) {
    std::vector<std::string> items;
    for (const RenormRow& row : rows) {
        items.push_back(fmt::format("{{\"row\": {}, \"norm\": {}, \"rescaled\": {}, \"scale\": {}}}", row.row,
                                    json_number(row.norm), row.rescaled, json_number(row.scale)));
    }
    if (items.empty()) return "[]";
    return "[\n    " + fmt::format("{}", fmt::join(items, ",\n    ")) + "\n  ]";
}

LessonReport max_norm_report(const MaxNormLesson& lesson) {
    const MaxNormRequest& request = lesson.request;
    const DemoRequest& demo = request.demo;
    const bool from_file = demo.origin.kind == WeightOrigin::Kind::file;
    LessonReport report;
    report.head = {
        {"schema", json_string(k_max_norm_json_schema)},
        {"ids", ids_json(request.ids)},
        {"vocab", std::to_string(demo.vocab_size)},
        {"vocab_inferred", demo.vocab_inferred ? "true" : "false"},
        {"dim", std::to_string(demo.dim)},
        {"seed", seed_json(demo.seed, seed_draws_table(demo.origin))},
        {"weight_source", json_string(weight_source_name(demo.origin))},
        {"weight_file", from_file ? json_string(demo.origin.detail) : "null"},
        {"max_norm", json_number(request.max_norm.max_norm)},
        {"norm_type", json_number(request.max_norm.norm_type)},
    };
    const IdBatch& ids = request.ids;
    const std::size_t v = demo.vocab_size;
    const std::size_t d = demo.dim;
    const auto rows = rows_shape(ids.batch, ids.seq, ids.batched, d);
    report.tables = {
        {"weight", "E as drawn", &lesson.weight, {v, d}},
        {"weight_after", "E after emb(ids) renormalised it", &lesson.weight_after, {v, d}},
        {"lookup", "emb(ids) = E_after[ids]", &lesson.lookup, rows},
        {"onehot_matmul", "one_hot(ids) @ E as drawn", &lesson.onehot_drawn, rows},
        {"onehot_matmul_after", "one_hot(ids) @ E_after", &lesson.onehot_after, rows},
    };
    std::vector<std::size_t> used;
    for (const RenormRow& row : lesson.rows) {
        if (used.size() < 8) used.push_back(row.row);
    }
    report.tables[0].keep_rows = used;
    report.tables[1].keep_rows = used;
    report.checks = {
        {"norms", renorm_rows_json(lesson.rows)},
        {"largest_norm_after", json_number(lesson.largest_norm_after)},
        {"identical", lesson.drawn_check.identical ? "true" : "false"},
        {"check_drawn", check_fields(lesson.drawn_check)},
        {"check_after", check_fields(lesson.after_check)},
    };
    return report;
}

}  // namespace embdemo
