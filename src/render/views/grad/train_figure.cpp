// training_figure: a few optimizer steps as a table of rows of E by step, each cell how far the
// step moved the row (framed when the step's batch did not use it), then E before the first
// step and after the last with the changed cells framed. The rows are the ones the batches use
// and the ones that moved, summarised as the text view summarises E.
#include <algorithm>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "render/views/grad/train_text.hpp"
#include "render/views/grad/view.hpp"

namespace embdemo {
namespace {

const RowChange* change_of(const TrainingStep& step, std::size_t row) {
    const auto hit = std::find_if(step.changed.begin(), step.changed.end(), [row](const RowChange& c) { return c.row == row; });
    return hit == step.changed.end() ? nullptr : &*hit;
}

// The rows worth a line: every row a batch uses or a step moves, ascending.
std::vector<std::size_t> rows_of_interest(const TrainingRun& run) {
    std::vector<std::size_t> rows;
    for (const TrainingStep& step : run.steps) {
        rows.insert(rows.end(), step.batch.begin(), step.batch.end());
        for (const RowChange& change : step.changed) rows.push_back(change.row);
    }
    return used_rows(std::vector<std::uint64_t>(rows.begin(), rows.end()));
}

bool moved_outside(const TrainingRun& run) {
    return std::any_of(run.steps.begin(), run.steps.end(), [](const TrainingStep& step) {
        return std::any_of(step.changed.begin(), step.changed.end(), [](const RowChange& c) { return !c.in_batch; });
    });
}

}  // namespace

Figure training_figure(const TrainingArgs& args, const TrainingRun& run, int precision) {
    const std::vector<std::size_t> rows = shown_rows(args.vocab_size, args.dim, rows_of_interest(run));
    const std::vector<std::size_t> steps = visible_positions(run.steps.size(), run.steps.size() > 2 * k_edge_items + 2);
    FigureMatrix moves = text_matrix(
        rows, steps,
        [&](std::size_t k, std::size_t t) {
            const RowChange* change = change_of(run.steps[t], k);
            return change ? move_cell(*change) : std::string("-");
        },
        [&](std::size_t k, std::size_t t) {
            const RowChange* change = change_of(run.steps[t], k);
            return change != nullptr && !change->in_batch;
        },
        [](std::size_t k, FigureRow& row) { row.table_row = static_cast<long long>(k); });
    for (std::size_t c = 0; c < steps.size(); ++c) {
        if (steps[c] != k_gap) moves.col_labels[c] = fmt::format("{}: {}", steps[c] + 1, format_ids(run.steps[steps[c]].batch));
    }
    moves.name = "largest |change| of each row, per step (- : not moved)";
    moves.shape = fmt::format("{} x {}", count_of(args.vocab_size, "row", "rows"), count_of(run.steps.size(), "step", "steps"));

    const Matrix& before = run.initial_weight;
    const Matrix& after = run.steps.back().weight;
    const Screen screen = choose_screen({{&before, rows}, {&after, rows}}, args.dim, precision, block_cells_budget(8, 0));
    const IdKeys no_keys;
    FigureMatrix first = numeric_matrix(before, rows, screen.cols, screen.format, table_row(no_keys));
    first.name = "E before the first step";
    FigureMatrix last = numeric_matrix(after, rows, screen.cols, screen.format, table_row(no_keys));
    last.name = "E after the last step";
    mark_differences(last, before, after, rows, screen.cols);

    Figure figure;
    figure.title = fmt::format("Optimizer steps: which rows of E move   (V = {}, d = {}, {})",
                               group_thousands(args.vocab_size), group_thousands(args.dim),
                               count_of(run.steps.size(), "step", "steps"));
    figure.panels = {joined_panel("Each step's batch (column heads) and the rows it moved", {moves}),
                     joined_panel("E before and after: the changed values framed", {first, last}, {"->"})};
    figure.caption = {describe_optimizer(args.optimizer) + ".", training_summary(args, run)};
    if (moved_outside(run)) figure.caption.push_back("Framed in the table: moves of rows that the step's batch did not use.");
    return figure;
}

}  // namespace embdemo
