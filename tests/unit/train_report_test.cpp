// training_report (render/views/grad/train_report): its JSON is embdemo-grad-steps/1 byte for byte as the
// goldens recorded it before the report existed, and its csv/tsv/markdown tables are the run's.
#include <doctest/doctest.h>

#include <string>

#include "core/ids.hpp"
#include "core/kernels/optim.hpp"
#include "render/views/grad/train_report.hpp"
#include "render/views/grad/train_text.hpp"

namespace embdemo {
namespace {


// The arguments the CLI makes of a golden's command line (seed 123 and G from randn unless said).
TrainingArgs training_args(const char* ids, std::size_t vocab, std::size_t dim, OptimizerSettings optimizer,
                           std::size_t steps) {
    TrainingArgs args;
    args.ids = parse_id_batch(ids).value();
    args.vocab_size = vocab;
    args.dim = dim;
    args.seed = 123;
    args.optimizer = optimizer;
    args.steps = steps;
    return args;
}

struct RecordedRun {
    const char* golden;
    TrainingArgs args;
};

std::vector<RecordedRun> recorded_runs() {
    std::vector<RecordedRun> runs{
        {"grad_steps_adamw_json", training_args("2,3;1,1", 5, 3, adamw_settings(), 2)},
        {"grad_sparse_sgd_json", training_args("2,3,2", 4, 2, sgd_settings(0.1), 2)},
        {"grad_steps_sgd_momentum_ones_json", training_args("2,3,1", 6, 3, sgd_settings(0.1, 0.9, 0.05), 3)},
        {"grad_steps_adam_batch_padding_json", training_args("0,2;4,4;1,3", 5, 2, adam_settings(0.5), 4)},
        {"grad_steps_lr_zero_json", training_args("1,1", 2, 2, sgd_settings(0.0), 1)},
    };
    runs[1].args.sparse = true;
    runs[2].args.upstream = UpstreamKind::ones;
    runs[3].args.seed = 7;
    runs[3].args.embedding.padding_row = 4;
    runs[3].args.embedding.scale_grad_by_freq = true;
    return runs;
}

const LessonTable& table_named(const LessonReport& report, const std::string& name) {
    for (const LessonTable& table : report.tables) {
        if (table.name == name) return table;
    }
    FAIL("no table " << name);
    return report.tables.front();
}

}  // namespace

TEST_CASE("training_report lists every step's G, dE and E, then the moved rows, for csv, tsv and markdown") {
    const RecordedRun recorded = recorded_runs()[3];  // Adam, a 3 x 2 batch, padding, 4 steps
    const TrainingRun run = run_training(recorded.args);
    const LessonReport report = training_report(recorded.args, run);
    CHECK(table_names(report) ==
          "initial_weight, upstream_step_1, grad_step_1, weight_step_1, upstream_step_2, grad_step_2, weight_step_2, "
          "upstream_step_3, grad_step_3, weight_step_3, upstream_step_4, grad_step_4, final_weight, moved_rows");
    for (const LessonTable& table : report.tables) {
        CAPTURE(table.name);
        CHECK(table.in_json == (table.name == "initial_weight" || table.name == "final_weight"));
    }
    // Step 3 uses the batch's row 3 mod 3 = 0 again: ids 0, 2.
    const LessonTable& upstream = table_named(report, "upstream_step_4");
    CHECK(upstream.matrix == &run.steps[3].upstream);
    CHECK(upstream.shape == std::vector<std::size_t>{2, 2});
    CHECK(table_named(report, "grad_step_4").keep_rows == std::vector<std::size_t>{0, 2});
    CHECK(table_named(report, "weight_step_2").matrix == &run.steps[1].weight);
    CHECK(table_named(report, "final_weight").matrix == &run.steps[3].weight);

    const LessonTable& moved = table_named(report, "moved_rows");
    std::size_t r = 0;
    for (std::size_t t = 0; t < run.steps.size(); ++t) {
        for (const RowChange& change : run.steps[t].changed) {
            CAPTURE(r);
            CHECK(moved.matrix->at(r, 0) == static_cast<float>(t + 1));
            CHECK(moved.matrix->at(r, 1) == static_cast<float>(change.row));
            CHECK(moved.matrix->at(r, 2) == static_cast<float>(change.max_abs_delta));
            CHECK(moved.matrix->at(r, 3) == (change.in_batch ? 1.0f : 0.0f));
            CHECK(moved.matrix->at(r, 4) == (change.decayed ? 1.0f : 0.0f));
            CHECK(moved.matrix->at(r, 5) == (change.carried ? 1.0f : 0.0f));
            ++r;
        }
    }
    CHECK(moved.shape == std::vector<std::size_t>{r, 6});
}

TEST_CASE("the moved rows print whole numbers as integers beside the float deltas") {
    const RecordedRun recorded = recorded_runs()[0];  // AdamW: every row moves in both steps
    const TrainingRun run = run_training(recorded.args);
    const LessonReport report = training_report(recorded.args, run);
    const std::string csv = render_lesson_delimited(report, ',', {});
    CHECK(csv.find("# moved_rows (the rows each step moved) 10 x 6: step, row, max_abs_delta, in_batch, decayed, "
                   "carried\n1,0,3.695488e-06,0,1,0\n") != std::string::npos);
    CHECK(csv.find("# upstream_step_2 (G of step 2) 2 x 3\n") != std::string::npos);
    CHECK(render_lesson_delimited(report, '\t', {"moved_rows"}).rfind("2\t4\t6.67572e-06\t0\t1\t0\n") !=
          std::string::npos);
    const std::string markdown = render_lesson_markdown(report, "Optimizer steps", 4);
    CHECK(markdown.find("| # | step | row | max_abs_delta | in_batch | decayed | carried |\n"
                        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
                        "| 0 | 1 | 0 | 3.6955e-06 | 0 | 1 | 0 |\n") != std::string::npos);
    CHECK(markdown.find("**grad_step_1** (emb.weight.grad in step 1), 5 x 3\n") != std::string::npos);
    // The steps' list of objects is the JSON's; markdown has the table instead.
    CHECK(markdown.find("\"changed\"") == std::string::npos);
}

TEST_CASE("a run where no row moved has an empty moved_rows table") {
    const RecordedRun recorded = recorded_runs()[4];  // lr=0
    const TrainingRun run = run_training(recorded.args);
    const LessonReport report = training_report(recorded.args, run);
    CHECK(render_lesson_delimited(report, ',', {"moved_rows"}).empty());
    CHECK(render_lesson_delimited(report, ',', {}).find("# moved_rows (the rows each step moved) 0 x 6: step") !=
          std::string::npos);
    CHECK(render_lesson_markdown(report, "t", 4).find("| # | step | row |") != std::string::npos);
}

TEST_CASE("training_report names the text its ids came from, after the ids") {
    TrainingArgs args = training_args("3,1", 4, 2, sgd_settings(0.1), 1);
    args.ids.source.text = "ab";
    args.ids.source.token_of = [](std::uint64_t id) { return id == 3 ? std::string("a") : std::string("b"); };
    const LessonReport report = training_report(args, run_training(args));
    REQUIRE(report.head.size() > 3);
    CHECK(report.head[1].name == "ids");
    CHECK(report.head[2].name == "text");
    CHECK(report.head[3].name == "tokens");
    CHECK(report.head[3].json == "[\"a\", \"b\"]");
}

}  // namespace embdemo
