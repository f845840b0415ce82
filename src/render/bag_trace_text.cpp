#include "render/bag_trace_text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/lesson_blocks.hpp"
#include "render/number_format.hpp"
#include "render/table.hpp"

namespace embdemo {
namespace {

// A traced bag and its steps' rows as matrices, so that the screen can size their columns.
struct BagTraceView {
    BagTrace trace;
    Matrix bag_rows;      // one row per step that has a row (a skipped padding id has none)
    Matrix product_rows;  // M @ E's steps (sum and mean)
};

std::vector<const BagStep*> steps_in_order(const BagSteps& steps) {
    std::vector<const BagStep*> all;
    for (const BagStep& step : steps.head) all.push_back(&step);
    for (const BagStep& step : steps.tail) all.push_back(&step);
    return all;
}

Matrix step_rows(const BagSteps& steps, std::size_t d) {
    std::vector<const BagStep*> with_rows;
    for (const BagStep* step : steps_in_order(steps)) {
        if (!step->row.empty()) with_rows.push_back(step);
    }
    Matrix m(with_rows.size(), d);
    for (std::size_t r = 0; r < with_rows.size(); ++r) {
        std::copy(with_rows[r]->row.begin(), with_rows[r]->row.end(), m.values.begin() + static_cast<std::ptrdiff_t>(r * d));
    }
    return m;
}

// "+ E[2]", "+ 0.5 * E[2]", "/ 3", "max E[3]", "skip E[0]".
std::string step_label(const BagStep& step, bool scaled, bool first_offer) {
    switch (step.kind) {
        case BagStep::Kind::add:
            return scaled ? fmt::format("+ {} * E[{}]", shortest_round_trip(step.scale), step.id)
                          : fmt::format("+ E[{}]", step.id);
        case BagStep::Kind::skip_padding: return fmt::format("skip E[{}]", step.id);
        case BagStep::Kind::divide: return fmt::format("/ {}", shortest_round_trip(step.scale));
        case BagStep::Kind::max_offer: return fmt::format("{} E[{}]", first_offer ? "take" : "max", step.id);
    }
    return "";
}

std::string wins(std::size_t taken, std::size_t d) { return fmt::format("wins {} of {}", taken, d); }

std::string step_note(const BagStep& step, std::size_t d, bool first_offer) {
    if (step.kind == BagStep::Kind::skip_padding) return "padding_idx";
    if (step.kind != BagStep::Kind::max_offer || first_offer) return "";
    return step.taken == 0 ? "wins none" : wins(step.taken, d);
}

// The steps of one side, with "... N more" where the middle ones are left out.
std::string render_steps(const BagSteps& steps, const Matrix& rows, bool scaled, std::size_t label_width,
                         const Screen& screen, Palette palette) {
    std::string out;
    std::size_t printed = 0;
    std::size_t row = 0;
    bool first_offer = true;
    for (const BagStep* step : steps_in_order(steps)) {
        if (printed == steps.head.size() && steps.elided > 0) {
            const char* noun = steps.elided == 1 ? "step" : "steps";
            out += fmt::format("    ... {} more {}\n", group_thousands(steps.elided), noun);
        }
        ++printed;
        const std::string label = step_label(*step, scaled, first_offer);
        const std::string note = step_note(*step, rows.cols, first_offer);
        if (step->kind == BagStep::Kind::max_offer) first_offer = false;
        if (step->row.empty()) {
            out += fmt::format("    {}   {}\n", pad_right(label, label_width), note);
            continue;
        }
        out += render_block(rows, {{row++, label, note, false}}, label_width, screen, palette);
    }
    return out;
}

bool weighted(const BagLesson& lesson) { return !lesson.request.per_sample_weights.empty(); }

// How PyTorch's kernel reduces the bag, in the words of this run's mode and options.
std::string bag_intro(const BagLesson& lesson, std::size_t b) {
    const BagRequest& request = lesson.request;
    const std::size_t count = lesson.bag_sizes[b];
    if (request.mode == BagMode::max) {
        return "bag(input, offsets) takes the first row, then each value of a later row that is strictly larger:";
    }
    std::string how = "bag(input, offsets) adds the rows in bag order from +0";
    if (weighted(lesson)) {
        how = lesson.padding_row ? "bag(input, offsets) rounds w * E[k], then adds it, in bag order from +0 "
                                   "(PyTorch's generic loop, taken with padding_idx)"
                                 : "bag(input, offsets) adds w * E[k] in bag order from +0 with one rounding "
                                   "per step (a fused multiply-add, as PyTorch's vectorised kernel)";
    }
    if (request.mode == BagMode::mean) {
        how += count == 0 ? ", then divides by 1 (max(count, 1): no row counted)"
                          : fmt::format(", then divides by the count, {}", count);
    }
    return how + ":";
}

std::string product_intro(const BagLesson& lesson, std::size_t b, std::size_t terms) {
    if (terms == 0) return fmt::format("M @ E: row {} of M is all zeros, so its row is +0 too.", b);
    const std::string entry = weighted(lesson)                        ? std::string("its summed weights")
                              : lesson.request.mode == BagMode::mean ? fmt::format("its count / {}", lesson.bag_sizes[b])
                                                                     : std::string("its count");
    const std::uint64_t zeros = lesson.request.vocab_size - terms;
    const std::string skipped = zeros == 0   ? ""
                                : zeros == 1 ? " (its other term is zero and changes no bit)"
                                             : fmt::format(" (its other {} terms are zero and change no bit)",
                                                           group_thousands(zeros));
    return fmt::format("M @ E scales each row by its entry of M first ({}), then adds them in order of k from +0{}:",
                       entry, skipped);
}

// Whether a final row is the lesson's, said from the check the trace made.
std::string result_line(bool matches, const char* what, std::size_t b) {
    return matches ? fmt::format("    = {} row {}, bit for bit\n", what, b)
                   : fmt::format("    which is NOT {} row {}: the trace and the lesson disagree\n", what, b);
}

// Where this bag's two final rows part ways, with the values printed in full.
std::string compare_line(const BagLesson& lesson, const BagTrace& trace) {
    const std::size_t d = lesson.output.cols;
    const std::size_t b = trace.bag;
    const UlpDifference& diff = trace.difference;
    if (diff.differing == 0) {
        const std::string columns = d == 1   ? std::string("the only column")
                                    : d == 2 ? std::string("both columns")
                                             : fmt::format("all {} columns", group_thousands(d));
        return wrap_words(fmt::format("The two agree bit for bit in {} of bag {}.", columns, b), "  ", "  ");
    }
    return wrap_words(fmt::format("The two differ in {} of {} columns; most in column {}: {} (bag) and {} (M @ E), "
                                  "{} ulp apart, the same terms rounded in another order.",
                                  group_thousands(diff.differing), group_thousands(d), diff.column,
                                  shortest_round_trip(lesson.output.at(b, diff.column)),
                                  shortest_round_trip(lesson.multihot_matmul.at(b, diff.column)), diff.ulps),
                      "  ", "  ");
}

std::string bag_title(const BagLesson& lesson, std::size_t b) {
    const Bags& bags = lesson.request.bags;
    const std::size_t ids = bags.size(b);
    const std::size_t counted = lesson.bag_sizes[b];
    std::string what = ids == 0 ? "empty" : count_of(ids, "id", "ids");
    if (counted == 0 && ids > 0) {
        what += ids == 1 ? ", padding_idx" : ", all padding_idx";
    } else if (counted != ids) {
        what += fmt::format(", {} of them padding_idx", ids - counted);
    }
    return fmt::format("bag {} ({}):", b, what);
}

std::vector<BagTraceView> bag_trace_views(const BagLesson& lesson) {
    std::vector<BagTraceView> views;
    for (const std::size_t b : traced_bags(lesson)) {
        BagTraceView view;
        view.trace = trace_bag(lesson, b);
        view.bag_rows = step_rows(view.trace.bag_steps, lesson.output.cols);
        view.product_rows = step_rows(view.trace.product_steps, lesson.output.cols);
        views.push_back(std::move(view));
    }
    return views;
}

// The blocks one bag's screen must fit: its steps, both ways.
std::vector<ScreenBlock> trace_blocks(const BagTraceView& view) {
    std::vector<ScreenBlock> blocks;
    for (const Matrix* m : {&view.bag_rows, &view.product_rows}) {
        std::vector<std::size_t> rows(m->rows);
        for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = r;
        if (!rows.empty()) blocks.push_back({m, rows});
    }
    return blocks;
}

std::size_t bag_trace_label_width(const BagLesson& lesson, const std::vector<BagTraceView>& views) {
    std::size_t width = 0;
    for (const BagTraceView& view : views) {
        for (const BagStep* step : steps_in_order(view.trace.bag_steps)) {
            for (const bool first_offer : {false, true}) {
                width = std::max(width, step_label(*step, weighted(lesson), first_offer).size());
            }
        }
        for (const BagStep* step : steps_in_order(view.trace.product_steps)) {
            width = std::max(width, step_label(*step, true, false).size());
        }
    }
    return width;
}

std::size_t bag_trace_note_width(const BagLesson& lesson) {
    // Only max's rows carry a note beside their cells; a skipped id's note has no cells to crowd.
    const std::size_t d = lesson.output.cols;
    return lesson.request.mode == BagMode::max ? wins(d, d).size() : 0;
}

}  // namespace

std::string render_bag_trace(const BagLesson& lesson, const TextOptions& options) {
    const std::vector<BagTraceView> views = bag_trace_views(lesson);
    const Palette palette = options.palette;
    const std::size_t bag_count = lesson.request.bags.count();
    const std::size_t label_width = bag_trace_label_width(lesson, views);
    const std::size_t budget = block_cells_budget(label_width, bag_trace_note_width(lesson));
    const bool is_max = lesson.request.mode == BagMode::max;
    std::string shown = views.size() == bag_count
                            ? (bag_count == 1   ? std::string("the only bag")
                               : bag_count == 2 ? std::string("both bags")
                                                : fmt::format("all {} bags", bag_count))
                            : fmt::format("bags 0 to {} of {}", std::min(bag_count, k_max_traced_bags) - 1,
                                          group_thousands(bag_count));
    if (views.size() > std::min(bag_count, k_max_traced_bags)) {
        shown += fmt::format(", and bag {}, where M @ E differs most", views.back().trace.bag);
    }
    std::string out = wrap_words(fmt::format("Step by step ({}): the running row after each step{}", shown,
                                             is_max ? "" : ", in both orders"),
                                 "", "  ");
    for (const BagTraceView& view : views) {
        const std::size_t b = view.trace.bag;
        // A screen per bag: a long bag's running sums need wider cells than a short one's.
        const Screen screen = choose_screen(trace_blocks(view), lesson.output.cols, options.precision, budget);
        out += '\n' + bag_title(lesson, b) + '\n';
        out += wrap_words(bag_intro(lesson, b), "  ", "  ");
        out += render_steps(view.trace.bag_steps, view.bag_rows, weighted(lesson), label_width, screen, palette);
        if (lesson.bag_sizes[b] == 0 && !(lesson.request.mode == BagMode::mean)) {
            out += "    no row counted: the row stays +0 in every column\n";
        }
        out += result_line(view.trace.bag_matches, "the output's", b);
        if (is_max) continue;
        const BagSteps& product = view.trace.product_steps;
        const std::size_t terms = product.head.size() + product.elided + product.tail.size();
        out += wrap_words(product_intro(lesson, b, terms), "  ", "  ");
        if (terms > 0) {
            out += render_steps(product, view.product_rows, true, label_width, screen, palette);
            out += result_line(view.trace.product_matches, "M @ E's", b);
        }
        out += compare_line(lesson, view.trace);
    }
    return out;
}

}  // namespace embdemo
