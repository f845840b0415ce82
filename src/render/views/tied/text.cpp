#include "render/views/tied/text.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

std::string header(const TiedLesson& lesson) {
    const TiedRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::string shape = describe_id_count(ids.shape(), ids.values.size());
    return render_header_lines(
        "Tied output layer: logits = H @ E.T, the input table reused as out_head.weight",
        {{"ids", format_id_batch(ids), shape},
         {"vocab", group_thousands(request.vocab_size), vocab_note(table_vocab_source(request.vocab_inferred, request.ids, request.vocab_size))},
         {"dim", group_thousands(request.dim), ""},
         {"hidden", request.hidden_given ? "H from the --hidden file" : "H = E[ids]",
          request.hidden_given ? "" : "a stand-in for the final hidden state, which a model's blocks would compute"},
         {"seed", std::to_string(request.seed), seed_note(request.seed, fmt::format("torch.manual_seed, then E = nn.Embedding({}, {})",
                                                            request.vocab_size, request.dim))},
         {"top", std::to_string(request.top), "the K largest logits per position"}}, ids);
}

// Rows `shown` of an n-row matrix labelled by their ids; `in_matrix` (when given) says which row
// of the printed matrix each one is.
std::vector<BlockRow> per_id_rows(const TiedLesson& lesson, const std::vector<std::size_t>& shown,
                                  const std::vector<std::size_t>& in_matrix = {}) {
    const IdBatch& ids = lesson.request.ids;
    std::vector<BlockRow> rows;
    for (std::size_t r = 0; r < shown.size(); ++r) {
        const std::size_t i = shown[r];
        rows.push_back({in_matrix.empty() ? i : in_matrix[r],
                        i == k_gap ? "" : fmt::format("{}  id {}", flat_position_label(ids, i), ids.values[i]), "", false});
    }
    return rows;
}

// ` "cat"` after an id when the ids came from a text, nothing otherwise.
std::string quoted_token(const IdSource& source, std::uint64_t id) {
    if (!source.token_of) return "";
    return " \"" + source.token_of(id) + '"';
}

std::string top_lines(const TiedLesson& lesson, const std::vector<std::size_t>& shown, const NumberFormat& format) {
    const IdBatch& ids = lesson.request.ids;
    std::string out;
    for (const std::size_t i : shown) {
        if (i == k_gap) {
            out += "  ...\n";
            continue;
        }
        std::vector<std::string> entries;
        for (const TopLogit& entry : lesson.top[i]) {
            entries.push_back(fmt::format("{}{} ({})", entry.id, quoted_token(ids.source, entry.id),
                                          format_plain(entry.logit, format)));
        }
        const std::string label = fmt::format("  {}  id {}{}:  ", flat_position_label(ids, i), ids.values[i],
                                              quoted_token(ids.source, ids.values[i]));
        out += fit_items(entries, label, std::string(display_width(label), ' '), "  ");
    }
    if (lesson.request.hidden_given) return out;
    return out + wrap_words(own_rank_sentence(lesson), "", "");
}

