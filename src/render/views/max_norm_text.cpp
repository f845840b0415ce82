#include "render/views/max_norm_text.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/kernels/difference.hpp"
#include "core/limits.hpp"
#include "render/kit/explain.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/paint.hpp"
#include "render/kit/parameters.hpp"
#include "render/views/partways_text.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {
namespace {

std::string header(const MaxNormLesson& lesson) {
    const MaxNormRequest& request = lesson.request;
    std::string out = "Embedding lookup with max_norm vs one-hot matrix product\n";
    for (const Parameter& parameter : demo_parameters(request.demo, format_id_batch(request.ids))) {
        out += format_parameter_row(parameter);
    }
    return out + wrap_words(fmt::format("nn.Embedding({}, {}, {})", request.demo.vocab_size, request.demo.dim,
                                        max_norm_arguments(request.max_norm)),
                            "  module ", "         ");
}

// "ids[2] = 1": the label of row i of an n x d result.
std::string result_label(const IdBatch& ids, std::size_t i) {
    return fmt::format("ids[{}] = {}", torch_index(ids.shape(), i),
                       ids.values[i]);
}

// "row 1", "rows 1 and 3", "rows 0, 1, 2, ... (9 in all)".
std::string list_rows(const std::vector<std::size_t>& rows) {
    if (rows.size() == 1) return fmt::format("row {}", rows[0]);
    if (rows.size() <= 4) {
        std::string text = "rows ";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            text += fmt::format("{}{}", i == 0 ? "" : i + 1 == rows.size() ? " and " : ", ", rows[i]);
        }
        return text;
    }
    return fmt::format("rows {}, {}, {}, ... ({} in all)", rows[0], rows[1], rows[2], group_thousands(rows.size()));
}

// What the rescaled rows look like to a second call, one clause per kind of row in
// lesson.after (usually one: every norm is max_norm to within rounding).
std::string second_call(const MaxNormLesson& lesson) {
    using Kind = RenormAfter::Kind;
    std::vector<std::string> clauses;
    for (const Kind kind : {Kind::at_max_norm, Kind::below, Kind::above, Kind::nan_norm, Kind::inf_norm}) {
        std::vector<std::size_t> rows;
        float largest = 0.0f;
        bool scaled_by_zero = true;
        for (const RenormAfter& row : lesson.after) {
            if (row.kind != kind) continue;
            rows.push_back(row.row);
            if (rows.size() == 1 || row.norm > largest) largest = row.norm;
            for (const RenormRow& seen : lesson.rows) {
                if (seen.row == row.row && seen.scale != 0.0f) scaled_by_zero = false;
            }
        }
        if (rows.empty()) continue;
        const bool one = rows.size() == 1;
        const bool all = rows.size() == lesson.after.size();
        const std::string who = all && !one ? "the rescaled rows" : list_rows(rows);
        const std::string norms = one ? fmt::format("norm {}", shortest_round_trip(largest))
                                      : fmt::format("norms up to {}", shortest_round_trip(largest));
        switch (kind) {
            case Kind::at_max_norm:
                // Every rescaled row (the usual case) keeps the sentence the goldens have always had.
                clauses.push_back(fmt::format("{} max_norm to within float32 rounding ({} {}), so at most a rounding "
                                              "step is left to rescale",
                                              one ? (all ? std::string("the rescaled row's norm is now") : who + "'s norm is now")
                                                  : all ? std::string("the rescaled rows' norms are now")
                                                        : who + "' norms are now",
                                              one ? "norm" : "largest", shortest_round_trip(largest)));
                break;
            case Kind::below:
                clauses.push_back(fmt::format("{} now {} {}, not above max_norm, so {} left as {} {}", who,
                                              one ? "has" : "have", norms, one ? "it is" : "they are", one ? "it" : "they",
                                              one ? "is" : "are"));
                break;
            case Kind::above:
                clauses.push_back(fmt::format("{} now {} {}, still above max_norm, so {} rescaled again", who,
                                              one ? "has" : "have", norms, one ? "it is" : "they are"));
                break;
            case Kind::nan_norm:
                clauses.push_back(fmt::format("{} now {} nan{}, so {} nan, and nan > max_norm is false: {} left as {} {}",
                                              who, one ? "holds" : "hold", scaled_by_zero ? " (inf * 0, the scale being 0)" : "",
                                              one ? "its norm is" : "their norms are", one ? "it is" : "they are",
                                              one ? "it" : "they", one ? "is" : "are"));
                break;
            case Kind::inf_norm:
                clauses.push_back(fmt::format("{} now {} norm inf, still above max_norm, so {} rescaled again", who,
                                              one ? "has" : "have", one ? "it is" : "they are"));
                break;
        }
    }
    std::string text;
    for (const std::string& clause : clauses) text += (text.empty() ? "" : "; ") + clause;
    return text;
}

