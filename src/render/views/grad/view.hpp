// `embdemo grad`'s views, the one include of its command: the backward pass's report for the
// machine formats (report.hpp), its text view and trace (text.hpp, trace.hpp), its figure and
// PyTorch script; and with --optimizer the steps' report, text, figure and script
// (train_report.hpp, train_text.hpp). Each is a pure function of the lesson's result.
#pragma once

#include <cstdint>
#include <string>

#include "core/kernels/optim.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/grad/report.hpp"
#include "render/views/grad/text.hpp"
#include "render/views/grad/trace.hpp"
#include "render/views/grad/train_report.hpp"
#include "render/views/grad/train_text.hpp"

namespace embdemo {

// The same two pictures for the backward pass: G's rows scatter-added into dE's rows, and
// one_hot(idx).T @ G.
Figure grad_figure(const GradLesson& lesson, int precision);

// The rows of E each optimizer step moved (and by how much), and E before and after.
Figure training_figure(const TrainingArgs& args, const TrainingRun& run, int precision);

// `upstream_file` is --upstream FILE when G comes from a file, else empty.
std::string render_grad_python(const GradLesson& lesson, const std::string& upstream_file);

// The most float32 values render_grad_python embeds, from the request: the used rows of both
// gradients (at most one a distinct id), one unused row, and the sparse values and max_norm's
// rows when asked (lesson_plans_test checks the bound).
std::uint64_t grad_script_values(const GradRequest& request);

// torch.optim steps on nn.Embedding: which rows each step moved, and the final table.
std::string render_training_python(const TrainingArgs& args, const TrainingRun& run);

}  // namespace embdemo
