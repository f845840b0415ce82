#include "render/views/grad/text.hpp"

#include "render/kit/parameters.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/limits.hpp"
#include "render/views/grad/trace.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/paint.hpp"
#include "render/views/partways_text.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {
namespace {

// Notes up to this width stay on their row's line; the columns leave room for them.
constexpr std::size_t k_short_note = 20;

// `cells` then `note` on one line when it fits 80 columns, else the note on the next line.
std::string line_with_note(const std::string& cells, const std::string& note, std::size_t note_indent) {
    if (note.empty()) return cells + '\n';
    if (cells.size() + 3 + note.size() <= k_max_line_width) return cells + "   " + note + '\n';
    return cells + '\n' + wrap_words(note, std::string(note_indent, ' '), std::string(note_indent, ' '));
}

// Used rows forced into a summarised view, as the demo keeps its selected rows.
constexpr std::size_t k_max_forced_rows = 8;

std::string header(const GradLesson& lesson) {
    const GradRequest& request = lesson.request;
    const std::size_t n = request.ids.values.size();
    const std::string v = group_thousands(request.vocab_size);
    const std::string d = group_thousands(request.dim);
    std::string out = "Embedding backward two ways: scatter-add vs one_hot(ids).T @ G\n";
    const std::string shape = describe_id_count(request.ids.shape(), n);
    // Every name/value row goes through format_parameter_row, which moves a note that would pass
    // 80 columns to a line of its own (a 20-digit seed did).
    out += format_parameter_row({"ids", format_id_batch(request.ids), shape});
    for (const Parameter& token : token_parameters(request.ids)) out += format_parameter_row(token);
    out += format_parameter_row({"vocab", v, request.vocab_inferred ? "largest id + 1; set it with --vocab" : ""});
    out += format_parameter_row({"dim", d, ""});
    if (request.origin.kind == WeightOrigin::Kind::file) {
        out += format_parameter_row({"file", escape_for_message(request.origin.detail), ""});
    }
    // A batch's G and X keep its B x T shape, as the lookup lesson prints them.
    const IdShape ids_shape = request.ids.shape();
    out += wrap_words(fmt::format("E {} x {}, G {}, X {}, both dE {} x {}", v, d,
                                  per_id_shape(ids_shape, n, request.dim), per_id_shape(ids_shape, n, request.vocab_size),
                                  v, d),
                      "  shapes ", "         ");
    const bool drawn = seed_draws_table(request.origin);
    if (drawn || request.upstream == UpstreamSource::randn) {
        const std::string g_shape =
            request.ids.batched ? fmt::format("{}, {}", request.ids.batch, request.ids.seq) : std::to_string(n);
        const std::string g_draw = request.upstream == UpstreamSource::randn
                                       ? fmt::format("{}G = torch.randn({}, {})", drawn ? ", then " : "", g_shape,
                                                     request.dim)
                                       : "";
        out += format_parameter_row(
            {"seed", std::to_string(request.seed), fmt::format("torch.manual_seed, then {}{}", drawn ? "E" : "", g_draw)});
    }
    const std::string module = fmt::format("nn.Embedding({}, {}, padding_idx={}, scale_grad_by_freq={}{}{})",
                                           request.vocab_size, request.dim,
                                           request.padding_idx ? std::to_string(*request.padding_idx) : "None",
                                           request.scale_grad_by_freq ? "True" : "False",
                                           request.max_norm ? ", " + max_norm_arguments(*request.max_norm) : "",
                                           request.sparse ? ", sparse=True" : "");
    out += wrap_words(module, "  module ", "         ");
    return out;
}

// The rows of a V-row matrix worth showing: the edges and up to eight used rows.
std::vector<std::size_t> shown_rows(const GradLesson& lesson) {
    std::vector<std::size_t> forced;
    for (const GradRow& row : lesson.comparison.rows) {
        if (forced.size() == k_max_forced_rows) break;
        forced.push_back(row.row);
    }
    if (lesson.options.padding_row && forced.size() < k_max_forced_rows) forced.push_back(*lesson.options.padding_row);
    const Matrix& e = lesson.weight;
    return visible_positions(e.rows, should_summarise(e.rows, e.cols), forced);
}

std::vector<std::size_t> upstream_rows(const Matrix& g) {
    return visible_positions(g.rows, should_summarise(g.rows, g.cols));
}

// Used row k -> its index in the comparison's rows and in the claims.
std::map<std::size_t, std::size_t> rows_by_id(const GradLesson& lesson) {
    std::map<std::size_t, std::size_t> used;
    for (std::size_t r = 0; r < lesson.comparison.rows.size(); ++r) used[lesson.comparison.rows[r].row] = r;
    return used;
}

// Every sum starts at +0: a column whose terms are all -0 comes out +0 (+0 + -0 = +0), where the
// terms added among themselves give -0. Said where it changed the bits, so that "= G[1]" or
// "= G[0] + G[2]" is never read as holding those bits when it does not.
bool sum_from_zero_shows(const RowSumClaim& claim, const Matrix& upstream, const Matrix& result) {
    const float* row = result.row(claim.row);
    if (claim.positions.size() == 1 && !claim.scaled) {  // also a signalling NaN, quieted by the add
        return std::memcmp(upstream.row(claim.positions[0]), row, result.cols * sizeof(float)) != 0;
    }
    for (std::size_t j = 0; j < result.cols; ++j) {
        const bool all_negative_zero = std::all_of(claim.positions.begin(), claim.positions.end(), [&](std::size_t t) {
            const float term = upstream.at(t, j) * claim.scale;
            return term == 0.0f && std::signbit(term);
        });
        if (all_negative_zero && !std::signbit(row[j])) return true;
    }
    return false;
}

// "G[1] + G[3]", "G[1]/2 + G[3]/2": a claim's terms, a long list shortened. The divisor is the
// term count only because the claim's scale is float(1.0 / count) (re-checked in the tests).
std::string claim_sum(const IdBatch& ids, const RowSumClaim& claim, const Matrix& upstream, const Matrix& result) {
    constexpr std::size_t k_max_terms = 3;
    const std::size_t count = claim.positions.size();
    const std::string divide = claim.scaled ? fmt::format("/{}", count) : "";
    std::string text = sum_from_zero_shows(claim, upstream, result) ? "+0 + " : "";
    for (std::size_t i = 0; i < count && i < k_max_terms; ++i) {
        text += (i ? " + " : "") + position_label(ids, claim.positions[i]) + divide;
    }
    if (count > k_max_terms) text += fmt::format(" + ... ({} terms)", count);
    return text;
}

// What each way wrote into row k: a note for the embedding's line and one for the one-hot line.
// A sum is named only when its claim holds: the core re-added it and got the row's bits.
struct RowNotes {
    std::string lookup;
    std::string onehot;
};

RowNotes row_notes(const GradLesson& lesson, std::size_t k, const std::map<std::size_t, std::size_t>& used) {
    const auto hit = used.find(k);
    if (hit == used.end()) {
        const char* zero = lesson.claims.others_zero ? "exactly 0" : "not written";
        // No id adds into row k, so anything but +0 in X.T @ G's row is 0 * inf or 0 * nan
        // from the other ids' rows of G (the row's bits against +0 say whether there is any).
        const Matrix zero_row(1, lesson.grad_onehot.cols);
        const bool poisoned = std::memcmp(lesson.grad_onehot.row(k), zero_row.row(0),
                                          zero_row.cols * sizeof(float)) != 0;
        return {fmt::format("{}unused: {}", lesson.options.padding_row == k ? "padding_idx, " : "", zero),
                poisoned ? "0 * inf or nan from other ids" : ""};
    }
    const RowSumClaim& emb = lesson.claims.embedding[hit->second];
    const RowSumClaim& hot = lesson.claims.onehot[hit->second];
    RowNotes notes;
    if (emb.positions.empty()) {
        notes.lookup = emb.holds ? "padding_idx: no gradient" : "padding_idx";
    } else if (emb.holds) {
        notes.lookup = "= " + claim_sum(lesson.request.ids, emb, lesson.upstream, lesson.grad_lookup);
    }
    if (!hot.holds) {
        // Not the in-order sum, and no 0 * inf: the BLAS grouped the terms its own way.
        notes.onehot = hot.poisoned ? "0 * inf or nan from other ids" : "summed in the BLAS's order";
    } else if (emb.positions.empty() || emb.scaled) {
        notes.onehot = "= " + claim_sum(lesson.request.ids, hot, lesson.upstream, lesson.grad_onehot);  // unscaled, unskipped
    } else if (hot.positions.size() > 1) {
        notes.onehot = fmt::format("({} uses: they add up)", hot.positions.size());
    }
    return notes;
}

// Why the two gradients differ, one sentence per cause that the rows show.
std::string why_lines(const GradLesson& lesson) {
    std::string out;
    bool padded = false;
    bool scaled = false;
    bool poisoned = false;
    bool grouped = false;
    for (std::size_t r = 0; r < lesson.comparison.rows.size(); ++r) {
        const GradRow& row = lesson.comparison.rows[r];
        if (row.identical) continue;
        padded = padded || row.expected == GradRowDifference::padding;
        scaled = scaled || row.expected == GradRowDifference::scaled;
        poisoned = poisoned || lesson.claims.onehot[r].poisoned;
        grouped = grouped || (row.expected == GradRowDifference::none && !lesson.claims.onehot[r].poisoned);
    }
    const std::string indent = "       ";
    if (padded) {
        out += wrap_words(fmt::format("padding_idx={}: the embedding's backward skips row {}, the "
                                      "one-hot product knows nothing of padding and adds its rows of G",
                                      *lesson.request.padding_idx, *lesson.options.padding_row),
                          "  why: ", indent);
    }
    if (scaled) {
        out += wrap_words("scale_grad_by_freq: the embedding divides each row of G by how often its "
                          "id occurs in the batch; the one-hot product adds them whole",
                          padded ? indent : "  why: ", indent);
    }
    if (poisoned) {
        out += wrap_words("G holds inf or nan: the one-hot product also adds 0 * G[t] for every position t "
                          "of another id, and 0 * inf = nan",
                          padded || scaled ? indent : "  why: ", indent);
    }
    if (grouped) {
        out += wrap_words(fmt::format("sum order: the BLAS splits each sum over the {} positions into blocks and adds "
                                      "the blocks' sums; the scatter-add adds G's rows one by one, so an id that "
                                      "repeats across blocks can round differently in the last bits",
                                      group_thousands(lesson.request.ids.values.size())),
                          padded || scaled || poisoned ? indent : "  why: ", indent);
    }
    return out;
}

std::string grad_verdict(const GradLesson& lesson, Palette palette) {
    const Comparison& whole = lesson.comparison.whole;
    const std::size_t total = lesson.grad_lookup.values.size();
    if (whole.identical) {
        return render_verdict(true, fmt::format("{} of dE {} bit for bit", all_values(total),
                                                total == 1 ? "agrees" : "agree"), palette);
    }
    // A table of GPT-2's size makes the line longer than 80 columns: render_verdict wraps it.
    return render_verdict(false, fmt::format("{}, max abs diff {}", differing_values(whole.differing, total, " of dE"),
                                             shortest_round_trip(static_cast<float>(whole.max_abs_diff))),
                          palette) +
           why_lines(lesson);
}

}  // namespace