// Why emb(ids) and one_hot(ids) @ E as drawn differ: the rows max_norm rescaled, where the
// differing values lie in them; and, for a differing value in a row it kept, what the lookup
// lesson says without max_norm (a -0.0 the product's +0 start loses, inf or nan elsewhere in the
// column, NaN bits), for the first such value.
std::string why_lines(const MaxNormLesson& lesson, std::size_t rescaled) {
    const TokenIds& ids = lesson.request.ids.values;
    std::set<std::uint64_t> rescaled_rows;
    for (const RenormRow& row : lesson.rows) {
        if (row.rescaled) rescaled_rows.insert(row.row);
    }
    std::size_t in_rescaled = 0;
    std::size_t elsewhere = 0;
    std::optional<Difference> first_kept;
    const std::size_t d = lesson.lookup.cols;
    for (std::size_t t = 0; t < ids.size(); ++t) {
        for (std::size_t j = 0; j < d; ++j) {
            if (std::memcmp(lesson.lookup.row(t) + j, lesson.onehot_drawn.row(t) + j, sizeof(float)) == 0) continue;
            if (rescaled_rows.count(ids[t])) {
                ++in_rescaled;
                continue;
            }
            ++elsewhere;
            if (!first_kept) first_kept = difference_at(lesson.weight, ids, lesson.lookup, lesson.onehot_drawn, t, j);
        }
    }
    std::string out;
    const char* lead = "  why: ";
    if (in_rescaled != 0) {
        out += wrap_words(fmt::format("emb(ids) rescaled {} {} of E in place before reading {}; the one-hot "
                                      "product read E as it was drawn",
                                      rescaled, rescaled == 1 ? "row" : "rows", rescaled == 1 ? "it" : "them"),
                          lead, "       ");
        lead = "       ";
    }
    if (elsewhere != 0) {
        // A kept row is the same in E as drawn and after the call: the lookup lesson's analysis
        // holds for it, and is printed only when it does.
        const IdShape shape = lesson.request.ids.shape();
        const bool holds = first_kept && difference_holds(*first_kept, lesson.weight, ids, lesson.lookup,
                                                          lesson.onehot_drawn);
        const std::string cause = holds ? explain_difference(*first_kept, shape)
                                        : std::string("the one-hot product does not reproduce the lookup");
        out += wrap_words(fmt::format("{}{} in rows max_norm kept, as without max_norm: {}",
                                      in_rescaled != 0 ? "and " : "", count_of(elsewhere, "value", "values"), cause),
                          lead, "       ");
    }
    return out;
}

std::string verdict(const MaxNormLesson& lesson, Palette palette) {
    const Comparison& drawn = lesson.drawn_check;
    const Comparison& after = lesson.after_check;
    const std::size_t total = lesson.lookup.values.size();
    std::size_t rescaled = 0;
    for (const RenormRow& row : lesson.rows) rescaled += row.rescaled ? 1 : 0;
    std::string out;
    if (drawn.identical) {
        out = wrap_words(fmt::format("IDENTICAL -- {} of the lookup {} one_hot(ids) @ E as drawn bit for bit{}",
                                     all_values(total), total == 1 ? "equals" : "equal",
                                     rescaled == 0 ? ": no looked-up row had a norm above max_norm" : ""),
                         "verdict: ", "  ");
        out.replace(9, 9, paint("IDENTICAL", Paint::good, palette));
    } else {
        // Wrapped uncoloured, then painted: the escape codes must not count as columns.
        out = wrap_words(fmt::format("DIFFERENT -- {} from one_hot(ids) @ E as drawn, max abs diff {}",
                                     differing_values(drawn.differing, total, " of the lookup"),
                                     shortest_round_trip(static_cast<float>(drawn.max_abs_diff))),
                         "verdict: ", "  ");
        out.replace(9, 9, paint("DIFFERENT", Paint::bad, palette));
        out += why_lines(lesson, rescaled);
    }
    out += wrap_words(fmt::format("with E after the call, one_hot(ids) @ E {} the lookup{}", after.identical ? "equals" : "still differs from",
                                  after.identical ? " bit for bit" : fmt::format(" in {} (-0.0, inf or nan in E)", count_of(after.differing, "value", "values"))),
                      "  then: ", "        ");
    if (rescaled == 0) {
        return out + wrap_words("a second emb(ids) finds the same rows, all within max_norm: it changes nothing",
                                "  next: ", "        ");
    }
    return out + wrap_words("a second emb(ids) reads E as the first call left it: " + second_call(lesson),
                            "  next: ", "        ");
}

}  // namespace

