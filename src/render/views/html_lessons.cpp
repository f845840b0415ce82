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
    page.explorer = page_explorer(report.weight, request.ids, request.source);
    return page;
}

HtmlPage lesson_page(std::string title, std::string intro, Figure figure, std::vector<std::string> text_steps) {
    HtmlPage page;
    page.title = std::move(title);
    page.intro = std::move(intro);
    page.figure = std::move(figure);
    for (std::size_t s = 0; s < text_steps.size(); ++s) {
        HtmlStep step;
        step.heading = fmt::format("Step {} of {}", s + 1, text_steps.size());
        step.body = std::move(text_steps[s]);
        page.steps.push_back(std::move(step));
    }
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
    return page;
}

}  // namespace embdemo