// "3 of 5 rows receive ...", worded for one row, for all of them and for none; "exactly 0" only
// when the claims checked those rows' bits.
std::string rows_with_gradient_sentence(const GradClaims& claims) {
    const std::size_t with = claims.rows_with_gradient;
    const std::size_t rows = claims.rows;
    if (!claims.others_zero) {
        return fmt::format("{} of {} {} a gradient from the embedding's backward.", group_thousands(with),
                           group_thousands(rows), with == 1 ? "row receives" : "rows receive");
    }
    const std::string backward = "a gradient from the embedding's backward";
    if (rows == 1) {
        return with == 1 ? "The one row receives " + backward + "."
                         : "The one row receives no gradient from the embedding's backward: it stays exactly 0.";
    }
    if (with == rows) return fmt::format("All {} rows receive {}.", group_thousands(rows), backward);
    if (with == 0) {
        return fmt::format("None of the {} rows receives {}: all stay exactly 0.", group_thousands(rows), backward);
    }
    const std::size_t untouched = rows - with;
    return fmt::format("{} of {} rows {} {}; the other {} {} exactly 0.", group_thousands(with), group_thousands(rows),
                       with == 1 ? "receives" : "receive", backward, group_thousands(untouched),
                       untouched == 1 ? "stays" : "stay");
}

