// --format html: a lesson as one self-contained page for a projector or a phone. Inline CSS and
// JS only (no fonts, scripts or images from anywhere), the figure inline as SVG, one section per
// step with the step's text exactly as the text views print it; the script only shows one
// section at a time and outlines the rows of E the step is about (it computes nothing). Arrow
// keys and buttons move between steps; printing shows every step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/grad_lesson.hpp"
#include "core/report.hpp"
#include "render/figure.hpp"

namespace embdemo {

struct HtmlStep {
    std::string heading;               // "Step 3 of 7: looking up ids"
    std::string body;                  // preformatted text, 80 columns
    std::vector<std::uint64_t> rows;   // rows of E (or dE) outlined while the step is shown
    std::string focus;                 // the sentence that says which rows and why
};

struct HtmlPage {
    std::string title;
    std::string intro;
    Figure figure;
    std::vector<HtmlStep> steps;
};

std::string render_html(const HtmlPage& page);

// The notebook lesson: the seven steps of --walkthrough and the lookup figure. `linear_init`
// as render_walkthrough takes it.
HtmlPage lookup_page(const DemoReport& report, const Matrix& linear_init, int precision);

// The backward pass: the grad text view, then one step per used row (at most eight).
HtmlPage grad_page(const GradLesson& lesson, int precision);

}  // namespace embdemo
