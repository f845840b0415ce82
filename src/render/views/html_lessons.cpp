// The HTML pages of the lessons: the notebook lesson (lookup) from the walkthrough's steps, with
// the explorer; grad from its text view, its --max-norm renorm and its --trace rows; any other
// lesson from its figure and its text view's steps (lesson_page).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/views/grad/text.hpp"
#include "render/views/figure.hpp"
#include "render/views/grad/trace.hpp"
#include "render/formats/html.hpp"
#include "render/views/partways_text.hpp"
#include "render/kit/text_sections.hpp"
#include "render/views/walkthrough.hpp"
#include "render/views/grad/view.hpp"

namespace embdemo {
namespace {

// "Outlined in the figure: row 2 of E (ids[0]).", "... rows 1, 2 and 3 of E (the ids)."
std::string describe_rows(const std::vector<std::uint64_t>& rows, const char* matrix, const std::string& why) {
    std::string list;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == rows.size() ? " and " : ", ") + group_thousands(rows[i]);
    }
    return fmt::format("Outlined in the figure: {} {} of {} ({}).", rows.size() == 1 ? "row" : "rows", list, matrix,
                       why);
}

// The most lines of text a step shows: what a 1280 x 720 screen's panel holds at about 13 px.
constexpr std::size_t k_screen_lines = 28;

std::size_t line_count(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1; }

// A text's blocks: its runs of lines between blank lines.
std::vector<std::string> blocks_of(const std::string& text) {
    std::vector<std::string> blocks;
    std::string block;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line.find_first_not_of(' ') == std::string::npos) {
            if (!block.empty()) blocks.push_back(std::move(block));
            block.clear();
            continue;
        }
        block += (block.empty() ? "" : "\n") + line;
    }
    if (!block.empty()) blocks.push_back(std::move(block));
    return blocks;
}

// The figure's matrix a block begins with ("E = token table", "tok = E[ids]"), or "".
std::string block_matrix(const std::string& block, const Figure& figure) {
    const std::string first = block.substr(0, block.find_first_of(" \n"));
    for (const FigurePanel& panel : figure.panels) {
        for (const FigureMatrix& m : panel.items) {
            if (!first.empty() && m.name.substr(0, m.name.find(' ')) == first) return first;
        }
    }
    return "";
}

// "E = token table, nn.Embedding(4, 4)": a block's first line up to its notes (two spaces).
std::string block_title(const std::string& block) {
    const std::string line = block.substr(0, block.find('\n'));
    const std::size_t notes = line.find("  ");
    return notes == std::string::npos ? line : line.substr(0, notes);
}

// "looking up ids" from "Step 3 of 7: looking up ids" ("" from "Step 1 of 1").
std::string step_title(const std::string& heading) {
    if (heading.rfind("Step ", 0) != 0) return heading;
    const std::size_t colon = heading.find(": ");
    return colon == std::string::npos ? "" : heading.substr(colon + 2);
}

// Steps longer than a screen split at blank lines into screens of at most k_screen_lines (a
// longer block, such as a table of many rows, by lines), each part outlining what its step
// does; then every heading numbered "Step i of n".
std::vector<HtmlStep> on_screens(std::vector<HtmlStep> steps) {
    std::vector<HtmlStep> screens;
    for (HtmlStep& step : steps) {
        const std::string title = step_title(step.heading);
        if (line_count(step.body) <= k_screen_lines) {
            step.heading = title;
            screens.push_back(std::move(step));
            continue;
        }
        std::string part;
        std::size_t parts = 0;
        const auto flush = [&] {
            HtmlStep screen = step;
            screen.heading = parts++ == 0 ? title : title + (title.empty() ? "continued" : " (continued)");
            screen.body = std::move(part);
            screens.push_back(std::move(screen));
            part.clear();
        };
        for (const std::string& block : blocks_of(step.body)) {
            if (!part.empty() && line_count(part) + 1 + line_count(block) > k_screen_lines) flush();
            // A block longer than a screen (a table of many rows) goes on in the next screens.
            std::size_t start = 0;
            while (line_count(block.substr(start)) > k_screen_lines) {
                std::size_t end = start;
                for (std::size_t line = 0; line < k_screen_lines; ++line) end = block.find('\n', end) + 1;
                part += block.substr(start, end - 1 - start);
                flush();
                start = end;
            }
            part += (part.empty() ? "" : "\n\n") + block.substr(start);
        }
        if (!part.empty()) flush();
    }
    for (std::size_t s = 0; s < screens.size(); ++s) {
        const std::string& title = screens[s].heading;
        screens[s].heading = fmt::format("Step {} of {}{}{}", s + 1, screens.size(), title.empty() ? "" : ": ", title);
    }
    return screens;
}

}  // namespace

