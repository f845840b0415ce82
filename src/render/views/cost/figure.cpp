// cost_figure: the cost lesson's counts as bars, drawn on a log axis and on a linear one. The dense
// one-hot product's work is V times the lookup's: the log axis gives every method a visible bar
// and turns the ratio into a distance; the linear axis shows it as the ratio of two lengths, the
// lookup's bar a hairline that says it is 1/V of the product's.
#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/views/cost/text.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/views/cost/view.hpp"

namespace embdemo {
namespace {

// The keys: a method keeps its colour in both passes.
int method_key(CostMethod method) { return static_cast<int>(method); }

// What one method does in one pass: the lookup copies rows, the scatter-add adds them, the
// products multiply-add. Each row of the lesson counts only its own kind of work.
std::uint64_t work(const CostLesson& lesson, const CostRow& row) {
    if (row.method == CostMethod::lookup && row.pass == CostPass::forward) {
        return embedding_cost(lesson.request.ids, lesson.request.vocab_size, lesson.request.dim).lookup_copies;
    }
    return row.multiply_adds + row.additions;
}

// "copies", "addition": the row's kind of work, for `count` of it.
std::string work_noun(std::uint64_t count, const CostRow& row) {
    const bool one = count == 1;
    if (row.method != CostMethod::lookup) return one ? "multiply-add" : "multiply-adds";
    if (row.pass == CostPass::forward) return one ? "copy" : "copies";
    return one ? "addition" : "additions";
}

std::string work_count(std::uint64_t count, const CostRow& row) {
    return group_thousands(count) + ' ' + work_noun(count, row);
}

std::string pass_sentence(const CostLesson& lesson, CostPass pass) {
    const CostRow& lookup = cost_row(lesson, CostMethod::lookup, pass);
    const CostRow& dense = cost_row(lesson, CostMethod::onehot_dense, pass);
    const std::uint64_t lookup_work = work(lesson, lookup);
    const std::uint64_t dense_work = work(lesson, dense);
    const std::string name = cost_method_label(CostMethod::lookup, pass);
    const std::string amount = dense_work == lookup_work
                                   ? "as much work as the " + name
                                   : fmt::format("{} the {}'s work", how_many_times(dense_work, lookup_work), name);
    return fmt::format("{}: {} does {} ({} against {}{}), and moves {} its bytes.",
                       pass == CostPass::forward ? "Forward" : "Backward", cost_method_label(CostMethod::onehot_dense, pass),
                       amount, work_count(dense_work, dense), work_count(lookup_work, lookup),
                       dense.zero_multiplies == 0
                           ? ""
                           : fmt::format("; {} of the multiply-adds are by 0", group_thousands(dense.zero_multiplies)),
                       how_many_times(dense.bytes_read + dense.bytes_written, lookup.bytes_read + lookup.bytes_written));
}

}  // namespace

Figure cost_figure(const CostLesson& lesson) {
    const CostRequest& q = lesson.request;
    Figure figure;
    figure.title = fmt::format("The work of a lookup and of a one-hot product{}   (n = {}, V = {}, d = {})",
                               q.model ? fmt::format(", {}", q.model->label) : std::string(),
                               group_thousands(q.ids), group_thousands(q.vocab_size), group_thousands(q.dim));
    figure.keys = {"the lookup (forward) and its scatter-add (backward)", "the dense one-hot product",
                   "the one-hot product with X stored as CSR"};
    FigureChart chart;
    chart.title = "Operations per pass, each method counting its own kind";
    chart.unit = "operations";
    for (const CostRow& row : lesson.rows) {
        const std::uint64_t count = work(lesson, row);
        chart.bars.push_back({fmt::format("{}: {}", cost_pass_name(row.pass), cost_method_label(row.method, row.pass)),
                              static_cast<double>(count), short_count(count) + ' ' + work_noun(count, row),
                              method_key(row.method)});
    }
    figure.chart = std::move(chart);
    figure.caption = {pass_sentence(lesson, CostPass::forward), pass_sentence(lesson, CostPass::backward)};
    return figure;
}

}  // namespace embdemo
