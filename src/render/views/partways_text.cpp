#include "render/views/partways_text.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/lessons/cost.hpp"
#include "core/limits.hpp"
#include "core/kernels/onehot_input.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "core/kernels/sparse_grad.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/text_sections.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "render/kit/token_label.hpp"

namespace embdemo {
namespace {

// A screenful: ids, rows and positions past this many are summarised.
constexpr std::size_t k_max_listed = 8;
static_assert(k_max_listed <= k_kept_score_positions, "the text view lists only the kept rows of dL/dX");

// 1.0, 0.3, 1e-07, inf: a double as Python's repr spells it, as nn.Embedding's repr shows it.
std::string python_float(double value) {
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    std::string text = fmt::format("{}", value);
    if (text.find_first_of(".en") == std::string::npos) text += ".0";
    return text;
}

// "G[1] + G[3]": the positions that hold `id`, at most three named.
std::string positions_sum(const IdBatch& ids, std::uint64_t id) {
    std::vector<std::size_t> positions;
    for (std::size_t i = 0; i < ids.values.size(); ++i) {
        if (ids.values[i] == id) positions.push_back(i);
    }
    std::string text;
    for (std::size_t i = 0; i < positions.size() && i < 3; ++i) text += (i ? " + " : "") + position_label(ids, positions[i]);
    if (positions.size() > 3) text += fmt::format(" + ... ({} terms)", positions.size());
    return text;
}

// The rows `rows` of `m`, labelled by row number and with a note each, in one number format.
std::string matrix_rows(const Matrix& m, const std::vector<std::size_t>& rows,
                        const std::vector<std::string>& labels, const std::vector<std::string>& notes,
                        int precision) {
    std::size_t label_width = 0;
    std::size_t note_width = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        label_width = std::max(label_width, labels[r].size());
        note_width = std::max(note_width, notes[r].size());
    }
    const std::size_t room = 4 + label_width + 3 + std::min<std::size_t>(note_width, 24);
    const std::size_t budget = k_max_line_width - std::min(room, k_max_line_width / 2);
    const Screen screen = choose_screen({{&m, rows}}, m.cols, precision, budget);
    std::string out;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        std::string line = fmt::format("    {}  {}", pad_left(labels[r], label_width),
                                       format_row_cells(m, rows[r], screen.cols, screen.format_of(m)));
        if (!notes[r].empty()) {
            line += line.size() + 3 + notes[r].size() <= k_max_line_width ? "   " + notes[r]
                                                                          : "\n" + std::string(6 + label_width, ' ') + notes[r];
        }
        out += line + '\n';
    }
    return out;
}

}  // namespace

// Worded from the counts: "the one distinct id's row", "none of", "1 of the 3 ... was".
std::string renorm_verdict(std::size_t distinct, std::size_t rescaled, const MaxNorm& max_norm) {
    const std::string m = python_float(max_norm.max_norm);
    const std::string norm = fmt::format("a norm (p = {})", python_float(max_norm.norm_type));
    const std::string how = fmt::format("multiplied by {} / (norm + 1e-7)", m);
    if (distinct == 1) {
        return rescaled == 1 ? fmt::format("The one distinct id's row had {} above {} and was {}, once however often "
                                           "the id occurs.", norm, m, how)
                             : fmt::format("The one distinct id's row had {} of at most {} and was kept as it was.", norm, m);
    }
    if (rescaled == 0) {
        return fmt::format("None of the {} distinct ids' rows had {} above {}; all were kept as they were.",
                           group_thousands(distinct), norm, m);
    }
    return fmt::format("{} of the {} distinct ids' rows had {} above {} and {} {}, once each however often the id occurs.",
                       group_thousands(rescaled), group_thousands(distinct), norm, m, rescaled == 1 ? "was" : "were", how);
}

std::string max_norm_arguments(const MaxNorm& max_norm) {
    return fmt::format("max_norm={}, norm_type={}", python_float(max_norm.max_norm), python_float(max_norm.norm_type));
}

namespace {

// A nan norm (a nan in the row) is kept, but not for being <= max_norm: nan > max_norm is false.
std::string renorm_row_note(const RenormRow& row, const std::string& max_norm) {
    if (row.rescaled) return "rescaled: norm > " + max_norm;
    return std::isnan(row.norm) ? "kept: nan > " + max_norm + " is false" : "kept: norm <= " + max_norm;
}

}  // namespace

std::string render_renorm_rows(const std::vector<RenormRow>& rows, const MaxNorm& max_norm) {
    std::size_t rescaled = 0;
    std::size_t id_width = 2;
    for (const RenormRow& row : rows) {
        rescaled += row.rescaled ? 1 : 0;
        id_width = std::max(id_width, id_label(row.row).size());
    }
    const std::string m = python_float(max_norm.max_norm);
    std::string out = fmt::format("  {}  {:<15}  scale\n", pad_right("id", id_width), "norm");
    for (std::size_t r = 0; r < rows.size() && r < k_max_listed; ++r) {
        const RenormRow& row = rows[r];
        out += fmt::format("  {}  {:<15}  {:<15}  {}\n", pad_right(id_label(row.row), id_width),
                           shortest_round_trip(row.norm), row.rescaled ? shortest_round_trip(row.scale) : "-",
                           renorm_row_note(row, m));
    }
    if (rows.size() > k_max_listed) out += fmt::format("  ... {} more distinct ids\n", rows.size() - k_max_listed);
    return out + wrap_words(renorm_verdict(rows.size(), rescaled, max_norm), "  ", "  ");
}

