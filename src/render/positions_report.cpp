#include "render/positions_report.hpp"

#include <fmt/format.h>

#include "render/json_text.hpp"

namespace embdemo {

LessonReport positions_report(const PositionsLesson& lesson) {
    const PositionsRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    LessonReport report;
    report.head = {
        {"schema", json_string(k_positions_json_schema)},
        {"ids", ids_json(ids)},
        {"vocab", std::to_string(request.vocab_size)},
        {"vocab_inferred", request.vocab_inferred ? "true" : "false"},
        {"dim", std::to_string(request.dim)},
        {"context", std::to_string(request.context)},
        {"context_inferred", request.context_inferred ? "true" : "false"},
        {"seed", std::to_string(request.seed)},
    };
    if (!request.targets.empty()) {
        const LoaderSettings& loader = request.loader;
        report.head.push_back({"targets", ids_json(target_batch(request.targets, ids.batch, ids.seq))});
        report.head.push_back({"loader", fmt::format("{{\"batch_size\": {}, \"max_length\": {}, \"stride\": {}, "
                                                     "\"windows\": {}}}",
                                                     loader.batch, loader.context, loader.stride, request.windows)});
    }
    const std::size_t d = request.dim;
    const auto per_id = rows_shape(ids.batch, ids.seq, ids.batched, d);
    report.tables = {
        {"weight", "E = tok.weight", &lesson.weight, {request.vocab_size, d}, false},
        {"position_weight", "P = pos.weight", &lesson.position_weight, {request.context, d}, false},
        {"token_lookup", "tok(ids)", &lesson.token_lookup, per_id, false},
        {"position_lookup", "pos(torch.arange(T))", &lesson.position_lookup, {ids.seq, d}, false},
        {"output", "tok(ids) + pos(torch.arange(T))", &lesson.output, per_id, false},
        {"onehot_output", "one_hot(ids) @ E + one_hot(arange(T)) @ P", &lesson.onehot_output, per_id, false},
    };
    std::string repeated = "null";
    if (lesson.repeated) {
        const RepeatedToken& r = *lesson.repeated;
        repeated = fmt::format("{{\"id\": {}, \"positions\": [{}, {}], \"differing_columns\": {}}}", r.id,
                               r.first, r.second, r.differing_columns);
    }
    const bool identical = lesson.token_check.identical && lesson.position_check.identical &&
                           lesson.output_check.identical;
    report.checks = {
        {"repeated_token", repeated},
        {"identical", identical ? "true" : "false"},
        {"differing", std::to_string(lesson.output_check.differing)},
    };
    add_id_source(report, ids.source);
    return report;
}

}  // namespace embdemo