HtmlPage lookup_page(const DemoReport& report, const Matrix& linear_init, int precision, const Gpt2Vocabulary* vocab) {
    const DemoRequest& request = report.request;
    HtmlPage page;
    page.title = "An embedding layer is a linear layer on one-hot vectors";
    page.intro = fmt::format("{} token ids, a table of V x d = {} x {}: the notebook's lesson with this run's numbers. "
                             "Right and left arrow keys (or the buttons) move between the steps.",
                             group_thousands(request.ids.size()), group_thousands(request.vocab_size),
                             group_thousands(request.dim));
    page.figure = lookup_figure(report, precision);
    TextOptions text;
    text.precision = precision;
    const std::vector<WalkthroughStep> steps = walkthrough_steps(report, linear_init, text, vocab);
    for (std::size_t s = 0; s < steps.size(); ++s) {
        HtmlStep step;
        step.heading = step_heading(s + 1, steps.size(), steps[s]);
        step.body = steps[s].body;
        std::set<std::uint64_t> rows;
        if (steps[s].focus.empty()) {
            rows.insert(request.ids.begin(), request.ids.end());
        } else {
            for (const std::size_t i : steps[s].focus) rows.insert(request.ids[i]);
        }
        step.rows.assign(rows.begin(), rows.end());
        step.focus = describe_rows(step.rows, "E", steps[s].focus.empty()
                                                  ? std::string(rows.size() == 1 ? "the id" : "the ids")
                                                  : describe_positions(steps[s].focus, request.shape));
        page.steps.push_back(std::move(step));
    }
    page.steps = on_screens(std::move(page.steps));
    page.explorer = page_explorer(report.weight, request.ids, request.source);
    return page;
}

HtmlPage lesson_page(std::string title, std::string intro, Figure figure, std::vector<std::string> text_steps) {
    HtmlPage page;
    page.title = std::move(title);
    page.intro = std::move(intro);
    std::vector<HtmlStep> steps;
    for (const std::string& text : text_steps) {
        bool merging = false;  // the last step names no matrix: a block naming none joins it
        for (std::string& block : blocks_of(text)) {
            const std::string matrix = block_matrix(block, figure);
            if (matrix.empty() && merging) {
                steps.back().body += "\n\n" + block;
                continue;
            }
            HtmlStep step;
            step.heading = block_title(block);
            step.matrix = matrix;
            step.body = std::move(block);
            merging = matrix.empty();
            steps.push_back(std::move(step));
        }
    }
    page.steps = on_screens(std::move(steps));
    page.figure = std::move(figure);
    return page;
}

HtmlPage grad_page(const GradLesson& lesson, int precision) {
    const GradRequest& request = lesson.request;
    HtmlPage page;
    page.title = "The backward pass of an embedding, two ways";
    page.intro = fmt::format("{} token ids, a table of V x d = {} x {}: the scatter-add of nn.Embedding and the linear "
                             "layer's one_hot(ids).T @ G, row by row.{} Right and left arrow keys (or the buttons) move "
                             "between the steps.",
                             group_thousands(request.ids.values.size()), group_thousands(request.vocab_size),
                             group_thousands(request.dim),
                             request.max_norm ? fmt::format(" With {}, the forward first renormalises the rows of E it "
                                                            "reads, in place; the gradient does not change.",
                                                            max_norm_arguments(*request.max_norm))
                                              : "");
    page.figure = grad_figure(lesson, precision);
    TextOptions text;
    text.precision = precision;
    const auto& used = lesson.comparison.rows;
    const std::size_t traced = std::min(used.size(), k_max_traced_rows);
    const std::size_t renorm_steps = request.max_norm ? 1 : 0;
    const std::size_t count = 1 + renorm_steps + traced;
    HtmlStep overview;
    overview.heading = fmt::format("Step 1 of {}: both gradients", count);
    overview.body = render_grad_text(lesson, text, false);
    for (std::size_t r = 0; r < traced; ++r) overview.rows.push_back(used[r].row);
    // The trace steps follow the first used rows; more than that are outlined as a count.
    const std::string which = traced == used.size() ? std::string("the rows the ids use")
                                                    : fmt::format("{} of the {} rows the ids use", traced,
                                                                  group_thousands(used.size()));
    overview.focus = overview.rows.empty() ? "" : describe_rows(overview.rows, "dE", which);
    page.steps.push_back(std::move(overview));
    if (request.max_norm) {
        HtmlStep renorm;
        renorm.heading = fmt::format("Step 2 of {}: max_norm renormalises E in the forward", count);
        const std::string body = render_grad_max_norm(lesson, text);
        renorm.body = body.substr(body.find_first_not_of('\n'));
        for (const RenormRow& row : lesson.renorm) {
            if (row.rescaled) renorm.rows.push_back(row.row);
        }
        renorm.focus = renorm.rows.empty() ? "" : describe_rows(renorm.rows, "E", "rescaled by max_norm");
        page.steps.push_back(std::move(renorm));
    }
    const GradLayout layout = grad_layout(lesson, precision);
    for (std::size_t r = 0; r < traced; ++r) {
        HtmlStep step;
        step.heading = fmt::format("Step {} of {}: row {} of dE", r + 2 + renorm_steps, count,
                                   group_thousands(used[r].row));
        step.body = render_grad_trace_row(lesson, used[r], layout.screen, text);
        step.rows = {used[r].row};
        step.focus = describe_rows(step.rows, "dE", describe_positions(used[r].positions, request.ids.shape()));
        page.steps.push_back(std::move(step));
    }
    page.steps = on_screens(std::move(page.steps));
    return page;
}

}  // namespace embdemo