std::string render_grad_max_norm(const GradLesson& lesson, const TextOptions& options) {
    const MaxNorm& max_norm = *lesson.request.max_norm;
    // A norm_type such as 1e9 prints as 1000000000.0: the heading wraps rather than pass 80 columns.
    std::string out = "\n" + wrap_words(fmt::format("{}: emb(ids) renormalises E in place before the lookup",
                                                    max_norm_arguments(max_norm)),
                                        "", "  ");
    out += render_renorm_rows(lesson.renorm, max_norm);
    std::vector<std::size_t> rows;
    std::vector<std::string> labels;
    std::vector<std::string> notes;
    for (const RenormRow& row : lesson.renorm) {
        if (!row.rescaled || rows.size() == k_max_listed) continue;
        rows.push_back(row.row);
        labels.push_back(id_label(row.row));
        notes.push_back("x " + shortest_round_trip(row.scale));
    }
    if (!rows.empty()) {
        out += "  E after the call, the rescaled rows (the next forward reads these):\n";
        out += matrix_rows(lesson.weight_after, rows, labels, notes, options.precision);
    }
    return out + wrap_words("The gradient above is what it would be without max_norm: the embedding's backward "
                            "adds rows of G and never reads E, and torch renormalises under no_grad, so no "
                            "gradient flows through the rescaling.",
                            "  ", "  ");
}

std::string render_grad_sparse(const GradLesson& lesson, const TextOptions& options) {
    const GradRequest& request = lesson.request;
    const SparseGrad& raw = lesson.sparse_grad;
    const SparseGrad& merged = lesson.sparse_coalesced;
    const std::size_t dropped = request.ids.values.size() - raw.indices.size();
    std::string out = "\nsparse=True: emb.weight.grad is a sparse COO tensor, as torch returns it\n";
    const std::string hanging(15, ' ');
    out += wrap_words(fmt::format("nnz {}: indices {}, values = G's rows in that order", raw.indices.size(),
                                  format_ids(raw.indices)),
                      "  uncoalesced  ", hanging);
    if (dropped > 0) {
        out += wrap_words(fmt::format("padding_idx={}: the {} {} holding row {} {} dropped, as torch 1.13 drops them",
                                      *request.padding_idx, dropped, dropped == 1 ? "position" : "positions",
                                      *lesson.options.padding_row, dropped == 1 ? "is" : "are"),
                          hanging, hanging);
    }
    out += wrap_words(fmt::format("nnz {}: indices {}, repeats summed", merged.indices.size(), format_ids(merged.indices)),
                      "  coalesced    ", hanging);
    std::vector<std::size_t> rows;
    std::vector<std::string> labels;
    std::vector<std::string> notes;
    for (std::size_t e = 0; e < merged.indices.size() && e < k_max_listed; ++e) {
        rows.push_back(e);
        labels.push_back(id_label(merged.indices[e]));
        notes.push_back("= " + positions_sum(request.ids, merged.indices[e]));
    }
    if (!rows.empty()) out += matrix_rows(merged.values, rows, labels, notes, options.precision);
    if (merged.indices.size() > k_max_listed) out += fmt::format("    ... {} more rows\n", merged.indices.size() - k_max_listed);

    const std::uint64_t v = request.vocab_size;
    const std::uint64_t d = request.dim;
    const std::string here = fmt::format("V {}, d {}", group_thousands(v), group_thousands(d));
    const std::string gpt2 = fmt::format("GPT-2: V {}, d {}", group_thousands(k_gpt2_vocab), k_gpt2_dim);
    out += fmt::format("  {:<26}{:<22}{}\n", "memory of the gradient", here, gpt2);
    const auto line = [&](const std::string& what, std::uint64_t here_bytes, std::uint64_t gpt2_bytes) {
        return fmt::format("    {:<24}{:<22}{}\n", what, describe_bytes(here_bytes), describe_bytes(gpt2_bytes));
    };
    out += line("dense V x d", v * d * 4, k_gpt2_vocab * k_gpt2_dim * 4);
    out += line(fmt::format("COO, nnz {}", raw.indices.size()), sparse_grad_bytes(raw.indices.size(), d),
                sparse_grad_bytes(raw.indices.size(), k_gpt2_dim));
    out += line(fmt::format("coalesced, nnz {}", merged.indices.size()), sparse_grad_bytes(merged.indices.size(), d),
                sparse_grad_bytes(merged.indices.size(), k_gpt2_dim));
    return out + wrap_words("A COO entry is one int64 index and d float32 values. torch.optim.SGD (--optimizer "
                            "sgd), SparseAdam and Adagrad accept a sparse gradient; Adam and AdamW refuse it "
                            "(\"Adam does not support sparse gradients, please consider SparseAdam instead\").",
                            "  ", "  ");
}

