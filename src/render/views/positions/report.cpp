#include "render/views/positions/report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "render/kit/json_text.hpp"

namespace embdemo {

// {"first": 0, "second": 1, "starts": [...], "offsets": [...], "scores": [[...]]} or null.
std::string rope_scores_json(const PositionsLesson& lesson) {
    if (!lesson.rope_scores) return "null";
    const RopeScores& r = *lesson.rope_scores;
    std::vector<std::string> rows;
    for (const auto& row : r.scores) {
        std::vector<std::string> cells;
        for (const double score : row) cells.push_back(json_number(score));
        rows.push_back(fmt::format("[{}]", fmt::join(cells, ", ")));
    }
    return fmt::format("{{\"first\": {}, \"second\": {}, \"starts\": [{}], \"offsets\": [{}], \"scores\": [{}]}}",
                       r.first, r.second, fmt::join(r.starts, ", "), fmt::join(r.offsets, ", "), fmt::join(rows, ", "));
}

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
        {"encoding", json_string(encoding_name(request.encoding))},
    };
    const std::size_t d = request.dim;
    const auto per_id = rows_shape(ids.batch, ids.seq, ids.batched, d);
    if (request.encoding == PositionEncoding::rope) {
        report.tables = {
            {"weight", "E = tok.weight", &lesson.weight, {request.vocab_size, d}, false},
            {"token_lookup", "tok(ids)", &lesson.token_lookup, per_id, false},
            {"rotated", "compute_rope(tok(ids), cos, sin)", &lesson.output, per_id, false},
            {"onehot_rotated", "compute_rope(one_hot(ids) @ E, cos, sin)", &lesson.onehot_output, per_id, false},
        };
    } else {
        report.tables = {
        {"weight", "E = tok.weight", &lesson.weight, {request.vocab_size, d}, false},
        {"position_weight", request.encoding == PositionEncoding::sinusoidal ? "P = sinusoidal table" : "P = pos.weight",
         &lesson.position_weight, {request.context, d}, false},
        {"token_lookup", "tok(ids)", &lesson.token_lookup, per_id, false},
        {"position_lookup", "pos(torch.arange(T))", &lesson.position_lookup, {ids.seq, d}, false},
        {"output", "tok(ids) + pos(torch.arange(T))", &lesson.output, per_id, false},
        {"onehot_output", "one_hot(ids) @ E + one_hot(arange(T)) @ P", &lesson.onehot_output, per_id, false},
        };
    }
    std::string repeated = "null";
    if (lesson.repeated) {
        const RepeatedToken& r = *lesson.repeated;
        repeated = fmt::format("{{\"id\": {}, \"positions\": [{}, {}], \"differing_columns\": {}}}", r.id,
                               r.first, r.second, r.differing_columns);
    }
    const bool identical = lesson.token_check.identical && lesson.position_check.identical &&
                           lesson.output_check.identical;
    report.checks = {
        {"rope_scores", rope_scores_json(lesson)},
        {"repeated_token", repeated},
        {"identical", identical ? "true" : "false"},
        {"differing", std::to_string(lesson.output_check.differing)},
    };
    add_id_source(report, ids);
    return report;
}

std::uint64_t positions_report_values(const PositionsRequest& request) {
    const std::uint64_t v = request.vocab_size, d = request.dim, n = request.ids.values.size();
    // weight, token_lookup, and the two outputs (rotated and onehot_rotated with rope)
    const std::uint64_t tokens = v * d + 3 * n * d;
    if (request.encoding == PositionEncoding::rope) return tokens;
    return tokens + request.context * d + request.ids.seq * d;  // position_weight, position_lookup
}

}  // namespace embdemo