std::string explanations(const TiedLesson& lesson) {
    const TiedRequest& request = lesson.request;
    const std::uint64_t v = request.vocab_size;
    const std::uint64_t d = request.dim;
    std::string out;
    // The reason the input side needs W = E.T is the layout (row k of W is output k), not the
    // shape: when V = d both are V x d, and only the roles of rows and columns differ.
    const std::string input_side =
        v == d ? fmt::format("The input side's nn.Linear({}, {}) also stores {} x {} here, but out x in: its row j "
                             "belongs to output j, while E's row k belongs to id k, so the lookup still needed "
                             "W = E.T.",
                             v, d, group_thousands(d), group_thousands(v))
               : fmt::format("The input side's nn.Linear({}, {}) stores {} x {} (out x in), which is why the lookup "
                             "needed W = E.T.",
                             v, d, group_thousands(d), group_thousands(v));
    out += wrap_words(fmt::format("No transpose on this side: nn.Linear({}, {}) stores its weight as out x in = "
                                  "{} x {}, E's own shape, and computes H @ W.T, so out_head.weight = E "
                                  "works as it is. {}",
                                  d, v, group_thousands(v), group_thousands(d), input_side),
                      "", "");
    out += wrap_words(fmt::format("Parameters here: tok_emb {} x {} = {} plus out_head {} = {} untied; "
                                  "tied, one table: {}.",
                                  group_thousands(v), group_thousands(d), group_thousands(v * d),
                                  group_thousands(v * d), group_thousands(lesson.here.untied),
                                  group_thousands(lesson.here.tied)),
                      "", "");
    const Gpt2Config gpt2;
    out += wrap_words(fmt::format("GPT-2 small (the book's ch. 4, V = {}, C = {}, d = {}, L = {}): 2Vd + Cd + "
                                  "L(12d^2 + 10d) + 2d = {} ({}) untied; tying removes Vd = {}, leaving {} ({}).",
                                  group_thousands(gpt2.vocab), group_thousands(gpt2.context), gpt2.dim, gpt2.layers,
                                  group_thousands(lesson.gpt2.untied), millions(lesson.gpt2.untied),
                                  group_thousands(gpt2.vocab * gpt2.dim), group_thousands(lesson.gpt2.tied),
                                  millions(lesson.gpt2.tied)),
                      "", "");
    // rows_used is the number of distinct ids; the claim "only N of V" needs N < V.
    const std::string lookup_rows =
        lesson.rows_used == v ? fmt::format("; here the ids use every row, so the lookup alone would move {} too",
                                            v == 1 ? "it" : v == 2 ? "both" : "all " + group_thousands(v))
        : fmt::format(", where the lookup alone moves only {} the ids use",
                      lesson.rows_used == 1 ? std::string("the one row")
                                            : "the " + count_of(lesson.rows_used, "row", "rows"));
    const std::string every_row = v == 1 ? std::string("its only row") : v == 2 ? std::string("both rows")
                                                                         : "all " + group_thousands(v) + " rows";
    // The output side's gradient of E is dlogits.T @ H: each row a sum of H's rows. With H all
    // zeros (a --hidden file of zeros, or E[ids] of zero rows) it is 0 in every row.
    const bool h_zero = std::all_of(lesson.hidden.values.begin(), lesson.hidden.values.end(),
                                    [](float value) { return value == 0.0f; });
    if (h_zero) {
        out += wrap_words(fmt::format("Tied, every logit uses a row of E, so the output side's backward reaches "
                                      "{}; but its gradient of E is dlogits.T @ H, and H is all zeros here, so it is "
                                      "0 in every row and moves none.",
                                      every_row),
                          "", "");
        return out;
    }
    out += wrap_words(fmt::format("Tied, E also gets a dense gradient: every logit uses a row of E, so the "
                                  "output side's backward moves {}{}.",
                                  every_row, lookup_rows),
                      "", "");
    return out;
}

}  // namespace

// The lesson keeps the logits' first and last k_logit_edge_rows rows for the summary PyTorch
// prints, which keeps k_edge_items rows at each edge.
static_assert(k_logit_edge_rows == k_edge_items, "the kept rows are the rows a summary shows");

float ShownLogits::at(std::size_t row, std::size_t col) const {
    const auto at = std::find(rows.begin(), rows.end(), row);
    return values->at(in_values[static_cast<std::size_t>(at - rows.begin())], col);
}

ShownLogits shown_logits(const TiedLesson& lesson) {
    const HeldLogits& held = lesson.logits;
    ShownLogits shown;
    shown.rows = shown_rows(held.rows, held.values.cols);
    shown.values = &held.values;
    for (const std::size_t i : shown.rows) {
        const std::size_t kept = i == k_gap ? k_gap : held.index_of(i);
        if (kept == held.held.size()) throw std::logic_error("tied: a shown row of the logits was not kept");
        shown.in_values.push_back(kept);
    }
    return shown;
}

