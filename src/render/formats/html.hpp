// --format html: a lesson as one self-contained page for a projector or a phone. Inline CSS and
// JS only (no fonts, scripts or images from anywhere), the figure inline as SVG at its own size
// or larger (never shrunk: its numbers stay at 12 CSS px or more, and a figure wider than the
// screen scrolls inside its box), one section per step with the step's text exactly as the text
// views print it. The steps' script shows one section at a time and outlines the rows of E the
// step is about; arrow keys and buttons move between steps; printing shows every step. A page
// can add an explorer (the lookup lesson does): E, or the rows the text view shows of it,
// embedded bit for bit, and a field where the learner types other ids and sees the lookup, the
// one-hot rows and the product computed in the page.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "core/lessons/report.hpp"
#include "render/kit/figure_model.hpp"

namespace embdemo {

struct HtmlStep {
    std::string heading;               // "Step 3 of 7: looking up ids"
    std::string body;                  // preformatted text, 80 columns
    std::vector<std::uint64_t> rows;   // rows of E (or dE) outlined while the step is shown
    std::string focus;                 // the sentence that says which rows and why
    std::string matrix;                // the figure's matrix the step speaks of (its name's first word), or ""
};

// The most values of E a page embeds for its explorer: 256 KiB of float32, about 350 KB of
// base64 text. Above it the explorer says it is off and why, and the page stays a few hundred
// kilobytes at GPT-2 size.
inline constexpr std::uint64_t k_max_page_values = 65'536;
// The most ids the explorer takes at once (its tables stay a screenful).
inline constexpr std::uint64_t k_max_page_ids = 32;
// The most tokens the explorer knows by name: the run's first distinct ids of a text, so that a
// page of a long text stays small (4,096 tokens are about 60 KB).
inline constexpr std::size_t k_max_page_tokens = 4'096;

// "Try other ids": the page computes, with Math.fround, the lookup E[ids], one_hot(ids) and
// one_hot(ids) @ E in the in-order float32 arithmetic of core/kernels/embedding's `matmul`, and the
// verdict line the text view prints, from the bits.
struct HtmlExplorer {
    std::uint64_t vocab_size = 0;
    std::uint64_t dim = 0;
    std::string ids;       // the field's first value: the run's ids, "2,3,1"
    std::string weights;   // the carried rows' float32 values, little-endian bytes in base64; empty when off
    std::string off;       // why the explorer is off (E's carried rows too large); empty when on
    // Past k_max_page_values E is carried as the text view summarises it: its first and last
    // k_edge_items rows and the run's distinct ids (while they fit), ascending; empty when every
    // row is carried. A product's sum over all V rows still needs the rows left out only where
    // they hold inf or nan (0 * a finite value adds a zero that changes no sum):
    // `outside` lists, per column, the first such value of a left-out row, "j k bits" (hex), ";"-joined.
    std::vector<std::uint64_t> rows;
    std::string outside;
    // With --text: {"7120": "Your", ...} (JSON, token_label's spelling), the run's distinct ids
    // up to k_max_page_tokens; the explorer names these ids' tokens. Empty for typed ids.
    std::string tokens;
    const char* tokens_name = "GPT-2 tokens";  // what names them: tokenizer_tokens of the run's
};

struct HtmlPage {
    std::string title;
    std::string intro;
    Figure figure;
    std::vector<HtmlStep> steps;
    std::optional<HtmlExplorer> explorer;
};

std::string render_html(const HtmlPage& page);

// Any lesson with a figure and a text view: the text view's blocks (split at blank lines) in its
// order, one step each, a block that begins with a matrix of the figure ("E = ...", "tok = ...")
// pointing at it; neighbouring blocks that name no matrix (the run's sizes, notes, the verdict)
// are one step. No explorer.
HtmlPage lesson_page(std::string title, std::string intro, Figure figure, std::vector<std::string> text_steps);

// The explorer for E (V x d) and the run's ids (with their tokens when `source` is a text): all
// of E up to k_max_page_values, else the rows it can show; off, with the reason, when even E's
// edge rows are more than k_max_page_values.
HtmlExplorer page_explorer(const Matrix& weight, const TokenIds& ids, const IdSource& source = {});

// The notebook lesson: the steps of --walkthrough and the lookup figure. `linear_init` and
// `vocab` as render_walkthrough takes them.
HtmlPage lookup_page(const DemoReport& report, const Matrix& linear_init, int precision,
                     const Gpt2Vocabulary* vocab = nullptr);

// The backward pass: the grad text view, then one step per used row (at most eight).
HtmlPage grad_page(const GradLesson& lesson, int precision);

}  // namespace embdemo