GradLayout grad_layout(const GradLesson& lesson, int precision) {
    const GradRequest& request = lesson.request;
    const Matrix& e = lesson.weight;
    const auto used = rows_by_id(lesson);
    GradLayout layout;
    layout.rows = shown_rows(lesson);
    layout.g_rows = upstream_rows(lesson.upstream);
    const auto& rows = layout.rows;
    const auto& g_rows = layout.g_rows;
    const std::size_t row_label = std::to_string(e.rows - 1).size();
    std::size_t& g_label = layout.g_label;
    for (const std::size_t i : g_rows) {
        if (i != k_gap) g_label = std::max(g_label, position_label(request.ids, i).size());
    }
    std::size_t note_width = 0;
    for (const std::size_t k : rows) {
        if (k == k_gap) continue;
        const RowNotes notes = row_notes(lesson, k, used);
        note_width = std::max({note_width, notes.lookup.size(), notes.onehot.size() + 9});  // "differs: "
    }
    // "  50256  X.T@G   " before the cells, "   note" after them; G's rows carry "   id 50256".
    // Longer notes move to a line of their own rather than squeezing out columns.
    const std::size_t dE_room = row_label + 12 + 3 + std::min(note_width, k_short_note);
    const std::size_t g_room = g_label + 4 + 4 + std::to_string(e.rows - 1).size();
    const std::size_t budget = k_max_line_width - std::min(std::max(dE_room, g_room), k_max_line_width / 2);
    // E, G and the two gradients are separate tensors, each spelled as PyTorch prints it (a
    // torch.ones G prints "1."); the two gradients interleave, so they share a group.
    layout.screen = choose_screen({{&e, rows, 0}, {&lesson.upstream, g_rows, 1}, {&lesson.grad_lookup, rows, 2},
                                   {&lesson.grad_onehot, rows, 2}},
                                  e.cols, precision, budget);
    return layout;
}

