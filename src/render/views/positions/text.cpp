#include "render/views/positions/text.hpp"

#include <algorithm>
#include <numeric>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/limits.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

const char* title(PositionEncoding encoding) {
    switch (encoding) {
        case PositionEncoding::sinusoidal:
            return "Token and sinusoidal position embeddings: E[ids] + P[0..T), P computed";
        case PositionEncoding::rope: return "Token embeddings and rotary positions: RoPE(E[ids], t), a table and a rotation";
        case PositionEncoding::learned: break;
    }
    return "Token and position embeddings: E[ids] + P[0..T), two lookup tables added";
}

std::string positions_seed_note(const PositionsRequest& request) {
    const std::string e = fmt::format("torch.manual_seed, then E = nn.Embedding({}, {})", request.vocab_size, request.dim);
    switch (request.encoding) {
        case PositionEncoding::sinusoidal: return e + "; the sinusoidal P is computed, not drawn";
        case PositionEncoding::rope: return e + "; RoPE draws nothing and has no table";
        case PositionEncoding::learned: break;
    }
    return e + fmt::format(", then P = nn.Embedding({}, {})", request.context, request.dim);
}

std::string encoding_note(const PositionsRequest& request) {
    const std::uint64_t cd = request.context * request.dim;
    switch (request.encoding) {
        case PositionEncoding::sinusoidal:
            return fmt::format("a fixed C x d table: {} values, 0 parameters to train", group_thousands(cd));
        case PositionEncoding::rope:
            return fmt::format("no table: {} angles per position, 0 parameters", request.dim / 2);
        case PositionEncoding::learned: break;
    }
    return fmt::format("a trained C x d table: {} parameters", group_thousands(cd));
}

