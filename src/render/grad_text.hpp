// The text view of `embdemo grad`: E with the used rows marked, the upstream gradient G, both
// gradients dE row by row (unused rows visibly 0, repeated ids annotated with the sum that made
// their row, the padding row and scaled rows explained), how many rows receive a gradient, and
// a verdict on the two ways. Every sentence comes from the lesson's numbers.
#pragma once

#include <string>

#include "core/grad_lesson.hpp"
#include "render/text.hpp"

namespace embdemo {

// "G[3]" for a flat list, "G[1,0]" for a batch (b, t), as torch indexes the tensor.
std::string position_label(const IdBatch& ids, std::size_t flat);

// With `trace`, each used row's gradient is also built step by step (render/grad_trace).
std::string render_grad_text(const GradLesson& lesson, const TextOptions& options, bool trace);

}  // namespace embdemo
