#include "render/views/grad/train_text.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/paint.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {

std::string training_summary_moves(const TrainingArgs& args, const TrainingRun& run);

namespace {

// Rows listed per step; more are counted.
constexpr std::size_t k_max_listed_rows = 8;

// Python's repr of a float hyper-parameter, as the optimizer's repr shows it.
std::string python_float(double value) { return fmt::format("{}", value); }

std::string batch_text(const TokenIds& batch) { return format_ids(batch); }

// "3 of 5 rows moved (1 outside the batch)", worded for all, one and none.
std::string moved_summary(std::size_t moved, std::size_t outside, std::size_t vocab) {
    if (moved == 0) return fmt::format("no row of {} moved", group_thousands(vocab));
    std::string rows;
    if (moved == vocab) {
        rows = vocab == 1 ? "the one row" : fmt::format("all {} rows", group_thousands(vocab));
    } else {
        rows = fmt::format("{} of {} rows", group_thousands(moved), group_thousands(vocab));
    }
    const std::string where = outside == 0 ? (moved == 1 ? "in the batch" : "all in the batch")
                                           : group_thousands(outside) + " outside the batch";
    return fmt::format("{} moved ({})", rows, where);
}

std::string step_lines(const TrainingStep& step, std::size_t index, std::size_t vocab, Palette palette) {
    std::string out = paint(fmt::format("Step {}: batch {}", index + 1, batch_text(step.batch)), Paint::heading,
                            palette) + '\n';
    std::size_t moved_outside = 0;
    for (const RowChange& change : step.changed) moved_outside += !change.in_batch;
    const std::set<std::uint64_t> used(step.batch.begin(), step.batch.end());
    for (std::size_t i = 0; i < step.changed.size() && i < k_max_listed_rows; ++i) {
        const RowChange& change = step.changed[i];
        const std::string where = change.in_batch ? "in this batch" : paint("NOT in this batch", Paint::bad, palette);
        out += fmt::format("  row {:>6}  {}   {}\n", change.row, describe_move(change, step.weight.cols), where);
    }
    if (step.changed.size() > k_max_listed_rows) {
        out += fmt::format("  ... {} more rows moved\n", group_thousands(step.changed.size() - k_max_listed_rows));
    }
    const std::size_t unchanged = vocab - step.changed.size();
    std::size_t used_unchanged = 0;
    for (const std::uint64_t id : used) {
        used_unchanged += std::none_of(step.changed.begin(), step.changed.end(),
                                       [&](const RowChange& c) { return c.row == id; });
    }
    out += "  " + moved_summary(step.changed.size(), moved_outside, vocab);
    if (unchanged != 0 && !step.changed.empty()) {
        out += fmt::format("; {} did not{}", group_thousands(unchanged),
                           used_unchanged ? fmt::format(", {} of them in the batch", used_unchanged) : "");
    }
    out += '\n';
    return out;
}

// Why rows outside a batch moved: each cause the run shows (RowChange's decayed, carried),
// with how many of those moves it covers.
std::string outside_reason(const OptimizerSettings& settings, const TrainingRun& run) {
    std::size_t decayed = 0;
    std::size_t carried = 0;
    std::size_t total = 0;
    for (const TrainingStep& step : run.steps) {
        for (const RowChange& change : step.changed) {
            if (change.in_batch) continue;
            ++total;
            decayed += change.decayed;
            carried += change.carried;
        }
    }
    const char* name = name_of(k_optimizer_classes, settings.kind);
    std::vector<std::string> causes;
    // "by weight_decay" alone when it is the only cause of every move; "N of them by" otherwise.
    const auto share = [&](std::size_t count) {
        return count == total ? std::string("by") : fmt::format("{} of them by", group_thousands(count));
    };
    if (decayed != 0) {
        causes.push_back(fmt::format(
            "{} weight_decay, {}", share(decayed),
            settings.kind == OptimizerKind::adamw ? "which shrinks every non-zero row by lr * weight_decay * E each step"
                                                  : "which adds weight_decay * E to the gradient of every non-zero row"));
    }
    if (carried != 0) {
        causes.push_back(fmt::format("{} {} kept from earlier steps", share(carried),
                                     settings.kind == OptimizerKind::sgd ? "the momentum buffer"
                                                                         : fmt::format("{}'s running averages (exp_avg, exp_avg_sq)", name)));
    }
    return fmt::format("{}", fmt::join(causes, "; "));
}

}  // namespace