std::string render_grad_text(const GradLesson& lesson, const TextOptions& options, bool trace) {
    const GradRequest& request = lesson.request;
    const Matrix& e = lesson.weight;
    const auto used = rows_by_id(lesson);
    const GradLayout layout = grad_layout(lesson, options.precision);
    const auto& rows = layout.rows;
    const auto& g_rows = layout.g_rows;
    const Screen& screen = layout.screen;
    const std::size_t row_label = std::to_string(e.rows - 1).size();
    const std::size_t g_label = layout.g_label;
    const auto cells = [&](const Matrix& m, std::size_t r) { return format_row_cells(m, r, screen.cols, screen.format_of(m)); };

    std::string out = header(lesson) + '\n';
    out += fmt::format("E = the table   {} x {}   > marks the rows the ids use\n", group_thousands(e.rows),
                       group_thousands(e.cols));
    for (const std::size_t k : rows) {
        if (k == k_gap) {
            out += fmt::format("  {}   ...\n", std::string(row_label + 1, ' '));
            continue;
        }
        const bool is_used = used.count(k) > 0;
        const std::string mark = is_used ? paint(">", Paint::selected, options.palette) : " ";
        const std::string line = fmt::format("{}  {}", pad_left(std::to_string(k), row_label), cells(e, k));
        out += fmt::format("  {} {}{}\n", mark, is_used ? paint(line, Paint::selected, options.palette) : line,
                           lesson.options.padding_row == k ? "   padding_idx" : "");
    }
    std::vector<std::size_t> used_rows;
    for (const GradRow& row : lesson.comparison.rows) used_rows.push_back(row.row);
    out += hidden_rows_line(hidden_count(rows, used_rows), "the rows the ids use");

    // G keeps the ids' shape (B x T x d for a batch), as the header's shapes line says.
    out += fmt::format("\nG = dL/d(lookup), {}   {}\n",
                       request.upstream == UpstreamSource::randn ? "torch.randn, drawn right after E"
                       : request.upstream == UpstreamSource::ones ? "all ones"
                                                                  : "from the --upstream file",
                       per_id_shape(request.ids.shape(), lesson.upstream.rows, lesson.upstream.cols));
    for (const std::size_t i : g_rows) {
        if (i == k_gap) {
            out += "    ...\n";
            continue;
        }
        out += fmt::format("  {}  {}   id {}\n", pad_right(position_label(request.ids, i), g_label),
                           cells(lesson.upstream, i), request.ids.values[i]);
    }

    out += fmt::format("\ndE = emb.weight.grad (scatter-add) and X.T @ G, row by row   {} x {} each\n",
                       group_thousands(e.rows), group_thousands(e.cols));
    const std::string pad(row_label, ' ');
    for (std::size_t shown = 0; shown < rows.size(); ++shown) {
        const std::size_t k = rows[shown];
        if (k == k_gap) {
            // A gap lies between two shown rows; the used rows inside it are named, so that
            // "unused" is said only of the rows that are.
            const std::size_t after = rows[shown - 1];
            const std::size_t before = rows[shown + 1];
            std::vector<std::size_t> inside;
            for (const GradRow& row : lesson.comparison.rows) {
                if (row.row > after && row.row < before) inside.push_back(row.row);
            }
            const std::string unused = lesson.claims.onehot_others_zero ? "exactly 0 in both" : "see the verdict";
            if (inside.empty()) {
                out += fmt::format("  {}   ...   (unused rows: {})\n", pad, unused);
                continue;
            }
            std::string names;
            for (std::size_t i = 0; i < inside.size() && i < 3; ++i) names += (i ? ", " : "") + group_thousands(inside[i]);
            if (inside.size() > 3) names += ", ...";
            out += wrap_words(fmt::format("...   ({} used {} not shown: {}; the unused rows here: {})",
                                          group_thousands(inside.size()), inside.size() == 1 ? "row" : "rows", names,
                                          unused),
                              "  " + pad + "   ", "  " + pad + "         ");
            continue;
        }
        const auto hit = used.find(k);
        const bool differs = hit != used.end() ? !lesson.comparison.rows[hit->second].identical
                                               : std::memcmp(lesson.grad_lookup.row(k), lesson.grad_onehot.row(k),
                                                             e.cols * sizeof(float)) != 0;
        const RowNotes notes = row_notes(lesson, k, used);
        std::string onehot_note = notes.onehot;
        if (differs) onehot_note = paint("differs", Paint::bad, options.palette) + (onehot_note.empty() ? "" : ": " + onehot_note);
        const std::size_t note_indent = row_label + 4;
        out += line_with_note(fmt::format("  {}  emb     {}", pad_left(std::to_string(k), row_label),
                                          cells(lesson.grad_lookup, k)),
                              notes.lookup, note_indent);
        out += line_with_note(fmt::format("  {}  X.T@G   {}", pad, cells(lesson.grad_onehot, k)), onehot_note,
                              note_indent);
    }

    if (trace) out += render_grad_trace(lesson, screen, options);
    if (request.max_norm) out += render_grad_max_norm(lesson, options);
    if (request.sparse) out += render_grad_sparse(lesson, options);
    out += render_onehot_input(lesson, options);
    out += '\n' + wrap_words(rows_with_gradient_sentence(lesson.claims), "", "");
    return out + grad_verdict(lesson, options.palette);
}

}  // namespace embdemo