std::string own_rank_sentence(const TiedLesson& lesson) {
    const auto first = static_cast<std::size_t>(std::count(lesson.own_rank.begin(), lesson.own_rank.end(), std::size_t{0}));
    const std::size_t positions = lesson.own_rank.size();
    std::string ranked;
    if (positions == 1) {
        ranked = first == 1 ? "the one position ranks its own id first" : "the one position does not rank its own id first";
    } else if (first == positions) {
        ranked = positions == 2 ? std::string("both positions rank their own id first")
                                : fmt::format("all {} positions rank their own id first", group_thousands(positions));
    } else if (first == 0) {
        ranked = positions == 2 ? std::string("neither position ranks its own id first")
                                : fmt::format("none of the {} positions ranks its own id first", group_thousands(positions));
    } else {
        ranked = fmt::format("{} of {} positions {} first", group_thousands(first), group_thousands(positions),
                             first == 1 ? "ranks its own id" : "rank their own id");
    }
    // With V = 1 there is no other row to be ranked against.
    const char* against = lesson.request.vocab_size == 1 ? "the only logit there is (V = 1)"
                                                         : "against dot products with other rows";
    return fmt::format("With H = E[ids], {}: its logit is E[id] . E[id], the row's squared length, {}.", ranked,
                       against);
}

std::string render_tied_text(const TiedLesson& lesson, const TextOptions& options) {
    const IdBatch& ids = lesson.request.ids;
    const Matrix& e = lesson.weight;
    const std::vector<std::size_t> used(ids.values.begin(), ids.values.end());
    std::vector<BlockRow> e_rows;
    const std::set<std::size_t> used_set(used.begin(), used.end());
    const std::vector<std::size_t> used_rows(used_set.begin(), used_set.end());
    const std::vector<std::size_t> e_shown = shown_rows(e.rows, e.cols, used_rows);
    for (const std::size_t k : e_shown) {
        e_rows.push_back({k, k == k_gap ? "" : std::to_string(k), "", used_set.count(k) > 0});
    }
    const std::vector<std::size_t> shown_h = shown_rows(lesson.hidden.rows, lesson.hidden.cols);
    const ShownLogits logits = shown_logits(lesson);
    const std::vector<BlockRow> h_rows = per_id_rows(lesson, shown_h);
    const std::vector<BlockRow> logit_rows = per_id_rows(lesson, logits.rows, logits.in_values);
    const std::size_t label_width = std::max(widest_label(e_rows), widest_label(h_rows));
    // E and H are separate tensors, each spelled as PyTorch prints it.
    const Screen screen = choose_screen({{&e, e_shown, 0},
                                         {&lesson.hidden, shown_h, 1}},
                                        e.cols, options.precision, block_cells_budget(label_width, 0));
    const Screen logit_screen = choose_screen({{logits.values, logits.in_values}}, logits.values->cols, options.precision,
                                              block_cells_budget(widest_label(logit_rows), 0));

    std::string out = header(lesson) + '\n';
    out += wrap_words(fmt::format("E = tok_emb.weight = out_head.weight   {} x {}   > marks the ids' rows",
                                  group_thousands(e.rows), group_thousands(e.cols)),
                      "", "  ");
    out += render_block(e, e_rows, widest_label(e_rows), screen, options.palette);
    out += hidden_rows_line(hidden_count(e_shown, used_rows), "the ids' rows");
    out += '\n' + wrap_words(fmt::format("H = {}   {} x {}", lesson.request.hidden_given ? "from the --hidden file" : "E[ids]",
                       group_thousands(lesson.hidden.rows), group_thousands(lesson.hidden.cols)), "", "  ");
    out += render_block(lesson.hidden, h_rows, widest_label(h_rows), screen, options.palette);
    out += '\n' + wrap_words(fmt::format("logits = H @ E.T = F.linear(H, E)   {} x {}   column k is token id k",
                       group_thousands(lesson.logits.rows), group_thousands(logits.values->cols)), "", "  ");
    out += render_block(*logits.values, logit_rows, widest_label(logit_rows), logit_screen, options.palette);
    out += '\n' + wrap_words((lesson.request.top == 1 ? std::string("Top token id per position (logit in parentheses)")
                                                  : fmt::format("Top {} token ids per position (logit in parentheses)", lesson.request.top)), "", "  ");
    out += top_lines(lesson, logits.rows, logit_screen.format);
    return out + '\n' + explanations(lesson);
}

}  // namespace embdemo
