// `embdemo train`'s views, the one include of its command: its sheet, which every format renders
// (render/sheet), and its figure's panels.
#pragma once

#include <string>
#include <vector>

#include "core/lessons/train_lesson.hpp"
#include "render/kit/figure_model.hpp"
#include "render/sheet/lesson_sheet.hpp"

namespace embdemo {

inline constexpr const char* k_train_lesson_schema = "embdemo-train/1";

// The largest distance, in float32 steps (ulps), between the table embdemo trains and PyTorch's
// after the run's steps that the script accepts: PyTorch's log_softmax takes SLEEF's exp and its
// eight-lane sums (docs/design.md, "How train matches PyTorch").
inline constexpr std::uint64_t k_train_ulp_bound = 64;

// What the text view and the script name the rows by: the text's units, or "id k".
struct TrainLabels {
    std::vector<std::string> rows;  // empty: typed ids
    std::string of(std::size_t row) const;
};

// The steps the view lists: the first, every k-th after it, and the last.
std::vector<std::size_t> shown_steps(std::size_t steps, std::size_t every);

// "▇▆▅▃▂▁": one block per value, scaled from the smallest to the largest.
std::string sparkline(const std::vector<double>& values);

// The lesson's tables, from the request alone when `lesson` is null (the plan: shapes only).
std::vector<SheetTable> train_tables(const TrainRequest& request, const TrainLesson* lesson);

struct TrainViewSettings {
    std::size_t every = 1;
    std::string level;   // "GPT-2 tokens", "words", "characters", or "" for typed ids
    TrainLabels labels;
    // The ids as the header lists them: the run's, without their text (a text's units are the
    // table's rows, not GPT-2's tokens; the header says what they are).
    IdBatch shown_ids;
    std::string text;       // the text trained on, or "" for typed ids
    std::string text_note;  // "4,013,873 bytes, cut into words"
    std::string text_quote;
};

LessonSheet train_sheet(const TrainLesson& lesson, const TrainViewSettings& settings);

Figure train_figure(const TrainLesson& lesson, const TrainViewSettings& settings, int precision);

}  // namespace embdemo
