#include "render/views/tied/report.hpp"

#include <fmt/format.h>

#include "render/kit/json_text.hpp"

namespace embdemo {
namespace {

// [[{"id": 2, "logit": 3.01}, ...], ...]: one list per row of H, flat over a batch's rows.
std::string top_json(const TiedLesson& lesson) {
    std::vector<std::string> rows;
    for (std::size_t i = 0; i < lesson.top.size(); ++i) {
        std::vector<std::string> entries;
        for (const TopLogit& entry : lesson.top[i]) {
            entries.push_back(fmt::format("{{\"id\": {}, \"logit\": {}}}", entry.id, json_number(entry.logit)));
        }
        rows.push_back(fmt::format("[{}]", fmt::join(entries, ", ")));
    }
    return "[\n    " + fmt::format("{}", fmt::join(rows, ",\n    ")) + "\n  ]";
}

std::string parameters_json(const ParameterCounts& counts) {
    return fmt::format("{{\"untied\": {}, \"tied\": {}}}", counts.untied, counts.tied);
}

}  // namespace

LessonReport tied_report(const TiedLesson& lesson) {
    const TiedRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    LessonReport report;
    report.head = {
        {"schema", json_string(k_tied_json_schema)},
        {"ids", ids_json(ids)},
        {"vocab", std::to_string(request.vocab_size)},
        {"vocab_inferred", request.vocab_inferred ? "true" : "false"},
        {"dim", std::to_string(request.dim)},
        {"seed", std::to_string(request.seed)},
        {"hidden_source", json_string(request.hidden_given ? "file" : "lookup")},
        {"top_k", std::to_string(request.top)},
    };
    report.tables = {
        {"weight", "E = tok_emb.weight = out_head.weight", &lesson.weight, {request.vocab_size, request.dim}, false},
        {"hidden", "H", &lesson.hidden, rows_shape(ids.batch, ids.seq, ids.batched, request.dim), false},
        {"logits", "F.linear(H, E) = H @ E.T", &lesson.logits.values,
         rows_shape(ids.batch, ids.seq, ids.batched, request.vocab_size), false},
    };
    // A chapter's logits are too many to hold: markdown summarises the rows the lesson kept.
    if (!lesson.logits.whole()) report.tables.back().held_rows = lesson.logits.held;
    report.checks = {
        {"top", top_json(lesson)},
        {"parameters", parameters_json(lesson.here)},
        {"gpt2_parameters", parameters_json(lesson.gpt2)},
    };
    add_id_source(report, ids);
    return report;
}

std::uint64_t tied_report_values(const TiedRequest& request) {
    const std::uint64_t v = request.vocab_size, d = request.dim, n = request.ids.values.size();
    return v * d + n * d + n * v;  // weight, hidden, logits
}

}  // namespace embdemo
