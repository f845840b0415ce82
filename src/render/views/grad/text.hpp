// The text view of `embdemo grad`: E with the used rows marked, the upstream gradient G, both
// gradients dE row by row (unused rows visibly 0, repeated ids annotated with the sum that made
// their row, the padding row and scaled rows explained), how many rows receive a gradient, and
// a verdict on the two ways. Every sentence comes from the lesson's numbers.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/lessons/grad_lesson.hpp"
#include "render/views/text.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {

// What the text view shows of a summarised run: the rows of E and dE (edges and up to eight
// used rows), G's rows, and the columns and number format every block shares. The figure
// (render/views/figure) summarises with the same choice.
struct GradLayout {
    std::vector<std::size_t> rows;    // of E and dE, k_gap between runs
    std::vector<std::size_t> g_rows;  // of G
    std::size_t g_label = 0;          // width of G's row labels ("G[1,0]")
    Screen screen;
};
GradLayout grad_layout(const GradLesson& lesson, int precision);

// "3 of 5 rows receive a gradient ...; the other 2 stay exactly 0.", worded for one, all and
// none, from the claims (the text view's last paragraph, the figure's caption).
std::string rows_with_gradient_sentence(const GradClaims& claims);

// With `trace`, each used row's gradient is also built step by step (render/views/grad/trace).
std::string render_grad_text(const GradLesson& lesson, const TextOptions& options, bool trace);

}  // namespace embdemo