std::string describe_move(const RowChange& change, std::size_t dim) {
    std::vector<std::string> parts;
    if (change.moved != 0) {
        parts.push_back("moved by up to " + shortest_round_trip(static_cast<float>(change.max_abs_delta)));
    }
    if (change.became_nan != 0) {
        const std::string values = change.became_nan == dim && change.moved == 0 && change.nan_changed == 0
                                       ? (dim == 1 ? std::string("its value") : dim == 2 ? std::string("both values")
                                                                                        : fmt::format("all {} values", dim))
                                       : count_of(change.became_nan, "value", "values");
        parts.push_back(values + " became NaN");
    }
    if (change.nan_changed != 0) parts.push_back(count_of(change.nan_changed, "NaN", "NaNs") + " changed payload");
    return fmt::format("{}", fmt::join(parts, "; "));
}

std::string move_cell(const RowChange& change) {
    if (change.moved == 0 && change.became_nan != 0) return "NaN";
    return shortest_round_trip(static_cast<float>(change.max_abs_delta));
}

namespace {

// Why values of E became NaN, when some did: E, G and the hyper-parameters start finite, so a
// step's float32 arithmetic overflowed to inf first and then met inf - inf, 0 * inf or inf / inf.
std::string nan_sentence(const TrainingRun& run) {
    std::uint64_t nan_values = 0;
    std::size_t first_step = 0;
    for (std::size_t t = 0; t < run.steps.size(); ++t) {
        for (const RowChange& change : run.steps[t].changed) {
            if (change.became_nan != 0 && nan_values == 0) first_step = t + 1;
            nan_values += change.became_nan;
        }
    }
    if (nan_values == 0) return "";
    return fmt::format(" {} of E became NaN (first in step {}): the steps start from finite values, so float32 "
                       "overflowed to inf and then met inf - inf, 0 * inf or inf / inf. A NaN is no distance: "
                       "those values are not in any \"moved by\".",
                       nan_values == 1 ? std::string("1 value") : group_thousands(nan_values) + " values", first_step);
}

}  // namespace

std::string training_summary(const TrainingArgs& args, const TrainingRun& run) {
    return training_summary_moves(args, run) + nan_sentence(run);
}

std::string training_summary_moves(const TrainingArgs& args, const TrainingRun& run) {
    std::size_t outside = 0;
    std::size_t moves = 0;
    for (const TrainingStep& step : run.steps) {
        moves += step.changed.size();
        for (const RowChange& change : step.changed) outside += !change.in_batch;
    }
    if (moves == 0) {
        return std::string("No row of E moved: ") +
               (args.optimizer.lr == 0.0 ? "with lr=0 a step changes nothing"
                                         : "every update was 0 or too small to change a float32 value of E") +
               ", so this run cannot show which rows a step updates.";
    }
    if (outside == 0) {
        const OptimizerSettings& o = args.optimizer;
        const bool plain = args.sparse || (o.kind == OptimizerKind::sgd && o.momentum == 0.0 && o.weight_decay == 0.0);
        if (plain) {
            return "Every row that moved was in its step's batch: the gradient is 0 elsewhere, and " +
                   describe_optimizer(o) + " moves only rows with a gradient. This is the "
                   "glossary's \"update only the rows used in the current batch\".";
        }
        // Momentum, Adam's running averages and weight decay can move a row without a gradient;
        // this run just gave them no such row (one step, or every step's batch the same rows).
        std::vector<std::string> ways;
        if (o.kind == OptimizerKind::sgd && o.momentum != 0.0) ways.push_back("its momentum buffer");
        if (o.kind != OptimizerKind::sgd) ways.push_back("its running averages (exp_avg, exp_avg_sq)");
        if (o.weight_decay != 0.0) ways.push_back("weight decay");
        return "Every row that moved was in its step's batch: the gradient is 0 elsewhere. " + describe_optimizer(o) +
               " can also move a row without a gradient, by " + fmt::format("{}", fmt::join(ways, " or ")) +
               ", but in this run no row outside a step's batch had anything for " +
               (ways.size() == 1 ? "it" : "them") + " to move.";
    }
    return fmt::format("{} outside {} step's batch: {}. The gradient still touches only the used rows; the "
                       "optimizer does not.",
                       outside == 1 ? std::string("1 row move happened") : group_thousands(outside) + " row moves happened",
                       outside == 1 ? "its" : "their", outside_reason(args.optimizer, run));
}

