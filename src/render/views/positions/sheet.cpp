// positions' sheet: the token table E and the encoding's part (a table P looked up and added,
// RoPE's rotation, or ALiBi's bias on the scores), each lookup beside its one-hot product, and
// what the encoding does and does not do. Every encoding's words sit in one place, words_of.
#include <algorithm>
#include <cstring>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/python_kit.hpp"
#include "render/kit/table.hpp"
#include "render/views/positions/parts.hpp"
#include "render/views/positions/view.hpp"

namespace embdemo {
namespace {

// What the sheet says of one encoding: the one place each encoding's words are written.
struct EncodingWords {
    std::string title, seed, note, closing, agree, agree_after;
};

EncodingWords words_of(const PositionsRequest& request) {
    const std::string e = fmt::format("torch.manual_seed, then E = nn.Embedding({}, {})", request.vocab_size, request.dim);
    const std::string cd = group_thousands(request.context * request.dim);
    switch (request.encoding) {
        case PositionEncoding::sinusoidal:
            return {"Token and sinusoidal position embeddings: E[ids] + P[0..T), P computed",
                    e + "; the sinusoidal P is computed, not drawn",
                    fmt::format("a fixed C x d table: {} values, 0 parameters to train", cd),
                    "The glossary's claim holds here: the sinusoidal P is a table like a learned one, looked up and "
                    "added the same way; only its numbers come from a formula instead of training. RoPE "
                    "(--encoding rope) is where it stops holding; ALiBi (--encoding alibi) moves a lookup to the "
                    "attention scores.",
                    "both lookups equal their one-hot products", ", and so do the sums"};
        case PositionEncoding::rope:
            return {"Token embeddings and rotary positions: RoPE(E[ids], t), a table and a rotation",
                    e + "; RoPE draws nothing and has no table",
                    fmt::format("no table: {} per position, 0 parameters", count_of(request.dim / 2, "angle", "angles")),
                    "So the glossary's 'the lookup-table mechanism is the same' holds for learned and sinusoidal "
                    "positions (--encoding learned, sinusoidal), not for RoPE; ALiBi is no table of rows either: it "
                    "adds a bias to the attention scores (--encoding alibi).",
                    "the lookup equals its one-hot product", ", and so do the rotated rows"};
        case PositionEncoding::alibi:
            return {"Token embeddings and ALiBi: E[ids] unchanged, a bias by distance on the scores",
                    e + "; ALiBi draws nothing: its slopes are fixed",
                    fmt::format("no table to train: {} on the scores, 0 parameters",
                                count_of(request.heads, "slope", "slopes")),
                    "So the glossary's 'the lookup-table mechanism is the same' holds for learned and sinusoidal "
                    "positions; ALiBi keeps a lookup, D[i - j], but of the distance between two positions, with "
                    "nothing learned, and what it looks up goes to the attention scores, not to the rows.",
                    "the lookup equals its one-hot product", ", and so does ALiBi's bias, D[i - j] against "
                    "one_hot(i - j) @ D"};
        case PositionEncoding::learned: break;
    }
    return {"Token and position embeddings: E[ids] + P[0..T), two lookup tables added",
            e + fmt::format(", then P = nn.Embedding({}, {})", request.context, request.dim),
            fmt::format("a learned C x d table: {} parameters (drawn here)", cd),
            "Sinusoidal positions are a table too, computed instead of learned (--encoding sinusoidal); RoPE and "
            "ALiBi add no row of a table: RoPE rotates the rows (--encoding rope), ALiBi biases the query-key scores "
            "by a frozen lookup of the distance (--encoding alibi).",
            "both lookups equal their one-hot products", ", and so do the sums"};
}

std::vector<std::size_t> first_positions(std::size_t seq) {
    std::vector<std::size_t> t(seq);
    std::iota(t.begin(), t.end(), std::size_t{0});
    return t;
}

std::vector<SheetParameter> positions_parameters(const PositionsRequest& request, const EncodingWords& words) {
    const IdBatch& ids = request.ids;
    const PositionEncodingTraits& traits = traits_of(request.encoding);
    const std::string shape = ids.batched ? fmt::format("B x T = {} x {}", ids.batch, ids.seq) : fmt::format("T = {}", ids.seq);
    const std::string context_note =
        request.context_inferred ? "C = T; a model sets C, e.g. GPT-2's 1,024; --context"
        : traits.has_table       ? "C, the longest sequence P serves"
                                 : "C, the longest sequence the model serves (with no table, nothing has C rows)";
    std::vector<SheetParameter> parameters = id_table_parameters(ids, request.vocab_size, request.vocab_inferred, shape);
    const std::vector<SheetParameter> own{
        {"dim", group_thousands(request.dim), "", std::to_string(request.dim)},
        {"context", group_thousands(request.context), context_note, std::to_string(request.context)},
        {"context_inferred", "", "", request.context_inferred ? "true" : "false"},
        {"seed", std::to_string(request.seed), seed_note(request.seed, words.seed), std::to_string(request.seed)},
        {"encoding", request.encoding_given ? encoding_name(request.encoding) : "", words.note,
         json_string(encoding_name(request.encoding))},
    };
    parameters.insert(parameters.end(), own.begin(), own.end());
    if (traits.biases_scores) {
        parameters.push_back({"heads", std::to_string(request.heads), "H, one slope m_h each", std::to_string(request.heads)});
    }
    return parameters;
}

}  // namespace

std::vector<SheetTable> positions_tables(const PositionsRequest& request, const PositionsLesson* lesson) {
    const IdBatch& ids = request.ids;
    const PositionEncodingTraits& traits = traits_of(request.encoding);
    const std::size_t v = request.vocab_size, d = request.dim, seq = ids.seq;
    const auto per_id = rows_shape(ids.batch, ids.seq, ids.batched, d);
    const auto of = [lesson](const Matrix PositionsLesson::*member) { return lesson ? &(lesson->*member) : nullptr; };
    const auto named = [](SheetTable table, const char* python, const char* what) {
        table.python = python;
        table.what = what;
        return table;
    };
    std::vector<SheetTable> tables{SheetTable{"weight", "E = tok.weight", TableRole::weight, {v, d}, of(&PositionsLesson::weight)}};
    tables.back().selected = used_rows(ids.values);
    if (traits.has_table) {
        tables.emplace_back("position_weight", traits.drawn ? "P = pos.weight" : "P = sinusoidal table", TableRole::weight,
                            std::vector<std::size_t>{request.context, d}, of(&PositionsLesson::position_weight));
        tables.back().selected = first_positions(seq);
        tables.back().selected_what = "the rows 0..T-1";
    }
    tables.push_back(named({"token_lookup", "tok(ids)", TableRole::per_id, per_id, of(&PositionsLesson::token_lookup)},
                           "tokens", "token lookup"));
    tables.push_back(named({"tokens_onehot", "one_hot(ids) @ E", TableRole::per_id, per_id, of(&PositionsLesson::token_onehot), false},
                           "tokens_onehot", "one_hot(idx) @ E"));
    if (traits.has_table) {
        tables.push_back(named({"position_lookup", "pos(torch.arange(T))", TableRole::plain, {seq, d},
                                of(&PositionsLesson::position_lookup)},
                               "places", "position lookup"));
        tables.push_back(named({"position_onehot", "one_hot(arange(T)) @ P", TableRole::plain, {seq, d},
                                of(&PositionsLesson::position_onehot), false},
                               "places_onehot", "one_hot(t) @ P"));
    }
    if (traits.turns_rows) {
        tables.push_back(named({"rotated", "RoPE(tok(ids), t)", TableRole::per_id, per_id, of(&PositionsLesson::output)},
                               "output", "output"));
        tables.push_back(named({"onehot_rotated", "RoPE(one_hot(ids) @ E, t)", TableRole::per_id, per_id,
                                of(&PositionsLesson::onehot_output)},
                               "onehot_output", "output of the one-hot forms"));
    } else if (traits.has_table) {
        tables.push_back(named({"output", "tok(ids) + pos(torch.arange(T))", TableRole::per_id, per_id, of(&PositionsLesson::output)},
                               "output", "output"));
        tables.push_back(named({"onehot_output", "one_hot(ids) @ E + one_hot(arange(T)) @ P", TableRole::per_id, per_id,
                                of(&PositionsLesson::onehot_output)},
                               "onehot_output", "output of the one-hot forms"));
    }
    if (traits.biases_scores) {
        const AlibiBias* alibi = lesson ? &*lesson->alibi : nullptr;
        const std::size_t heads = request.heads, pairs = causal_pairs(seq);
        tables.push_back(named({"alibi_slopes", "torch.tensor(get_slopes(H))", TableRole::plain, {1, heads},
                                alibi ? &alibi->slopes : nullptr, false},
                               "slope_row", "ALiBi's slopes"));
        tables.push_back(named({"alibi_distances", "D = slopes * -arange(T)", TableRole::plain, {seq, heads},
                                alibi ? &alibi->distances : nullptr},
                               "distances", "ALiBi's distance table D"));
        tables.push_back(named({"alibi_bias", "F.embedding(i - j, D)", TableRole::plain, {pairs, heads}, alibi ? &alibi->bias : nullptr},
                               "bias", "ALiBi's bias D[i - j]"));
        tables.push_back(named({"alibi_bias_onehot", "one_hot(i - j, T) @ D", TableRole::plain, {pairs, heads},
                                alibi ? &alibi->bias_onehot : nullptr},
                               "bias_onehot", "one_hot(i - j) @ D"));
    }
    if (request.encoding_given) {
        const EncodingOutputs* compared = lesson ? &*lesson->compared : nullptr;
        tables.push_back(named({"by_learned", "tok(ids) + learned(arange(T))", TableRole::per_id, per_id,
                                compared ? &compared->learned : nullptr, false},
                               "by_learned", "output with a learned table"));
        tables.push_back(named({"by_sinusoidal", "tok(ids) + sinusoidal(arange(T))", TableRole::per_id, per_id,
                                compared ? &compared->sinusoidal : nullptr, false},
                               "by_sinusoidal", "output with the sinusoidal table"));
        if (d % 2 == 0) {
            tables.push_back(named({"by_rope", "RoPE(tok(ids), t)", TableRole::per_id, per_id, compared ? &compared->rope : nullptr, false},
                                   "by_rope", "output with rope"));
        }
    }
    return tables;
}

namespace {

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
    const PositionEncodingTraits& traits = traits_of(lesson.request.encoding);
    if (traits.biases_scores) {
        return fmt::format("Same token, two positions: id {} at {} (t = {}) and {} (t = {}) looks up the same row "
                           "E[{}], and ALiBi leaves both rows as they are: the two output rows are equal, and only "
                           "the scores they get tell the positions apart.",
                           r.id, flat_position_label(ids, r.first), t1, flat_position_label(ids, r.second), t2, r.id);
    }
    const std::string how = traits.turns_rows ? fmt::format("turns it by t = {} and t = {}", t1, t2)
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

// The first id met at a position t other than its first one, searched again from the ids.
bool repeated_holds(const PositionsLesson& lesson) {
    const IdBatch& ids = lesson.request.ids;
    for (std::size_t second = 0; second < ids.values.size(); ++second) {
        for (std::size_t first = 0; first < second; ++first) {
            if (ids.values[first] != ids.values[second]) continue;
            if (position_of(ids, first) == position_of(ids, second)) break;  // the first use counts
            if (!lesson.repeated || lesson.repeated->first != first || lesson.repeated->second != second) return false;
            std::size_t differing = 0;
            for (std::size_t j = 0; j < lesson.output.cols; ++j) {
                differing += lesson.output.at(first, j) != lesson.output.at(second, j);
            }
            return differing == lesson.repeated->differing_columns;
        }
    }
    return !lesson.repeated;
}

std::string repeated_json(const std::optional<RepeatedToken>& repeated) {
    if (!repeated) return "null";
    return fmt::format("{{\"id\": {}, \"positions\": [{}, {}], \"differing_columns\": {}}}", repeated->id,
                       repeated->first, repeated->second, repeated->differing_columns);
}

// "first 3 rows; first 4 columns", or "the only row; all 2 columns" when that is all there is.
std::string part(std::size_t shown, std::size_t total, const char* one, const char* many) {
    if (total == 1) return fmt::format("the only {}", one);
    if (shown == total) return total == 2 ? fmt::format("both {}", many) : fmt::format("all {} {}", total, many);
    return shown == 1 ? fmt::format("first {}", one) : fmt::format("first {} {}", shown, many);
}

SheetClaim compare_claim(const PositionsLesson& lesson) {
    const IdBatch& ids = lesson.request.ids;
    const std::size_t d = lesson.request.dim;
    const std::uint64_t cd = lesson.request.context * d;
    const std::size_t rows = std::min<std::size_t>(3, ids.values.size());
    const std::size_t cols = std::min<std::size_t>(4, d);
    SheetClaim claim{
        fmt::format("The four encodings on the same ids ({}; {}): learned adds a row P[t] of a table training learns "
                    "({} parameters, drawn here), sinusoidal adds a fixed row ({} values, 0 parameters), RoPE turns "
                    "the row (0 parameters, no table), ALiBi leaves the row as it is and biases the scores (0 "
                    "parameters).",
                    part(rows, ids.values.size(), "row", "rows"), part(cols, d, "column", "columns"), group_thousands(cd),
                    group_thousands(cd)),
        "encodings_compared", fmt::format("{{\"learned_parameters\": {}, \"sinusoidal_values\": {}}}", cd, cd),
        fmt::format("assert learned.weight.numel() == {} and sinusoidal_table(C, D).numel() == {}, "
                    "\"embdemo counts other sizes for the tables\"\n",
                    cd, cd),
        [&lesson] {
            const EncodingOutputs& c = *lesson.compared;
            return c.learned.rows == lesson.token_lookup.rows && c.sinusoidal.rows == lesson.token_lookup.rows &&
                   (lesson.request.dim % 2 == 1) == c.rope.values.empty();
        }};
    claim.paragraph = true;
    claim.text_after = [&lesson, rows, cols](int precision) {
        const EncodingOutputs& c = *lesson.compared;
        const IdBatch& batch = lesson.request.ids;
        const std::size_t dim = lesson.request.dim;
        const auto cells = [&](const Matrix& m, std::size_t i) {
            std::string text;
            for (std::size_t j = 0; j < cols; ++j) text += fmt::format(" {:>9.{}f}", m.at(i, j), std::min(precision, 4));
            return text + (cols < dim ? " ..." : "");
        };
        std::string out;
        for (std::size_t i = 0; i < rows; ++i) {
            const std::string label = fmt::format("{} t = {}", flat_position_label(batch, i), position_of(batch, i));
            out += fmt::format("  {:<14} learned    {}\n", label, cells(c.learned, i));
            out += fmt::format("  {:<14} sinusoidal {}\n", "", cells(c.sinusoidal, i));
            out += c.rope.values.empty()
                       ? fmt::format("  {:<14} rope        needs an even d to pair columns (d = {})\n", "", dim)
                       : fmt::format("  {:<14} rope       {}\n", "", cells(c.rope, i));
            out += fmt::format("  {:<14} alibi      {}\n", "", cells(lesson.token_lookup, i));
        }
        return out;
    };
    return claim;
}

// The encoding does what the closing sentence says: a table is added row by row; RoPE has none
// and rotates the rows; ALiBi has none and leaves them as they are.
bool closing_holds(const PositionsLesson& lesson) {
    const PositionEncodingTraits& traits = traits_of(lesson.request.encoding);
    if (!traits.has_table) {
        const Matrix expected = traits.turns_rows ? rope_rotate(lesson.token_lookup, lesson.request.ids.seq) : lesson.token_lookup;
        return lesson.position_weight.rows == 0 && compare_exact(lesson.output, expected).identical;
    }
    for (std::size_t i = 0; i < lesson.output.rows; ++i) {
        for (std::size_t j = 0; j < lesson.output.cols; ++j) {
            const float sum = lesson.token_lookup.at(i, j) + lesson.position_lookup.at(position_of(lesson.request.ids, i), j);
            const float got = lesson.output.at(i, j);
            if (std::memcmp(&sum, &got, sizeof sum) != 0) return false;
        }
    }
    return lesson.position_weight.rows == lesson.request.context;
}

SheetClaim loader_claim(const PositionsLesson& lesson) {
    const PositionsRequest& request = lesson.request;
    const LoaderWindows& loader = request.ids.source.loader;
    return {fmt::format("The loader's first batch: each target row is its input row shifted by one token; the text "
                        "makes {}.",
                        count_of(loader.windows, "window", "windows")),
            "", "", loader_python(request), [&request] {
                const IdBatch& ids = request.ids;
                const LoaderWindows& windows = ids.source.loader;
                for (std::size_t b = 0; b < ids.batch; ++b) {
                    for (std::size_t t = 0; t + 1 < ids.seq; ++t) {
                        if (windows.targets[b * ids.seq + t] != ids.values[b * ids.seq + t + 1]) return false;
                    }
                }
                return windows.windows >= ids.batch;
            }};
}

}  // namespace

LessonSheet positions_sheet(const PositionsLesson& lesson) {
    const PositionsRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const PositionEncodingTraits& traits = traits_of(request.encoding);
    const EncodingWords words = words_of(request);
    const std::size_t n = ids.values.size(), seq = ids.seq, d = request.dim;
    LessonSheet sheet;
    sheet.title = words.title;
    sheet.schema = k_positions_json_schema;
    sheet.ids = &ids;
    sheet.parameters = positions_parameters(request, words);
    sheet.tables = positions_tables(request, &lesson);

    std::vector<std::string> id_labels(n), t_labels(seq);
    for (std::size_t i = 0; i < n; ++i) id_labels[i] = fmt::format("{}  id {}", flat_position_label(ids, i), ids.values[i]);
    std::size_t id_width = 0;
    for (const std::string& label : id_labels) id_width = std::max(id_width, label.size());
    for (std::string& label : id_labels) label = pad_right(label, id_width);
    for (std::size_t t = 0; t < seq; ++t) t_labels[t] = pad_right(fmt::format("t = {}", t), id_width);
    const std::string nd = shape_words(n, d);
    const auto pair = [&](std::string title, const char* top, const char* under, const std::vector<std::string>& labels) {
        SheetBlock block = SheetBlock::pair(std::move(title), top, under, "lookup", "one-hot");
        block.labels = labels;
        return block;
    };
    sheet.blocks.push_back(SheetBlock::rows_of(
        fmt::format("E = token table, nn.Embedding({}, {})   > marks the rows the ids use", request.vocab_size, d), "weight"));
    if (traits.has_table) {
        sheet.blocks.push_back(SheetBlock::rows_of(
            traits.drawn ? fmt::format("P = position table, nn.Embedding({}, {}), drawn after E   > marks rows 0..{}",
                                       request.context, d, seq - 1)
                         : fmt::format("P = the sinusoidal table, {} x {}: P[p, 2i] = sin(p / 10000^(2i/d)), P[p, 2i+1] = "
                                       "cos(p / 10000^(2i/d)), computed, not drawn   > marks rows 0..{}",
                                       request.context, d, seq - 1),
            "position_weight"));
    }
    sheet.blocks.push_back(pair(fmt::format("tok = E[ids], and one_hot(ids) @ E under it   {}", nd), "token_lookup",
                                "tokens_onehot", id_labels));
    if (traits.turns_rows) {
        sheet.blocks.push_back(pair(fmt::format("output = RoPE(tok, t): each row as one head of d = {}, column j paired "
                                                "with j +/- d/2 and turned by the angle t * 10000^(-2(j mod d/2)/d); "
                                                "RoPE(one_hot(ids) @ E, t) under it   {}",
                                                d, nd),
                                    "rotated", "onehot_rotated", id_labels));
    } else if (traits.has_table) {
        sheet.blocks.push_back(pair(fmt::format("pos = P[torch.arange({})], and one_hot(arange({}), {}) @ P under it   {}",
                                                seq, seq, request.context, shape_words(seq, d)),
                                    "position_lookup", "position_onehot", t_labels));
        SheetBlock output = SheetBlock::rows_of(
            fmt::format("output = tok + pos{}   {}", ids.batched ? " (pos added to every row of the batch)" : "", nd), "output");
        output.labels = id_labels;
        for (std::size_t i = 0; i < n; ++i) output.notes.push_back(fmt::format("E[{}] + P[{}]", ids.values[i], position_of(ids, i)));
        sheet.blocks.push_back(output);
    } else {
        const AlibiBias& alibi = *lesson.alibi;
        SheetBlock table = SheetBlock::rows_of(
            fmt::format("D = ALiBi's distance table, {}: D[k, h] = m_h * (-k), a key k positions before its query",
                        shape_words(seq, request.heads)),
            "alibi_distances");
        for (std::size_t k = 0; k < seq; ++k) table.labels.push_back(fmt::format("k = {}", k));
        sheet.blocks.push_back(table);
        std::vector<std::string> pair_labels;
        for (std::size_t i = 0; i < seq; ++i) {
            for (std::size_t j = 0; j <= i; ++j) pair_labels.push_back(fmt::format("i = {}, j = {}", i, j));
        }
        sheet.blocks.push_back(pair(fmt::format("bias = D[i - j] for each query i and key j <= i, and one_hot(i - j, {}) "
                                                "@ D under it   {}",
                                                seq, shape_words(alibi.pair_distance.size(), request.heads)),
                                    "alibi_bias", "alibi_bias_onehot", pair_labels));
    }

    sheet.checks.emplace_back("E[ids] and one_hot(ids) @ E", "token_lookup", "tokens_onehot", lesson.token_check, n * d);
    if (traits.has_table) {
        sheet.checks.emplace_back("P[arange(T)] and one_hot(arange(T)) @ P", "position_lookup", "position_onehot",
                                  lesson.position_check, seq * d);
        sheet.checks.emplace_back("The sums of the lookups and of the products", "output", "onehot_output",
                                  lesson.output_check, n * d, false);
    } else if (traits.turns_rows) {
        sheet.checks.emplace_back("RoPE of the lookup and RoPE of the one-hot product", "rotated", "onehot_rotated",
                                  lesson.output_check, n * d, false);
    } else {
        sheet.checks.emplace_back("D[i - j] and one_hot(i - j) @ D", "alibi_bias", "alibi_bias_onehot", lesson.alibi->check,
                                  lesson.alibi->bias.values.size(), false);
    }

    if (traits.turns_rows) {
        sheet.claims = rope_claims(lesson);
    } else {
        sheet.fields.emplace_back("rope_scores", "null");
        sheet.fields.emplace_back("rope_book_bound", "null");
    }
    if (traits.biases_scores) sheet.claims = alibi_claims(lesson);
    SheetClaim repeated{repeated_token_sentence(lesson), "repeated_token", repeated_json(lesson.repeated),
                        repeated_python(lesson.repeated), [&lesson] { return repeated_holds(lesson); }};
    repeated.paragraph = true;
    sheet.claims.push_back(repeated);
    if (lesson.compared) sheet.claims.push_back(compare_claim(lesson));
    sheet.claims.emplace_back(words.closing, "", "", "", [&lesson] { return closing_holds(lesson); });
    if (ids.source.loader.used()) sheet.claims.push_back(loader_claim(lesson));
    sheet.agree = words.agree;
    sheet.agree_after = words.agree_after;
    sheet.disagree = "from their one-hot products";

    sheet.script_what = "Positions: a second embedding table, a rotation or a bias on the scores, beside the token "
                        "embeddings.";
    sheet.script_run = fmt::format("{} ids, V = {}, d = {}, C = {}, encoding {}{}", n, request.vocab_size, d,
                                   request.context, encoding_name(request.encoding),
                                   traits.biases_scores ? fmt::format(", H = {}", request.heads) : "");
    sheet.script_imports = "import math\nimport numpy\n";
    const bool sinusoidal = (traits.has_table && !traits.drawn) || lesson.compared;
    const bool rope = traits.turns_rows || (lesson.compared && d % 2 == 0);
    if (sinusoidal) sheet.script_definitions += std::string(k_sinusoidal_python).substr(1);
    if (rope) sheet.script_definitions += std::string(k_rope_python).substr(1);
    if (traits.turns_rows) sheet.script_definitions += std::string(k_book_rope_python).substr(1);
    if (traits.biases_scores) sheet.script_definitions += std::string(k_alibi_python).substr(1);
    sheet.script_definitions += '\n';
    std::vector<std::string>& lines = sheet.torch_lines;
    lines = {fmt::format("V, D, C, T = {}, {}, {}, idx.shape[-1]", request.vocab_size, d, request.context),
             "positions = torch.arange(T)", fmt::format("torch.manual_seed({})", request.seed),
             "tok = torch.nn.Embedding(V, D)    # E, drawn first"};
    if (traits.has_table) {
        lines.push_back(traits.drawn ? "pos = torch.nn.Embedding(C, D)    # P, drawn right after E"
                                     : "pos = torch.nn.Embedding.from_pretrained(sinusoidal_table(C, D))    # a fixed table");
    }
    if (lesson.compared) {
        lines.push_back(traits.drawn ? "learned = pos" : "learned = torch.nn.Embedding(C, D)    # drawn right after E");
    }
    lines.push_back("tokens = tok(idx).detach()");
    lines.push_back("tokens_onehot = torch.nn.functional.one_hot(idx, V).float() @ tok.weight.detach()");
    if (traits.turns_rows) {
        lines.push_back("rows = [i % T for i in range(idx.numel())]    # each row's position t");
        lines.push_back("output = rope(" + flat_rows("tokens") + ", rows).reshape(tokens.shape)");
        lines.push_back("onehot_output = rope(" + flat_rows("tokens_onehot") + ", rows).reshape(tokens.shape)");
    } else if (traits.has_table) {
        lines.push_back("places = pos(positions).detach()");
        lines.push_back("places_onehot = torch.nn.functional.one_hot(positions, C).float() @ pos.weight.detach()");
        lines.push_back("output = tokens + places");
        lines.push_back("onehot_output = tokens_onehot + places_onehot");
    } else {
        for (const std::string& line : alibi_torch_lines(lesson)) lines.push_back(line);
    }
    if (lesson.compared) {
        lines.push_back("by_learned = tokens + learned(positions).detach()");
        lines.push_back("by_sinusoidal = tokens + sinusoidal_table(C, D)[positions]");
        if (d % 2 == 0) {
            lines.push_back("by_rope = rope(" + flat_rows("tokens") + ", [i % T for i in range(idx.numel())]).reshape(tokens.shape)");
        }
    }
    if (traits.biases_scores) {
        lines.push_back("print(\"tokens =\", tokens)");
        lines.push_back("print(\"ALiBi's bias D[i - j] =\", bias)");
    } else {
        lines.push_back("print(\"output =\", output)");
        lines.push_back("print(\"from the one-hot products =\", onehot_output)");
    }
    return sheet;
}

}  // namespace embdemo