std::string header(const PositionsLesson& lesson) {
    const PositionsRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::string shape = ids.batched ? fmt::format("B x T = {} x {}", ids.batch, ids.seq) : fmt::format("T = {}", ids.seq);
    std::vector<HeaderLine> lines{
        {"ids", format_id_batch(ids), shape},
        {"vocab", group_thousands(request.vocab_size), vocab_note(table_vocab_source(request.vocab_inferred, request.ids, request.vocab_size))},
        {"dim", group_thousands(request.dim), ""},
        {"context", group_thousands(request.context),
         request.context_inferred ? "C = T; a model sets C, e.g. GPT-2's 1,024; --context" : "C, the longest sequence P serves"},
        {"seed", std::to_string(request.seed), seed_note(request.seed, positions_seed_note(request))}};
    if (request.encoding_given) lines.push_back({"encoding", encoding_name(request.encoding), encoding_note(request)});
    return render_header_lines(title(request.encoding), lines, ids);
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

std::string verdict(const PositionsLesson& lesson, Palette palette) {
    const bool identical = lesson.token_check.identical && lesson.position_check.identical &&
                           lesson.output_check.identical;
    const std::size_t compared = lesson.token_lookup.values.size() + lesson.position_lookup.values.size();
    if (identical && lesson.request.encoding == PositionEncoding::rope) {
        return render_verdict(true, fmt::format("the lookup equals its one-hot product bit for bit ({} values), "
                                                "and so do the rotated rows",
                                                group_thousands(compared)),
                              palette);
    }
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


std::string rope_section(const PositionsLesson& lesson, int precision) {
    const RopeScores& r = *lesson.rope_scores;
    const IdBatch& ids = lesson.request.ids;
    std::string out = wrap_words(
        fmt::format("What no table can do: the score q . k of id {} (from {}) at position p and id {} (from {}) at "
                    "p + k, both rotated, for several p. Along each row only p changes:",
                    ids.values[r.first], flat_position_label(ids, r.first), ids.values[r.second],
                    flat_position_label(ids, r.second)),
        "", "");
    std::string head = "    k";
    for (const std::size_t p : r.starts) head += fmt::format("  {:>12}", fmt::format("p = {}", p));
    out += head + '\n';
    for (std::size_t k = 0; k < r.offsets.size(); ++k) {
        std::string row = fmt::format("  {:>3}", r.offsets[k]);
        for (const double score : r.scores[k]) row += fmt::format("  {:>12.{}f}", score, precision);
        out += row + '\n';
    }
    out += wrap_words(fmt::format("The scores depend on the offset k alone (largest spread along a row: {:.2e}, "
                                  "float32 rounding): RoPE turns both rows by their positions, and a dot product "
                                  "sees only the difference of the angles. A learned or sinusoidal table adds a "
                                  "vector instead, and the score of tok + P[p] and tok + P[p + k] changes with p. "
                                  "Nor is it a lookup: the row is multiplied by a rotation that depends on t, so "
                                  "there is no row P[t] to select with a one-hot vector and add.",
                                  r.widest_spread),
                      "", "");
    return out;
}

std::string compare_section(const PositionsLesson& lesson, int precision) {
    const EncodingOutputs& c = *lesson.compared;
    const IdBatch& ids = lesson.request.ids;
    const std::size_t cd = lesson.request.context * lesson.request.dim;
    const std::size_t rows = std::min<std::size_t>(3, ids.values.size());
    const std::size_t cols = std::min<std::size_t>(4, lesson.request.dim);
    // "first 3 rows; first 4 columns", or "the only row; all 2 columns" when that is all there is.
    const auto part = [](std::size_t shown, std::size_t total, const char* one, const char* many) {
        if (total == 1) return fmt::format("the only {}", one);
        if (shown == total) return total == 2 ? fmt::format("both {}", many) : fmt::format("all {} {}", total, many);
        return shown == 1 ? fmt::format("first {}", one) : fmt::format("first {} {}", shown, many);
    };
    std::string out = wrap_words(
        fmt::format("The three encodings on the same ids ({}; {}): learned adds a trained "
                    "row P[t] ({} parameters), sinusoidal adds a fixed row ({} values, 0 parameters), RoPE turns "
                    "the row (0 parameters, no table).",
                    part(rows, ids.values.size(), "row", "rows"), part(cols, lesson.request.dim, "column", "columns"),
                    group_thousands(cd), group_thousands(cd)),
        "", "");
    const auto cells = [&](const Matrix& m, std::size_t i) {
        std::string text;
        for (std::size_t j = 0; j < cols; ++j) text += fmt::format(" {:>9.{}f}", m.at(i, j), std::min(precision, 4));
        return text + (cols < lesson.request.dim ? " ..." : "");
    };
    for (std::size_t i = 0; i < rows; ++i) {
        const std::string label = fmt::format("{} t = {}", flat_position_label(ids, i), position_of(ids, i));
        out += fmt::format("  {:<14} learned    {}\n", label, cells(c.learned, i));
        out += fmt::format("  {:<14} sinusoidal {}\n", "", cells(c.sinusoidal, i));
        if (!c.rope.values.empty()) {
            out += fmt::format("  {:<14} rope       {}\n", "", cells(c.rope, i));
        } else {
            out += fmt::format("  {:<14} rope        needs an even d to pair columns (d = {})\n", "", lesson.request.dim);
        }
    }
    return out;
}

std::string closing_sentence(PositionEncoding encoding) {
    switch (encoding) {
        case PositionEncoding::sinusoidal:
            return "The glossary's claim holds here: the sinusoidal P is a table like a learned one, looked up "
                   "and added the same way; only its numbers come from a formula instead of training. RoPE "
                   "(--encoding rope) is where it stops holding.";
        case PositionEncoding::rope:
            return "So the glossary's 'the lookup-table mechanism is the same' holds for learned and sinusoidal "
                   "positions (--encoding learned, sinusoidal), not for RoPE; ALiBi is no table either: it adds a "
                   "bias to the attention scores.";
        case PositionEncoding::learned: break;
    }
    return "Sinusoidal positions are a table too, computed instead of trained (--encoding sinusoidal); RoPE "
           "and ALiBi are no lookup table: they rotate the rows or bias the query-key scores inside attention "
           "(--encoding rope shows RoPE).";
}

}  // namespace

std::string repeated_token_sentence(const PositionsLesson& lesson) {
    const IdBatch& ids = lesson.request.ids;
    if (!lesson.repeated) {
        // A hint that runs: ids of this run (so within V), no longer than the context C.
        const std::uint64_t context = lesson.request.context;
        std::vector<std::uint64_t> hint = ids.row(0);
        hint.resize(std::min<std::size_t>(hint.size(), 3));
        std::string more_context;
        if (hint.size() < context) {
            hint.push_back(hint[0]);
        } else if (hint.size() >= 2) {
            hint.back() = hint[0];
        } else {
            hint.push_back(hint[0]);
            more_context = " --context 2";
        }
        return fmt::format("No id appears at two different positions here; repeat one (e.g. --ids {}{}) to "
                           "see one token get two vectors.",
                           fmt::join(hint, ","), more_context);
    }
    const RepeatedToken& r = *lesson.repeated;
    const std::size_t t1 = position_of(ids, r.first);
    const std::size_t t2 = position_of(ids, r.second);
    const std::string how = lesson.request.encoding == PositionEncoding::rope
                                ? fmt::format("turns it by t = {} and t = {}", t1, t2)
                                : fmt::format("adds P[{}] and P[{}]", t1, t2);
    const std::size_t cols = lesson.output.cols;
    std::string differ;
    if (r.differing_columns == 0) {
        differ = "yet the two output rows come out equal in float32";
    } else if (r.differing_columns == cols) {
        differ = cols == 1 ? "so the two output rows differ in their only column"
                           : fmt::format("so the two output rows differ in all {} columns", group_thousands(cols));
    } else {
        differ = fmt::format("so the two output rows differ in {} of {} columns", group_thousands(r.differing_columns),
                             group_thousands(cols));
    }
    return fmt::format("Same token, two positions: id {} at {} (t = {}) and {} (t = {}) looks up the "
                       "same row E[{}], but {}, {}.",
                       r.id, flat_position_label(ids, r.first), t1, flat_position_label(ids, r.second), t2,
                       r.id, how, differ);
}

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
    const bool has_table = lesson.request.encoding != PositionEncoding::rope;  // RoPE has no P
    const std::vector<BlockRow> p_rows =
        has_table ? table_rows(lesson.position_weight, {first_t.begin(), first_t.end()}) : std::vector<BlockRow>{};
    const std::vector<std::size_t> shown_n = shown_rows(n, lesson.request.dim);
    const std::vector<std::size_t> shown_t = shown_rows(seq, lesson.request.dim);
    const std::vector<BlockRow> tok_rows = pair_rows(shown_n, id_labels);
    const std::vector<BlockRow> pos_rows = pair_rows(shown_t, t_labels);
    const std::vector<BlockRow> out_rows = labelled_rows(
        shown_n, [&](std::size_t i) { return id_labels[i]; },
        [&](std::size_t i) { return fmt::format("E[{}] + P[{}]", ids.values[i], position_of(ids, i)); });

    const std::size_t label_width = std::max({widest_label(e_rows), widest_label(p_rows), widest_label(tok_rows),
                                              widest_label(pos_rows), widest_label(out_rows)});
    std::vector<ScreenBlock> blocks{
        {&lesson.weight, shown_rows(lesson.weight.rows, lesson.weight.cols, {ids.values.begin(), ids.values.end()})},
        {&lesson.token_lookup, shown_n}, {&lesson.output, shown_n}};
    if (has_table) {
        blocks.push_back({&lesson.position_weight, shown_rows(lesson.position_weight.rows, lesson.position_weight.cols, first_t)});
        blocks.push_back({&lesson.position_lookup, shown_t});
    }
    const Screen screen = choose_screen(blocks, lesson.request.dim, options.precision,
                                        block_cells_budget(label_width, widest_note(out_rows)));
    const auto block = [&](const Matrix& m, const std::vector<BlockRow>& rows, const Matrix* second) {
        std::string out;
        for (const BlockRow& row : rows) {
            const bool onehot = second != nullptr && row.label.find("one-hot") != std::string::npos;
            out += render_block(onehot ? *second : m, {row}, widest_label(rows), screen, options.palette);
        }
        return out;
    };

    const PositionsRequest& request = lesson.request;
    const PositionEncoding encoding = request.encoding;
    std::string out = header(lesson) + '\n';
    out += wrap_words(fmt::format("E = token table, nn.Embedding({}, {})   > marks the rows the ids use",
                       request.vocab_size, request.dim), "", "  ");
    out += block(lesson.weight, e_rows, nullptr);
    if (encoding != PositionEncoding::rope) {
        const std::string title =
            encoding == PositionEncoding::sinusoidal
                ? fmt::format("P = the sinusoidal table, {} x {}: P[p, 2i] = sin(p / 10000^(2i/d)), P[p, 2i+1] = "
                              "cos(p / 10000^(2i/d)), computed, not drawn   > marks rows 0..{}",
                              request.context, request.dim, seq - 1)
                : fmt::format("P = position table, nn.Embedding({}, {}), drawn after E   > marks rows 0..{}",
                              request.context, request.dim, seq - 1);
        out += '\n' + wrap_words(title, "", "  ");
        out += block(lesson.position_weight, p_rows, nullptr);
    }
    out += '\n' + wrap_words(fmt::format("tok = E[ids], and one_hot(ids) @ E under it   {} x {}", group_thousands(n),
                       group_thousands(request.dim)), "", "  ");
    out += block(lesson.token_lookup, tok_rows, &lesson.token_onehot);
    if (encoding == PositionEncoding::rope) {
        out += '\n' + wrap_words(fmt::format("output = RoPE(tok, t): each row as one head of d = {}, column j paired "
                                             "with j {} d/2 and turned by the angle t * 10000^(-2(j mod d/2)/d); "
                                             "RoPE(one_hot(ids) @ E, t) under it   {} x {}",
                                             request.dim, "+/-", group_thousands(n), group_thousands(request.dim)),
                                 "", "  ");
        out += block(lesson.output, tok_rows, &lesson.onehot_output);
        out += '\n' + rope_section(lesson, options.precision);
    } else {
        out += '\n' + wrap_words(fmt::format("pos = P[torch.arange({})], and one_hot(arange({}), {}) @ P under it   {} x {}",
                                             seq, seq, request.context, seq, group_thousands(request.dim)),
                                 "", "  ");
        out += block(lesson.position_lookup, pos_rows, &lesson.position_onehot);
        out += '\n' + wrap_words(fmt::format("output = tok + pos{}   {} x {}",
                                             ids.batched ? " (pos added to every row of the batch)" : "",
                                             group_thousands(n), group_thousands(request.dim)),
                                 "", "  ");
        out += block(lesson.output, out_rows, nullptr);
    }
    out += '\n' + wrap_words(repeated_token_sentence(lesson), "", "");
    if (lesson.compared) out += '\n' + compare_section(lesson, options.precision);
    out += wrap_words(closing_sentence(encoding), "", "");
    return out + verdict(lesson, options.palette);
}

}  // namespace embdemo