std::string describe_optimizer(const OptimizerSettings& settings) {
    switch (settings.kind) {
        case OptimizerKind::sgd:
            return fmt::format("torch.optim.SGD(lr={}, momentum={}, weight_decay={})", python_float(settings.lr),
                               python_float(settings.momentum), python_float(settings.weight_decay));
        case OptimizerKind::adam:
        case OptimizerKind::adamw: break;
    }
    return fmt::format("torch.optim.{}(lr={}, betas=({}, {}), eps={}, weight_decay={})",
                       name_of(k_optimizer_classes, settings.kind), python_float(settings.lr),
                       python_float(settings.beta1), python_float(settings.beta2), python_float(settings.eps),
                       python_float(settings.weight_decay));
}

std::string render_train_text(const TrainingArgs& args, const TrainingRun& run, const TextOptions& options) {
    std::string out = "Optimizer steps: which rows of E move\n";
    const std::size_t batches = args.ids.batched ? args.ids.batch : 1;
    const std::string ids = "  ids    " + format_id_batch(args.ids);
    const std::string steps = batches > 1 ? fmt::format("({} batches: step t uses row t mod {})", batches, batches)
                                          : std::string("(the same batch every step)");
    // As the table line below: the note on a line of its own when both would not fit 80 columns.
    out += ids + (ids.size() + 2 + steps.size() <= 80 ? "  " : "\n         ") + steps + '\n';
    const std::string table = fmt::format("  table  nn.Embedding({}, {}{}{})", args.vocab_size, args.dim,
                       args.embedding.padding_row ? fmt::format(", padding_idx={}", *args.embedding.padding_row) : "",
                       args.sparse ? ", sparse=True" : "");
    const std::string seeded = fmt::format("after torch.manual_seed({})", args.seed);
    // The seed goes on a line of its own when both would not fit 80 columns.
    out += table + (table.size() + 2 + seeded.size() <= 80 ? "  " : "\n         ") + seeded + '\n';
    // torch.ones draws nothing from the generator: only randn's G is "drawn".
    out += args.upstream == UpstreamKind::randn ? "  G      torch.randn(T, d) per step, drawn after E and the earlier steps\n"
                                                : "  G      torch.ones(T, d) per step (all ones, nothing drawn)\n";
    out += wrap_words(describe_optimizer(args.optimizer), "  optim  ", "         ");
    out += "\nE before the first step\n" + render_plain_matrix(run.initial_weight, options);
    for (std::size_t t = 0; t < run.steps.size(); ++t) {
        out += '\n' + step_lines(run.steps[t], t, args.vocab_size, options.palette);
    }
    out += "\nE after the last step\n" + render_plain_matrix(run.steps.back().weight, options);
    return out + '\n' + wrap_words(training_summary(args, run), "", "");
}


}  // namespace embdemo
