// Tests of the optimizer steps and training runs (src/core/kernels/optim.hpp) against torch.optim runs
// recorded from real torch 1.13.1 (tests/data/torch_grad_vectors.txt, kind "train"), and of the
// lesson they carry: which rows of E each optimizer moves.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "core/torch/init.hpp"
#include "core/kernels/optim.hpp"
#include "torch_cases.hpp"

namespace embdemo {
namespace {

TrainingArgs recorded_args(const testing::RecordedCase& recorded) {
    TrainingArgs args;
    const auto ids = parse_id_batch(recorded.key("ids"));
    REQUIRE(ids);
    args.ids = ids.value();
    args.vocab_size = recorded.number("vocab");
    args.dim = recorded.number("dim");
    args.seed = recorded.number("seed");
    args.embedding.scale_grad_by_freq = recorded.key("scale") == "1";
    if (recorded.key("padding") != "none") {
        const auto row = resolve_padding_idx(std::stoll(recorded.key("padding")), args.vocab_size);
        REQUIRE(row);
        args.embedding.padding_row = row.value();
    }
    args.upstream = recorded.key("upstream") == "ones" ? UpstreamKind::ones : UpstreamKind::randn;
    const std::string& kind = recorded.key("optimizer");
    const double lr = recorded.real("lr");
    const double decay = recorded.real("weight_decay");
    args.optimizer = kind == "sgd"    ? sgd_settings(lr, recorded.real("momentum"), decay)
                     : kind == "adam" ? adam_settings(lr, decay)
                                      : adamw_settings(lr, decay);
    args.steps = recorded.number("steps");
    return args;
}

std::vector<std::size_t> rows_of(const std::vector<RowChange>& changes) {
    std::vector<std::size_t> rows;
    for (const RowChange& change : changes) rows.push_back(change.row);
    return rows;
}

TrainingArgs lesson_args(OptimizerSettings optimizer) {
    TrainingArgs args;
    args.ids = parse_id_batch("2,3;1,1").value();
    args.vocab_size = 6;
    args.dim = 3;
    args.seed = 0;
    args.optimizer = optimizer;
    args.steps = 3;
    return args;
}

}  // namespace

TEST_CASE("training runs match torch.optim bit for bit in every recorded case") {
    // Every update is elementwise (no reduction whose order torch leaves open), so exact equality
    // is the right tolerance once each rounding and fused multiply-add is reproduced.
    const auto cases = testing::load_recorded_cases(EMBDEMO_TEST_DATA_DIR "/torch_grad_vectors.txt");
    std::size_t checked = 0;
    std::size_t failed = 0;
    for (const auto& recorded : cases) {
        if (recorded.kind != "train") continue;
        const TrainingRun run = run_training(recorded_args(recorded));
        bool ok = testing::matches_recorded(recorded, "weight", run.initial_weight);
        for (std::size_t t = 0; t < run.steps.size() && ok; ++t) {
            const std::string step = "step" + std::to_string(t);
            ok = testing::matches_recorded(recorded, step + ".upstream", run.steps[t].upstream) &&
                 testing::matches_recorded(recorded, step + ".grad", run.steps[t].grad) &&
                 testing::matches_recorded(recorded, step + ".weight", run.steps[t].weight);
        }
        if (!ok) ++failed;
        ++checked;
    }
    CHECK_MESSAGE(failed == 0, failed, " of ", checked, " runs differ");
    CHECK(checked >= 25);
}

TEST_CASE("plain SGD moves exactly the rows of each step's batch") {
    const TrainingRun run = run_training(lesson_args(sgd_settings(0.1)));
    REQUIRE(run.steps.size() == 3);
    CHECK(rows_of(run.steps[0].changed) == std::vector<std::size_t>{2, 3});
    CHECK(rows_of(run.steps[1].changed) == std::vector<std::size_t>{1});
    CHECK(rows_of(run.steps[2].changed) == std::vector<std::size_t>{2, 3});
    for (const TrainingStep& step : run.steps) {
        for (const RowChange& change : step.changed) CHECK(change.in_batch);
    }
}

TEST_CASE("Adam keeps moving rows after they left the batch") {
    const TrainingRun run = run_training(lesson_args(adam_settings(0.1)));
    // Step 1's batch is {1, 1}, but rows 2 and 3 still have momentum from step 0.
    CHECK(rows_of(run.steps[1].changed) == std::vector<std::size_t>{1, 2, 3});
    for (const RowChange& change : run.steps[1].changed) CHECK(change.in_batch == (change.row == 1));
}

TEST_CASE("AdamW's weight decay moves every row, used or not") {
    const TrainingRun run = run_training(lesson_args(adamw_settings(0.1)));
    CHECK(rows_of(run.steps[0].changed) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
    const TrainingRun no_decay = run_training(lesson_args(adamw_settings(0.1, 0.0)));
    CHECK(rows_of(no_decay.steps[0].changed) == std::vector<std::size_t>{2, 3});
}

TEST_CASE("SGD's momentum buffer starts as the first gradient, so step 0 equals plain SGD") {
    const TrainingRun plain = run_training(lesson_args(sgd_settings(0.1)));
    const TrainingRun momentum = run_training(lesson_args(sgd_settings(0.1, 0.9)));
    CHECK(momentum.steps[0].weight == plain.steps[0].weight);
    CHECK_FALSE(momentum.steps[2].weight == plain.steps[2].weight);
    CHECK(rows_of(momentum.steps[1].changed) == std::vector<std::size_t>{1, 2, 3});
}

TEST_CASE("step_batch cycles through the rows of a batch and repeats a flat list") {
    const IdBatch batch = parse_id_batch("2,3;1,1;4,0").value();
    CHECK(step_batch(batch, 0) == TokenIds{2, 3});
    CHECK(step_batch(batch, 1) == TokenIds{1, 1});
    CHECK(step_batch(batch, 2) == TokenIds{4, 0});
    CHECK(step_batch(batch, 3) == TokenIds{2, 3});
    const IdBatch flat = parse_id_batch("2,3,1").value();
    CHECK(step_batch(flat, 5) == TokenIds{2, 3, 1});
}

TEST_CASE("changed_rows reports the largest change of each moved row and whether it was in the batch") {
    Matrix before(3, 2);
    before.values = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
    Matrix after = before;
    after.at(0, 1) = 1.5f;   // -0.5
    after.at(2, 0) = 5.25f;  // +0.25
    after.at(2, 1) = 7.0f;   // +1
    const std::vector<RowChange> changes = changed_rows(before, after, {2});
    REQUIRE(changes.size() == 2);
    CHECK(changes[0].row == 0);
    CHECK(changes[0].max_abs_delta == 0.5);
    CHECK_FALSE(changes[0].in_batch);
    CHECK(changes[1].row == 2);
    CHECK(changes[1].max_abs_delta == 1.0);
    CHECK(changes[1].in_batch);
}

TEST_CASE("the optimizer factories use torch.optim's constructor defaults") {
    const OptimizerSettings adam = adam_settings();
    CHECK(adam.kind == OptimizerKind::adam);
    CHECK(adam.lr == 1e-3);
    CHECK(adam.beta1 == 0.9);
    CHECK(adam.beta2 == 0.999);
    CHECK(adam.eps == 1e-8);
    CHECK(adam.weight_decay == 0.0);
    const OptimizerSettings adamw = adamw_settings();
    CHECK(adamw.kind == OptimizerKind::adamw);
    CHECK(adamw.weight_decay == 1e-2);
    const OptimizerSettings sgd = sgd_settings(0.5);
    CHECK(sgd.kind == OptimizerKind::sgd);
    CHECK(sgd.momentum == 0.0);
    CHECK(sgd.weight_decay == 0.0);
}

TEST_CASE("a training run with ones upstream draws nothing after the table") {
    TrainingArgs args = lesson_args(sgd_settings(1.0));
    args.upstream = UpstreamKind::ones;
    const TrainingRun run = run_training(args);
    // Row 2 takes 1 * lr off each value in steps 0 and 2: E[2] - 2.
    CHECK(run.steps[2].weight.at(2, 0) == run.initial_weight.at(2, 0) - 1.0f - 1.0f);
    CHECK(run.steps[0].upstream.values == std::vector<float>(6, 1.0f));
}

}  // namespace embdemo

namespace embdemo {

// The causes the view names for a row that moved outside its batch (issue 25, 5): re-checked
// by running the same steps without the cause the claim leaves out.
TEST_CASE("every row that moves outside its batch has its cause recorded, and that cause is the real one") {
    const OptimizerSettings settings[] = {sgd_settings(0.1, 0.0, 0.1), sgd_settings(0.1, 0.9, 0.0),
                                          sgd_settings(0.1, 0.9, 0.1), adam_settings(0.1, 0.0),
                                          adam_settings(0.1, 0.1),     adamw_settings(0.1, 0.1),
                                          adamw_settings(0.1, 0.0),    sgd_settings(0.1)};
    for (const OptimizerSettings& optimizer : settings) {
        CAPTURE(static_cast<int>(optimizer.kind));
        CAPTURE(optimizer.weight_decay);
        const TrainingRun run = run_training(lesson_args(optimizer));
        OptimizerSettings without_decay = optimizer;
        without_decay.weight_decay = 0.0;
        const TrainingRun undecayed = run_training(lesson_args(without_decay));
        for (std::size_t t = 0; t < run.steps.size(); ++t) {
            for (const RowChange& change : run.steps[t].changed) {
                if (change.in_batch) continue;
                CAPTURE(t);
                CAPTURE(change.row);
                CHECK((change.decayed || change.carried));
                CHECK(change.decayed == (optimizer.weight_decay != 0.0));  // E has no zero row here
                if (t == 0) CHECK(!change.carried);  // no state before the first step
                // Only decayed: without weight_decay the first such step leaves the row alone.
                if (t == 0 && !change.carried) {
                    for (const RowChange& other : undecayed.steps[0].changed) CHECK(other.row != change.row);
                }
            }
        }
    }
}

}  // namespace embdemo