std::string render_max_norm_text(const MaxNormLesson& lesson, const TextOptions& options) {
    const IdBatch& ids = lesson.request.ids;
    const Matrix& e = lesson.weight;
    std::set<std::size_t> used(ids.values.begin(), ids.values.end());
    std::vector<std::size_t> forced(used.begin(), used.end());
    if (forced.size() > 8) forced.resize(8);
    const auto rows = visible_positions(e.rows, should_summarise(e.rows, e.cols), forced);
    const auto n_rows = visible_positions(lesson.lookup.rows, should_summarise(lesson.lookup.rows, e.cols));
    std::size_t label = 0;
    for (const std::size_t i : n_rows) {
        if (i != k_gap) label = std::max(label, result_label(ids, i).size());
    }
    // "  > 50256  " and "   after, x 0.03749493" around E's cells; "  [0]  id 5  emb   " and "   differs" around a result's.
    const std::size_t room = std::max(std::to_string(e.rows - 1).size() + 6 + 24, label + 10 + 10);
    // E with its rescaled rows under it, then the results with the product under them: two
    // groups, each spelled as PyTorch prints it.
    const Screen screen = choose_screen({{&e, rows, 0}, {&lesson.weight_after, rows, 0}, {&lesson.lookup, n_rows, 1},
                                         {&lesson.onehot_drawn, n_rows, 1}},
                                        e.cols, options.precision, k_max_line_width - room);
    const auto cells = [&](const Matrix& m, std::size_t r) { return format_row_cells(m, r, screen.cols, screen.format_of(m)); };
    const std::size_t row_label = std::to_string(e.rows - 1).size();

    std::string out = header(lesson) + '\n';
    out += fmt::format("E as drawn, and after emb(ids)   {} x {}   > marks the rows the ids use\n",
                       group_thousands(e.rows), group_thousands(e.cols));
    for (const std::size_t k : rows) {
        if (k == k_gap) {
            out += fmt::format("  {}   ...\n", std::string(row_label + 1, ' '));
            continue;
        }
        const auto seen = std::find_if(lesson.rows.begin(), lesson.rows.end(), [k](const RenormRow& r) { return r.row == k; });
        const bool rescaled = seen != lesson.rows.end() && seen->rescaled;
        out += fmt::format("  {} {}  {}{}\n", used.count(k) ? ">" : " ", pad_left(std::to_string(k), row_label), cells(e, k),
                           rescaled ? "   before" : "");
        if (rescaled) {
            out += fmt::format("    {}  {}   after, x {}\n", std::string(row_label, ' '), cells(lesson.weight_after, k),
                               shortest_round_trip(seen->scale));
        }
    }
    out += hidden_rows_line(hidden_count(rows, {used.begin(), used.end()}), "the rows the ids use");
    out += '\n' + render_renorm_rows(lesson.rows, lesson.request.max_norm);
    out += "\nemb(ids) = E_after[ids], and one_hot(ids) @ E with E as drawn\n";
    for (const std::size_t i : n_rows) {
        if (i == k_gap) {
            out += "    ...\n";
            continue;
        }
        const bool same = std::memcmp(lesson.lookup.row(i), lesson.onehot_drawn.row(i), e.cols * sizeof(float)) == 0;
        out += fmt::format("  {}  emb   {}\n", pad_right(result_label(ids, i), label), cells(lesson.lookup, i));
        out += fmt::format("  {}  X@E   {}{}\n", std::string(label, ' '), cells(lesson.onehot_drawn, i),
                           same ? "" : "   " + paint("differs", Paint::bad, options.palette));
    }
    return out + '\n' + verdict(lesson, options.palette);
}

}  // namespace embdemo
