// `embdemo grad --trace`: one used row of dE at a time, the way each backward builds it. The
// embedding's backward starts the row at 0 and adds scale * G[i] for every position i that
// holds the row's id (skipping the padding row); the one-hot backward writes one value of the
// row as a dot product over all positions, X[i,k] * G[i,j], in which every position of another
// id contributes 0 * G[i,j]. Every sentence comes from the lesson's numbers.
#pragma once

#include <string>

#include "core/lessons/grad_lesson.hpp"
#include "render/views/text.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {

// Rows traced: the used rows in order of id, at most this many (a note counts the rest).
inline constexpr std::size_t k_max_traced_rows = 8;

// One used row's trace, as render_grad_trace writes it (the HTML page makes each a step).
std::string render_grad_trace_row(const GradLesson& lesson, const GradRow& row, const Screen& screen,
                                  const TextOptions& options);

std::string render_grad_trace(const GradLesson& lesson, const Screen& screen, const TextOptions& options);

}  // namespace embdemo
