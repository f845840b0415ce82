// --format python for `embdemo grad --optimizer ...`: nn.Embedding and a torch.optim optimizer
// stepping over the run's batches, as core/kernels/optim's run_training does (G drawn per step after E
// and the earlier steps, zero_grad, backward, step). After each step the script lists the rows
// whose bits changed, each with its largest change and why it could move outside the batch
// (weight decay on a non-zero row, optimizer state kept from earlier steps), and compares the
// list with embdemo's; at the end, E's bits before the first step (the rows the batches use) and
// after the last (every row that moved; the others must be as drawn).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/python_kit.hpp"
#include "render/views/python_script.hpp"
#include "render/views/grad/train_text.hpp"
#include "render/views/grad/view.hpp"

namespace embdemo {
namespace {

constexpr const char* k_step_loop = R"(moved = []    # per step: (row, largest change, in the batch, decayed, carried) for every row that moved
for t in range(steps):
    batch = torch.tensor(batches[t % len(batches)])
    G = {}
    optimizer.zero_grad()
    embedding(batch).backward(G)
    before = embedding.weight.detach().clone()
    # What could move a row outside the batch, looked at before the step: a non-zero row under
    # weight decay, and state the optimizer kept from earlier steps.
    state = optimizer.state[embedding.weight]
    carried = torch.zeros(V, dtype=torch.bool)
    for key in ("momentum_buffer", "exp_avg", "exp_avg_sq"):
        if state.get(key) is not None and not state[key].is_sparse:
            carried |= (state[key] != 0).any(dim=1)
    optimizer.step()
    after = embedding.weight.detach()
    changed = (after.view(torch.int32) != before.view(torch.int32)).any(dim=1).nonzero().flatten().tolist()
    moved.append([(k, float((after[k].double() - before[k].double()).abs().max()), k in batch.tolist(),
                   {} and bool((before[k] != 0).any()), bool(carried[k])) for k in changed])
    print(f"step {{t + 1}}: batch {{batch.tolist()}}, rows moved: {{changed}}")
)";

std::string embedding_args(const TrainingArgs& args) {
    std::string out;
    if (args.embedding.padding_row) out += fmt::format(", padding_idx={}", *args.embedding.padding_row);
    if (args.embedding.scale_grad_by_freq) out += ", scale_grad_by_freq=True";
    if (args.sparse) out += ", sparse=True";
    return out;
}

// "torch.optim.SGD(embedding.parameters(), lr=...)": the text view's own spelling, whose numbers
// are shortest round trips, so Python reads back the very doubles embdemo used.
std::string optimizer_line(const OptimizerSettings& settings) {
    std::string call = describe_optimizer(settings);
    return "optimizer = " + call.insert(call.find('(') + 1, "embedding.parameters(), ") + '\n';
}

std::string moved_literal(const TrainingRun& run) {
    std::vector<std::string> steps;
    for (const TrainingStep& step : run.steps) {
        std::vector<std::string> rows;
        for (const RowChange& change : step.changed) {
            rows.push_back(fmt::format("({}, {}, {}, {}, {})", change.row, python_double(change.max_abs_delta),
                                       python_bool(change.in_batch), python_bool(change.decayed),
                                       python_bool(change.carried)));
        }
        steps.push_back(wrapped_list("[", rows, "]"));
    }
    return "expected_moved = [\n    " + fmt::format("{}", fmt::join(steps, ",\n    ")) + "]\n";
}

}  // namespace

std::string render_training_python(const TrainingArgs& args, const TrainingRun& run) {
    std::string out = python_preamble(
        "Optimizer steps on an embedding table: which rows of E each step moves.",
        fmt::format("{} steps, V = {}, d = {}", run.steps.size(), args.vocab_size, args.dim), "import numpy\n", false);
    std::vector<std::string> batches;
    const std::size_t batch_count = args.ids.batched ? args.ids.batch : 1;
    for (std::size_t b = 0; b < batch_count; ++b) {
        batches.push_back(python_ints("", args.ids.batched ? args.ids.row(b) : args.ids.values, ""));
    }
    out += wrapped_list("batches = [", batches, "]    # step t uses batches[t % len(batches)]\n");
    out += fmt::format("V, D, steps = {}, {}, {}\n", args.vocab_size, args.dim, run.steps.size());
    out += fmt::format("torch.manual_seed({})\n", args.seed);
    out += fmt::format("embedding = torch.nn.Embedding(V, D{})\n", embedding_args(args));
    out += optimizer_line(args.optimizer);
    out += "initial = embedding.weight.detach().clone()\n";
    const bool decays = !args.sparse && args.optimizer.weight_decay != 0.0;
    out += fmt::format(k_step_loop,
                       args.upstream == UpstreamKind::randn ? "torch.randn(len(batch), D)    # drawn after E and the "
                                                              "earlier steps"
                                                            : "torch.ones(len(batch), D)",
                       python_bool(decays));
    out += "final = embedding.weight.detach()\n\n";
    out += moved_literal(run);
    out += "assert moved == expected_moved, \"PyTorch's steps moved other rows, or by other amounts\"\n";
    std::set<std::size_t> used(args.ids.values.begin(), args.ids.values.end());
    std::set<std::size_t> ever_moved;
    for (const TrainingStep& step : run.steps) {
        for (const RowChange& change : step.changed) ever_moved.insert(change.row);
    }
    const std::vector<std::size_t> used_rows(used.begin(), used.end());
    const std::vector<std::size_t> moved_rows(ever_moved.begin(), ever_moved.end());
    out += python_ints("used = ", std::vector<std::uint64_t>(used_rows.begin(), used_rows.end()), "\n");
    out += python_ints("ever_moved = ", std::vector<std::uint64_t>(moved_rows.begin(), moved_rows.end()), "\n");
    out += "expected_initial = " +
           bits_literal(run.initial_weight, used_rows, fmt::format("({}, {})", used_rows.size(), args.dim)) + '\n';
    out += "expected_final = " +
           bits_literal(run.steps.back().weight, moved_rows, fmt::format("({}, {})", moved_rows.size(), args.dim)) + '\n';
    out += "assert same_bits(initial[used], expected_initial), \"E before the first step differs from embdemo's\"\n";
    out += "assert same_bits(final[ever_moved], expected_final), \"E after the last step differs from embdemo's\"\n";
    out += "still = torch.ones(V, dtype=torch.bool)\nstill[ever_moved] = False\n";
    out += "assert same_bits(final[still], initial[still]), \"a row no step moved differs from E as drawn\"\n";
    std::size_t moves = 0;
    for (const TrainingStep& step : run.steps) moves += step.changed.size();
    out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit: the same {} in {}, and the same E after "
                       "them.\")\n",
                       count_of(moves, "row move", "row moves"), count_of(run.steps.size(), "step", "steps"));
    return out;
}

}  // namespace embdemo
