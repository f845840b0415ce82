// The text view of `embdemo grad --optimizer ...`: a few torch.optim steps over a
// sequence of batches, and after each step which rows of E moved and by how much, so a student
// sees that plain SGD moves only the rows of the batch while momentum and weight decay move
// others. Every sentence is computed from the run. The machine formats are render/views/grad/train_report's.
#pragma once

#include <string>

#include "core/kernels/optim.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/views/text.hpp"

namespace embdemo {

std::string render_train_text(const TrainingArgs& args, const TrainingRun& run, const TextOptions& options);

// "moved by up to 0.1", "moved by up to 0.1; 1 value became NaN", "both values became NaN":
// what a step did to one row (a NaN is no distance, so it is never "moved by 0").
std::string describe_move(const RowChange& change, std::size_t dim);

// The short form for a figure's cell: the largest move, or "NaN" when every changed value became NaN.
std::string move_cell(const RowChange& change);

// "torch.optim.Adam(lr=0.1, betas=(0.9, 0.999), eps=1e-08, weight_decay=0)"
std::string describe_optimizer(const OptimizerSettings& settings);

// "Every row that moved was in its step's batch: ...", or why rows outside a batch moved.
std::string training_summary(const TrainingArgs& args, const TrainingRun& run);

}  // namespace embdemo
