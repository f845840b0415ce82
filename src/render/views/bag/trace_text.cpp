#include "render/views/bag/trace_text.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

// A traced bag and its steps' rows as matrices, so that the screen can size their columns.
struct BagTraceView {
    BagTrace trace;
    Matrix bag_rows;      // one row per shown step that has a row (a skipped padding id has none)
    Matrix product_rows;  // M @ E's shown steps (sum and mean)
};

Matrix step_rows(const BagSteps& steps, std::size_t d) {
    std::vector<const BagStep*> with_rows;
    for (const BagStep* step : steps.shown()) {
        if (!step->row.empty()) with_rows.push_back(step);
    }
    Matrix m(with_rows.size(), d);
    for (std::size_t r = 0; r < with_rows.size(); ++r) {
        std::copy(with_rows[r]->row.begin(), with_rows[r]->row.end(), m.values.begin() + static_cast<std::ptrdiff_t>(r * d));
    }
    return m;
}

// "+ E[2]", "+ 0.5 * E[2]", "/ 3", "take E[2]", "max E[3]", "skip E[0]".
std::string step_label(const BagStep& step, bool scaled) {
    switch (step.kind) {
        case BagStep::Kind::add:
            return scaled ? fmt::format("+ {} * E[{}]", shortest_round_trip(step.scale), step.id)
                          : fmt::format("+ E[{}]", step.id);
        case BagStep::Kind::skip_padding: return fmt::format("skip E[{}]", step.id);
        case BagStep::Kind::divide: return "/ " + group_thousands(static_cast<std::uint64_t>(step.scale));
        case BagStep::Kind::max_take: return fmt::format("take E[{}]", step.id);
        case BagStep::Kind::max_offer: return fmt::format("max E[{}]", step.id);
    }
    return "";
}

std::string wins(std::size_t taken, std::size_t d) { return fmt::format("wins {} of {}", taken, d); }

std::string step_note(const BagStep& step, std::size_t d) {
    if (step.kind == BagStep::Kind::skip_padding) return "padding_idx";
    if (step.kind != BagStep::Kind::max_offer) return "";
    return step.taken == 0 ? "wins none" : wins(step.taken, d);
}

// "    column    0       1  ...       7": which column each cell is, over a bag's steps.
std::string column_numbers(std::size_t label_width, const Screen& screen) {
    const std::string cells = text_cells(screen, [](std::size_t c) { return std::to_string(c); });
    return fmt::format("    {}  {}\n", pad_right("column", label_width), cells);
}

// The steps of one side, with "... N more steps" where the middle ones are left out.
std::string render_steps(const BagSteps& steps, const Matrix& rows, bool scaled, std::size_t label_width,
                         const Screen& screen, Palette palette) {
    std::string out;
    std::size_t printed = 0;
    std::size_t row = 0;
    for (const BagStep* step : steps.shown()) {
        if (printed == steps.head.size() && steps.hidden() > 0) {
            out += fmt::format("    ... {} more steps\n", group_thousands(steps.hidden()));
        }
        ++printed;
        const std::string label = step_label(*step, scaled);
        const std::string note = step_note(*step, rows.cols);
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
        return "bag(input, offsets) takes the first counted row, then each value of a later row that is strictly "
               "larger:";
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
                          : fmt::format(", then divides by the count, {}", group_thousands(count));
    }
    return how + ":";
}

std::string product_intro(const BagLesson& lesson, std::size_t b, std::size_t terms) {
    if (terms == 0) return fmt::format("In order: row {} of M is all zeros, so row {} of the in-order M @ E is +0.", b, b);
    const std::string entry = weighted(lesson)                        ? std::string("the sum of its weights")
                              : lesson.request.mode == BagMode::mean ? "its count / " + group_thousands(lesson.bag_sizes[b])
                                                                     : std::string("its count");
    const std::uint64_t zeros = lesson.request.vocab_size - terms;
    const std::string skipped = zeros == 0   ? ""
                                : zeros == 1 ? " (its other term is zero and changes no bit)"
                                             : fmt::format(" (its other {} terms are zero and change no bit)",
                                                           group_thousands(zeros));
    return fmt::format("The in-order M @ E scales each row by its entry of M first ({}), then adds them in order of k from +0{}:",
                       entry, skipped);
}

// Whether a final row is the lesson's, said from the check the trace made.
std::string result_line(bool matches, const char* what, std::size_t b) {
    return matches ? fmt::format("    = {} row {}, bit for bit\n", what, b)
                   : fmt::format("    which is NOT {} row {}: the trace and the lesson disagree\n", what, b);
}