namespace {

// With V = 1 the only token is the one already there: no swap to try.
std::string swaps_sentence(std::size_t top, std::size_t vocab_size) {
    if (vocab_size == 1) return "With V = 1 there is no other token to swap in: the list holds the one already there.";
    return fmt::format("{} per position {} a gradient-guided search (HotFlip, GCG) tries first.",
                       top == 1 ? std::string("The lowest score") : fmt::format("The {} lowest scores", top),
                       top == 1 ? "is the swap" : "are the swaps");
}

}  // namespace

std::string render_onehot_input(const GradLesson& lesson, const TextOptions& options) {
    const GradRequest& request = lesson.request;
    const OneHotInputScores& scores = lesson.grad_onehot_input;
    const std::size_t n = scores.positions;
    const std::size_t top = std::min<std::size_t>(request.top, scores.vocab_size);
    const bool batched = request.ids.batched;
    std::string out = fmt::format("\ndL/dX = G @ E.T   {}: the gradient only the one-hot form has\n",
                                  per_id_shape(request.ids.shape(), n, scores.vocab_size));
    out += wrap_words(fmt::format("The lookup takes integer ids and has no gradient for them; X = one_hot(ids) is "
                                  "a float matrix, and {} estimates to first order how "
                                  "the loss changes if position {} held token v instead{}. {}",
                                  batched ? "score[b, t, v] - score[b, t, ids[b, t]]" : "score[t, v] - score[t, ids[t]]",
                                  batched ? "(b, t)" : "t",
                                  request.max_norm ? " (E as the lookup read it, after max_norm)" : "",
                                  swaps_sentence(top, scores.vocab_size)),
                      "  ", "  ");
    const int p = options.precision;
    std::size_t label_width = 0;
    // Positions are named as ids are indexed: ids[t] holds a token; G[t] would be G's row.
    const auto at = [&](std::size_t t) { return "ids[" + position_index(request.ids, t) + "]"; };
    for (std::size_t t = 0; t < n && t < k_max_listed; ++t) label_width = std::max(label_width, at(t).size());
    const IdSource& source = request.ids.source;
    std::vector<std::vector<std::size_t>> best(std::min(n, k_max_listed));
    std::size_t id_width = 8;  // with --text, ids carry their tokens: the column widens to fit
    for (std::size_t t = 0; t < best.size(); ++t) {
        best[t] = lowest_scores(scores.row(t), scores.vocab_size, top);
        id_width = std::max(id_width, display_width(id_label(request.ids.values[t], source)));
        for (const std::size_t v : best[t]) id_width = std::max(id_width, display_width(id_label(v, source)));
    }
    const auto id_cell = [&](std::uint64_t id) {
        const std::string label = id_label(id, source);
        return label + std::string(id_width - display_width(label), ' ');
    };
    // A score or change with its sign; a nan has none ("+nan" is no number PyTorch prints).
    // Scientific, as PyTorch prints a tensor holding them, once a listed value passes 1e8: a
    // score of 1e38 in fixed point is 39 digits and pushes its line past 80 columns.
    bool scientific = false;
    for (std::size_t t = 0; t < best.size(); ++t) {
        const float own = scores.row(t)[request.ids.values[t]];
        for (const std::size_t v : best[t]) {
            const float score = scores.row(t)[v];
            for (const float value : {own, score, score - own}) {
                scientific = scientific || (std::isfinite(value) && std::fabs(value) >= 1e8f);
            }
        }
    }
    const auto signed_value = [p, scientific](float value) {
        if (std::isnan(value)) return std::string("nan");
        return scientific ? fmt::format("{:+.{}e}", value, p) : fmt::format("{:+.{}f}", value, p);
    };
    for (std::size_t t = 0; t < best.size(); ++t) {
        const std::uint64_t there = request.ids.values[t];
        const float own = scores.row(t)[there];
        out += fmt::format("  {}  holds {} score {}\n", pad_right(at(t), label_width), id_cell(there),
                           signed_value(own));
        for (std::size_t r = 0; r < best[t].size(); ++r) {
            const std::size_t v = best[t][r];
            const float score = scores.row(t)[v];
            // The token already there changes nothing (its change is score - score = 0): the note
            // takes the change's place, so the line fits 80 columns at --precision 9 too.
            const std::string change =
                v == there ? std::string("(already there)") : "change " + signed_value(score - own);
            out += fmt::format("  {}  {:>4}. {} score {}   {}\n", std::string(label_width, ' '), r + 1, id_cell(v),
                               signed_value(score), change);
        }
    }
    if (n > k_max_listed) {
        // Past k_onehot_kept_values the json is refused (it would print every score), so the
        // line points there only when it exists.
        out += fmt::format("  ... {} more {}{}\n", n - k_max_listed, n - k_max_listed == 1 ? "position" : "positions",
                           scores.whole() ? " (--format json has every score)" : "");
    }
    return out;
}

}  // namespace embdemo
