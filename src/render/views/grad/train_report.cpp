#include "render/views/grad/train_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "render/kit/json_text.hpp"
#include "render/views/grad/train_text.hpp"

namespace embdemo {
namespace {

// The JSON's record of each step: its batch and the rows it moved.
std::string steps_json(const TrainingRun& run) {
    std::vector<std::string> steps;
    for (const TrainingStep& step : run.steps) {
        std::vector<std::string> changed;
        for (const RowChange& change : step.changed) {
            // The delta in its shortest float32 spelling, as csv, tsv and the text view print it
            // (rounded from the double that holds the difference of two float32 values exactly). A
            // value that became NaN moved by no distance: max_abs_delta covers the others (null when
            // there are none), and "became_nan" (written only when a value did) counts it.
            changed.push_back(fmt::format(
                "{{\"row\": {}, \"max_abs_delta\": {}, \"in_batch\": {}, \"decayed\": {}, \"carried\": {}{}}}",
                change.row,
                change.moved == 0 && change.became_nan != 0 ? std::string("null")
                                                            : json_number(static_cast<float>(change.max_abs_delta)),
                change.in_batch, change.decayed, change.carried,
                change.became_nan ? fmt::format(", \"became_nan\": {}", change.became_nan) : std::string()));
        }
        steps.push_back(fmt::format("{{\"batch\": [{}], \"changed\": [{}]}}", fmt::join(step.batch, ", "),
                                    fmt::join(changed, ", ")));
    }
    return "[\n    " + fmt::format("{}", fmt::join(steps, ",\n    ")) + "\n  ]";
}

// The same record as one table for csv/tsv/markdown, a row per (step, moved row), with the
// causes the text view states. The delta is rounded to float32, as the text view and the JSON
// print it.
Matrix moved_rows(const TrainingRun& run) {
    std::size_t count = 0;
    for (const TrainingStep& step : run.steps) count += step.changed.size();
    Matrix moved(count, 6);
    std::size_t r = 0;
    for (std::size_t t = 0; t < run.steps.size(); ++t) {
        for (const RowChange& change : run.steps[t].changed) {
            // Steps (at most 100) and rows (below the 2^24 cap on V * d) are exact in float32.
            const float values[] = {static_cast<float>(t + 1), static_cast<float>(change.row),
                                    static_cast<float>(change.max_abs_delta), change.in_batch ? 1.0f : 0.0f,
                                    change.decayed ? 1.0f : 0.0f, change.carried ? 1.0f : 0.0f};
            for (std::size_t c = 0; c < 6; ++c) moved.at(r, c) = values[c];
            ++r;
        }
    }
    return moved;
}

// A step's batch rows, ascending and once each: what its summarised tables keep in view.
std::vector<std::size_t> batch_rows(const std::vector<std::uint64_t>& batch) {
    std::vector<std::size_t> rows(batch.begin(), batch.end());
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    constexpr std::size_t k_max_kept_rows = 8;
    if (rows.size() > k_max_kept_rows) rows.resize(k_max_kept_rows);
    return rows;
}

}  // namespace

LessonReport training_report(const TrainingArgs& args, const TrainingRun& run) {
    LessonReport report;
    report.head = {{"schema", json_string(k_train_json_schema)},
                   {"ids", ids_json(args.ids)},
                   {"vocab", std::to_string(args.vocab_size)},
                   {"dim", std::to_string(args.dim)},
                   {"seed", std::to_string(args.seed)},
                   {"optimizer", json_string(describe_optimizer(args.optimizer))},
                   {"upstream_source", json_string(args.upstream == UpstreamKind::randn ? "randn" : "ones")},
                   {"sparse", args.sparse ? "true" : "false"}};
    add_id_source(report, args.ids);
    const std::vector<std::size_t> table_shape{args.vocab_size, args.dim};
    report.tables.emplace_back("initial_weight", "E", &run.initial_weight, table_shape);
    report.tables.back().keep_rows = batch_rows(args.ids.values);
    // Each step's G, dE and E: csv/tsv/markdown only, since embdemo-grad-steps/1 has E before
    // and after the run. The last step's E is final_weight.
    for (std::size_t t = 0; t < run.steps.size(); ++t) {
        const TrainingStep& step = run.steps[t];
        const std::size_t n = t + 1;
        const std::vector<std::size_t> kept = batch_rows(step.batch);
        report.tables.emplace_back(fmt::format("upstream_step_{}", n), fmt::format("G of step {}", n), &step.upstream,
                                   std::vector<std::size_t>{step.upstream.rows, step.upstream.cols});
        report.tables.emplace_back(fmt::format("grad_step_{}", n), fmt::format("emb.weight.grad in step {}", n),
                                   &step.grad, table_shape);
        report.tables.back().keep_rows = kept;
        if (n < run.steps.size()) {
            report.tables.emplace_back(fmt::format("weight_step_{}", n), fmt::format("E after step {}", n),
                                       &step.weight, table_shape);
        } else {
            report.tables.emplace_back("final_weight", "E after the last step", &step.weight, table_shape);
        }
        report.tables.back().keep_rows = kept;
    }
    for (LessonTable& table : report.tables) {
        table.in_json = table.name == "initial_weight" || table.name == "final_weight";
    }
    const Matrix* moved_values = own_matrix(report, moved_rows(run));
    report.tables.emplace_back("moved_rows", "the rows each step moved", moved_values,
                               std::vector<std::size_t>{moved_values->rows, 6});
    LessonTable& moved = report.tables.back();
    moved.columns = {"step", "row", "max_abs_delta", "in_batch", "decayed", "carried"};
    moved.integral_columns = {0, 1, 3, 4, 5};
    moved.in_json = false;
    report.checks.push_back({"steps", steps_json(run)});
    return report;
}

}  // namespace embdemo
