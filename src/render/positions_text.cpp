#include "render/positions_text.hpp"

#include <algorithm>
#include <numeric>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/limits.hpp"
#include "render/lesson_blocks.hpp"
#include "render/table.hpp"

namespace embdemo {
namespace {

std::string header(const PositionsLesson& lesson) {
    const PositionsRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::string shape = ids.batched ? fmt::format("B x T = {} x {}", ids.batch, ids.seq) : fmt::format("T = {}", ids.seq);
    std::vector<HeaderLine> lines{
        {"ids", format_id_batch(ids), shape},
        {"vocab", group_thousands(request.vocab_size), request.vocab_inferred ? "largest id + 1; set it with --vocab" : ""},
        {"dim", group_thousands(request.dim), ""},
        {"context", group_thousands(request.context),
         request.context_inferred ? "C = T; a model sets C, e.g. GPT-2's 1,024; --context" : "C, the longest sequence P serves"},
        {"seed", std::to_string(request.seed),
         fmt::format("torch.manual_seed, then E = nn.Embedding({}, {}), then P = nn.Embedding({}, {})",
                     request.vocab_size, request.dim, request.context, request.dim)}};
    if (!request.targets.empty()) {
        const LoaderSettings& loader = request.loader;
        lines.insert(lines.begin() + 1,
                     {{"loader",
                       fmt::format("the first batch of create_dataloader_v1(batch_size={}, max_length={}, "
                                   "stride={}, shuffle=False, drop_last=True)",
                                   loader.batch, loader.context, loader.stride),
                       fmt::format("the text makes {} windows of {} tokens", group_thousands(request.windows),
                                   loader.context)},
                      {"targets", format_id_batch(target_batch(request.targets, ids.batch, ids.seq)),
                       "each window shifted by one token: what the model learns to predict"}});
    }
    return render_header_lines("Token and position embeddings: E[ids] + P[0..T), two lookup tables added", lines,
                               ids);
}

// E's rows (used ones marked) or P's rows (the first T marked).
std::vector<BlockRow> table_rows(const Matrix& table, const std::set<std::size_t>& used) {
    std::vector<BlockRow> rows;
    for (const std::size_t k : shown_rows(table.rows, table.cols, {used.begin(), used.end()})) {
        rows.push_back({k, k == k_gap ? "" : std::to_string(k), "", used.count(k) > 0});
    }
    return rows;
}

// Row pairs: the lookup, then the one-hot product under it.
std::vector<BlockRow> pair_rows(const std::vector<std::size_t>& shown, const std::vector<std::string>& labels) {
    std::vector<BlockRow> rows;
    for (const std::size_t i : shown) {
        if (i == k_gap) {
            rows.push_back({k_gap, "", "", false});
            continue;
        }
        rows.push_back({i, labels[i] + "  lookup", "", false});
        rows.push_back({i, std::string(labels[i].size(), ' ') + "  one-hot", "", false});
    }
    return rows;
}

// Block rows of `rows` (k_gap allowed), labelled and noted per position.
template <typename Label, typename Note>
std::vector<BlockRow> labelled_rows(const std::vector<std::size_t>& shown, Label label, Note note) {
    std::vector<BlockRow> rows;
    for (const std::size_t i : shown) rows.push_back({i, i == k_gap ? "" : label(i), i == k_gap ? "" : note(i), false});
    return rows;
}

std::string repeated_sentence(const PositionsLesson& lesson) {
    const IdBatch& ids = lesson.request.ids;
    if (!lesson.repeated) {
        return fmt::format("No id appears at two different positions here; repeat one (e.g. --ids {},{}) to "
                           "see one token get two vectors.",
                           ids.values.size() > 6 ? "2,3" : fmt::format("{}", fmt::join(ids.row(0), ",")),
                           ids.values[0]);
    }
    const RepeatedToken& r = *lesson.repeated;
    return fmt::format("Same token, two positions: id {} at {} (t = {}) and {} (t = {}) looks up the "
                       "same row E[{}], but adds P[{}] and P[{}], so the two output rows differ in "
                       "{} of {} columns.",
                       r.id, flat_position_label(ids, r.first), position_of(ids, r.first),
                       flat_position_label(ids, r.second), position_of(ids, r.second), r.id,
                       position_of(ids, r.first), position_of(ids, r.second), r.differing_columns,
                       lesson.output.cols);
}

std::string verdict(const PositionsLesson& lesson, Palette palette) {
    const bool identical = lesson.token_check.identical && lesson.position_check.identical &&
                           lesson.output_check.identical;
    const std::size_t compared = lesson.token_lookup.values.size() + lesson.position_lookup.values.size();
    if (identical) {
        return render_verdict(true, fmt::format("both lookups equal their one-hot products bit for bit "
                                                "({} values), and so do the sums",
                                                group_thousands(compared)),
                              palette);
    }
    return render_verdict(false, fmt::format("{} of {} lookup values differ from their one-hot products",
                                             group_thousands(lesson.token_check.differing + lesson.position_check.differing),
                                             group_thousands(compared)),
                          palette);
}

}  // namespace

std::string render_positions_text(const PositionsLesson& lesson, const TextOptions& options) {
    const IdBatch& ids = lesson.request.ids;
    const std::size_t n = ids.values.size();
    const std::size_t seq = ids.seq;
    std::vector<std::string> id_labels(n);
    for (std::size_t i = 0; i < n; ++i) id_labels[i] = fmt::format("{}  id {}", flat_position_label(ids, i), ids.values[i]);
    const std::size_t id_width = std::max_element(id_labels.begin(), id_labels.end(),
                                                  [](const auto& a, const auto& b) { return a.size() < b.size(); })->size();
    for (std::string& label : id_labels) label = pad_right(label, id_width);
    std::vector<std::string> t_labels(seq);
    for (std::size_t t = 0; t < seq; ++t) t_labels[t] = pad_right(fmt::format("t = {}", t), id_width);

    std::vector<std::size_t> first_t(seq);
    std::iota(first_t.begin(), first_t.end(), std::size_t{0});
    const std::vector<BlockRow> e_rows = table_rows(lesson.weight, {ids.values.begin(), ids.values.end()});
    const std::vector<BlockRow> p_rows = table_rows(lesson.position_weight, {first_t.begin(), first_t.end()});
    const std::vector<std::size_t> shown_n = shown_rows(n, lesson.request.dim);
    const std::vector<std::size_t> shown_t = shown_rows(seq, lesson.request.dim);
    const std::vector<BlockRow> tok_rows = pair_rows(shown_n, id_labels);
    const std::vector<BlockRow> pos_rows = pair_rows(shown_t, t_labels);
    const std::vector<BlockRow> out_rows = labelled_rows(
        shown_n, [&](std::size_t i) { return id_labels[i]; },
        [&](std::size_t i) { return fmt::format("E[{}] + P[{}]", ids.values[i], position_of(ids, i)); });

    const std::size_t label_width = std::max({widest_label(e_rows), widest_label(p_rows), widest_label(tok_rows),
                                              widest_label(pos_rows), widest_label(out_rows)});
    const Screen screen = choose_screen(
        {{&lesson.weight, shown_rows(lesson.weight.rows, lesson.weight.cols, {ids.values.begin(), ids.values.end()})},
         {&lesson.position_weight, shown_rows(lesson.position_weight.rows, lesson.position_weight.cols, first_t)},
         {&lesson.token_lookup, shown_n}, {&lesson.position_lookup, shown_t}, {&lesson.output, shown_n}},
        lesson.request.dim, options.precision, block_cells_budget(label_width, widest_note(out_rows)));
    const auto block = [&](const Matrix& m, const std::vector<BlockRow>& rows, const Matrix* second) {
        std::string out;
        for (const BlockRow& row : rows) {
            const bool onehot = second != nullptr && row.label.find("one-hot") != std::string::npos;
            out += render_block(onehot ? *second : m, {row}, widest_label(rows), screen, options.palette);
        }
        return out;
    };

    std::string out = header(lesson) + '\n';
    out += wrap_words(fmt::format("E = token table, nn.Embedding({}, {})   > marks the rows the ids use",
                       lesson.request.vocab_size, lesson.request.dim), "", "  ");
    out += block(lesson.weight, e_rows, nullptr);
    out += '\n' + wrap_words(fmt::format("P = position table, nn.Embedding({}, {}), drawn after E   > marks rows 0..{}",
                       lesson.request.context, lesson.request.dim, seq - 1), "", "  ");
    out += block(lesson.position_weight, p_rows, nullptr);
    out += '\n' + wrap_words(fmt::format("tok = E[ids], and one_hot(ids) @ E under it   {} x {}", group_thousands(n),
                       group_thousands(lesson.request.dim)), "", "  ");
    out += block(lesson.token_lookup, tok_rows, &lesson.token_onehot);
    out += '\n' + wrap_words(fmt::format("pos = P[torch.arange({})], and one_hot(arange({}), {}) @ P under it   {} x {}", seq, seq,
                       lesson.request.context, seq, group_thousands(lesson.request.dim)), "", "  ");
    out += block(lesson.position_lookup, pos_rows, &lesson.position_onehot);
    out += '\n' + wrap_words(fmt::format("output = tok + pos{}   {} x {}", ids.batched ? " (pos added to every row of the batch)" : "",
                       group_thousands(n), group_thousands(lesson.request.dim)), "", "  ");
    out += block(lesson.output, out_rows, nullptr);
    out += '\n' + wrap_words(repeated_sentence(lesson), "", "");
    out += wrap_words("RoPE and ALiBi, the other position schemes in the glossary, are no lookup table: "
                      "they rotate or bias the query-key scores inside attention, so there is no P to add here.",
                      "", "");
    return out + verdict(lesson, options.palette);
}

}  // namespace embdemo