// Where this bag's two final rows part ways, and why.
std::string compare_line(const BagLesson& lesson, const BagTrace& trace) {
    const std::size_t d = lesson.output.cols;
    const std::size_t b = trace.bag;
    const UlpDifference& diff = trace.difference;
    if (diff.differing == 0) {
        const std::string columns = d == 1   ? fmt::format("bag {}'s only column", b)
                                    : d == 2 ? fmt::format("both columns of bag {}", b)
                                             : fmt::format("all {} columns of bag {}", group_thousands(d), b);
        return wrap_words(fmt::format("The two agree bit for bit in {}.", columns), "  ", "  ");
    }
    const std::string route = route_clause(trace.ways, weighted(lesson));
    const std::string where = diff.differing == 1 ? fmt::format("only in column {}", diff.column)
                                                  : fmt::format("in {}; most in column {}",
                                                                how_many_differ(diff.differing, d, "column", "columns"),
                                                                diff.column);
    return wrap_words(fmt::format("The two differ {}: {}.{}", where,
                                  pair_clause(lesson.output.at(b, diff.column), lesson.multihot_matmul.at(b, diff.column),
                                              diff.ulps),
                                  route.empty() ? "" : " The in-order M @ E " + route + "."),
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
        what += fmt::format(", {} of them padding_idx", group_thousands(ids - counted));
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
    std::size_t width = std::string("column").size();
    for (const BagTraceView& view : views) {
        for (const BagStep* step : view.trace.bag_steps.shown()) {
            width = std::max(width, step_label(*step, weighted(lesson)).size());
        }
        for (const BagStep* step : view.trace.product_steps.shown()) width = std::max(width, step_label(*step, true).size());
    }
    return width;
}

std::size_t bag_trace_note_width(const BagLesson& lesson) {
    // Only max's rows carry a note beside their cells; a skipped id's note has no cells to crowd.
    const std::size_t d = lesson.output.cols;
    return lesson.request.mode == BagMode::max ? wins(d, d).size() : 0;
}

// "(the only bag)", "(all 9 bags)", "(bags 0 to 7 of 12, and bag 9, where M @ E differs most)".
std::string traced_what(const BagLesson& lesson, const std::vector<BagTraceView>& views) {
    const std::size_t bag_count = lesson.request.bags.count();
    if (views.size() == bag_count) {
        return bag_count == 1 ? "the only bag" : bag_count == 2 ? "both bags" : fmt::format("all {} bags", bag_count);
    }
    std::string shown = fmt::format("bags 0 to {} of {}", k_max_traced_bags - 1, group_thousands(bag_count));
    if (views.size() > k_max_traced_bags) {
        shown += fmt::format(", and bag {}, where the in-order M @ E differs most", views.back().trace.bag);
    }
    return shown;
}

}  // namespace

std::string route_clause(const BagRouteDifferences& ways, bool weighted) {
    std::vector<std::string> parts;
    if (ways.reordered) parts.emplace_back("adds the rows in another order");
    if (ways.merged_repeats) {
        parts.emplace_back(weighted ? "sums a repeated id's weights before they scale its row"
                                    : "scales a repeated id's row by its count instead of adding it again");
    }
    if (ways.divided_first) parts.emplace_back("divides before adding instead of after");
    if (ways.fused) parts.emplace_back("rounds each w * E[k] before adding it, where the kernel fuses the two");
    std::string clause;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const char* separator = i == 0 ? "" : i + 1 < parts.size() ? ", " : parts.size() == 2 ? " and " : ", and ";
        clause += separator + parts[i];
    }
    return clause;
}

std::string pair_clause(float bag_value, float product_value, std::uint64_t ulps) {
    const std::string values =
        fmt::format("{} (bag) and {} (in order)", shortest_round_trip(bag_value), shortest_round_trip(product_value));
    if (bag_value == 0.0f && product_value == 0.0f) return values + ", equal numbers whose zeros differ in sign";
    if (!std::isfinite(bag_value) || !std::isfinite(product_value)) {
        return values + ", where float32 overflowed: no distance in ulps means anything there";
    }
    return values + ", " + count_of(ulps, "ulp", "ulps") + " apart";
}

std::string how_many_differ(std::size_t differing, std::size_t total, const char* noun, const char* nouns) {
    if (differing < total) return fmt::format("{} of {} {}", group_thousands(differing), group_thousands(total), nouns);
    if (total == 1) return fmt::format("its only {}", noun);
    if (total == 2) return fmt::format("both {}", nouns);
    return fmt::format("all {} {}", group_thousands(total), nouns);
}

std::string render_bag_trace(const BagLesson& lesson, const TextOptions& options) {
    const std::vector<BagTraceView> views = bag_trace_views(lesson);
    const std::size_t label_width = bag_trace_label_width(lesson, views);
    const std::size_t budget = block_cells_budget(label_width, bag_trace_note_width(lesson));
    const bool is_max = lesson.request.mode == BagMode::max;
    std::string out = wrap_words(fmt::format("Step by step ({}): the running row after each step{}",
                                             traced_what(lesson, views), is_max ? "" : ", in both orders"),
                                 "", "  ");
    for (const BagTraceView& view : views) {
        const std::size_t b = view.trace.bag;
        // A screen per bag: a long bag's running sums need wider cells than a short one's. The
        // column the closing sentence names stays in view.
        std::vector<std::size_t> named;
        if (view.trace.difference.differing > 0) named.push_back(view.trace.difference.column);
        const Screen screen = choose_screen(trace_blocks(view), lesson.output.cols, options.precision, budget, named);
        out += '\n' + bag_title(lesson, b) + '\n';
        out += wrap_words(bag_intro(lesson, b), "  ", "  ");
        if (view.bag_rows.rows > 0 || view.product_rows.rows > 0) out += column_numbers(label_width, screen);
        out += render_steps(view.trace.bag_steps, view.bag_rows, weighted(lesson), label_width, screen, options.palette);
        if (lesson.bag_sizes[b] == 0 && lesson.request.mode != BagMode::mean) {
            out += "    no row counted: the row stays +0 in every column\n";
        }
        out += result_line(view.trace.bag_matches, "the output's", b);
        if (is_max) continue;
        const BagSteps& product = view.trace.product_steps;
        out += wrap_words(product_intro(lesson, b, product.total()), "  ", "  ");
        if (product.total() > 0) {
            out += render_steps(product, view.product_rows, true, label_width, screen, options.palette);
            out += result_line(view.trace.product_matches, "the in-order M @ E's", b);
        }
        out += compare_line(lesson, view.trace);
    }
    return out;
}

}  // namespace embdemo
