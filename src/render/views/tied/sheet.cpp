// tied's sheet: E serves the lookup and the output layer, logits = H @ E.T; the top K of each row,
// why the output side needs no transpose, the parameters tying saves (here and for GPT-2 small)
// and what tying does to E's gradient, stated once for every format.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/python_kit.hpp"
#include "render/kit/table.hpp"
#include "render/kit/torch_lines.hpp"
#include "render/views/tied/view.hpp"

namespace embdemo {
namespace {

// Past this many logits the script carries a checksum a row rather than every value's bits.
constexpr std::uint64_t k_full_logits = std::uint64_t{1} << 20;

bool logits_listed(std::uint64_t rows, std::uint64_t vocab) { return rows * vocab <= k_full_logits; }

// ` "cat"` after an id when the ids came from a text, nothing otherwise.
std::string quoted_token(const IdSource& source, std::uint64_t id) {
    if (!source.token_of) return "";
    return " \"" + source.token_of(id) + '"';
}

// Each position's top K, its logits spelled as the logits block spells them.
std::string top_lines(const TiedLesson& lesson, const std::vector<std::size_t>& shown, const NumberFormat& format) {
    const IdBatch& ids = lesson.request.ids;
    const std::size_t k = lesson.request.top;
    std::string out = '\n' + wrap_words(k == 1 ? std::string("Top token id per position (logit in parentheses)")
                                               : fmt::format("Top {} token ids per position (logit in parentheses)", k),
                                        "", "  ");
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
    return out;
}

// [[{"id": 2, "logit": 3.01}, ...], ...]: one list per row of H, flat over a batch's rows.
std::string top_json(const TiedLesson& lesson) {
    std::vector<std::string> rows;
    for (std::size_t i = 0; i < lesson.top.size(); ++i) {
        std::vector<std::string> entries;
        for (const TopLogit& entry : lesson.top[i]) {
            entries.push_back(fmt::format("{{\"id\": {}, \"logit\": {}}}", entry.id, json_number(entry.logit)));
        }
        rows.push_back(fmt::format("[{}]", fmt::join(entries, ", ")));
    }
    return "[\n    " + fmt::format("{}", fmt::join(rows, ",\n    ")) + "\n  ]";
}

std::string parameters_json(const ParameterCounts& counts) {
    return fmt::format("{{\"untied\": {}, \"tied\": {}}}", counts.untied, counts.tied);
}

std::string own_rank_words(const TiedLesson& lesson) {
    const auto first = static_cast<std::size_t>(std::count(lesson.own_rank.begin(), lesson.own_rank.end(), std::size_t{0}));
    const std::size_t positions = lesson.own_rank.size();
    if (positions == 1) {
        return first == 1 ? "the one position ranks its own id first" : "the one position does not rank its own id first";
    }
    if (first == positions) {
        return positions == 2 ? std::string("both positions rank their own id first")
                              : fmt::format("all {} positions rank their own id first", group_thousands(positions));
    }
    if (first == 0) {
        return positions == 2 ? std::string("neither position ranks its own id first")
                              : fmt::format("none of the {} positions ranks its own id first", group_thousands(positions));
    }
    return fmt::format("{} of {} positions {} first", group_thousands(first), group_thousands(positions),
                       first == 1 ? "ranks its own id" : "rank their own id");
}

SheetClaim own_rank_claim(const TiedLesson& lesson) {
    // With V = 1 there is no other row to be ranked against.
    const char* against = lesson.request.vocab_size == 1 ? "the only logit there is (V = 1)"
                                                         : "against dot products with other rows";
    std::vector<std::uint64_t> ranks(lesson.own_rank.begin(), lesson.own_rank.end());
    return {fmt::format("With H = E[ids], {}: its logit is E[id] . E[id], the row's squared length, {}.",
                        own_rank_words(lesson), against),
            "own_rank", fmt::format("[{}]", fmt::join(ranks, ", ")),
            "own_rank = (order == idx.unsqueeze(-1)).nonzero()[:, -1]    # where each row's own id ranks\n" +
                python_ints("assert own_rank.tolist() == ", ranks, ", \"the ids rank elsewhere in PyTorch\"\n"),
            // An id ranks first exactly when it heads its row's top K, which the lesson keeps apart.
            [&lesson] {
                const IdBatch& ids = lesson.request.ids;
                if (lesson.own_rank.size() != ids.values.size()) return false;
                for (std::size_t i = 0; i < ids.values.size(); ++i) {
                    if ((lesson.own_rank[i] == 0) != (lesson.top[i].front().id == ids.values[i])) return false;
                }
                return true;
            }};
}

// The reason the input side needs W = E.T is the layout (row k of W is output k), not the shape:
// when V = d both are V x d, and only the roles of rows and columns differ.
SheetClaim layout_claim(const TiedLesson& lesson) {
    const std::uint64_t v = lesson.request.vocab_size, d = lesson.request.dim;
    const std::string input_side =
        v == d ? fmt::format("The input side's nn.Linear({}, {}) also stores {} x {} here, but out x in: its row j "
                             "belongs to output j, while E's row k belongs to id k, so the lookup still needed "
                             "W = E.T.",
                             v, d, group_thousands(d), group_thousands(v))
               : fmt::format("The input side's nn.Linear({}, {}) stores {} x {} (out x in), which is why the lookup "
                             "needed W = E.T.",
                             v, d, group_thousands(d), group_thousands(v));
    SheetClaim claim{
        fmt::format("No transpose on this side: nn.Linear({}, {}) stores its weight as out x in = {} x {}, E's own "
                    "shape, and computes H @ W.T, so out_head.weight = E works as it is. {}",
                    d, v, group_thousands(v), group_thousands(d), input_side),
        "weight_shapes", fmt::format("{{\"out_head\": [{}, {}], \"input_linear\": [{}, {}]}}", v, d, d, v),
        "assert tuple(out_head.weight.shape) == (V, D), \"out_head.weight is not E's V x d\"\n"
        "assert tuple(torch.nn.Linear(V, D, bias=False, device=\"meta\").weight.shape) == (D, V), "
        "\"the input side's Linear is not d x V\"\n",
        [&lesson] { return lesson.weight.rows == lesson.request.vocab_size && lesson.weight.cols == lesson.request.dim; }};
    claim.paragraph = true;
    return claim;
}

SheetClaim parameters_claim(const TiedLesson& lesson) {
    const std::uint64_t v = lesson.request.vocab_size, d = lesson.request.dim;
    return {fmt::format("Parameters here: tok_emb {} x {} = {} plus out_head {} = {} untied; tied, one table: {}.",
                        group_thousands(v), group_thousands(d), group_thousands(v * d), group_thousands(v * d),
                        group_thousands(lesson.here.untied), group_thousands(lesson.here.tied)),
            "parameters", parameters_json(lesson.here),
            "untied_head = torch.nn.Linear(D, V, bias=False, device=\"meta\")    # shapes only, no numbers\n" +
                fmt::format("assert tok_emb.weight.numel() + untied_head.weight.numel() == {}, \"untied count\"\n",
                            lesson.here.untied) +
                fmt::format("assert sum(p.numel() for p in torch.nn.ModuleList([tok_emb, out_head]).parameters()) == {}, "
                            "\"tied count\"\n",
                            lesson.here.tied),
            [&lesson] {
                const std::uint64_t table = lesson.weight.values.size();
                return lesson.here.untied == 2 * table && lesson.here.tied == table;
            }};
}

SheetClaim gpt2_claim(const TiedLesson& lesson) {
    const Gpt2Config gpt2;
    return {fmt::format("GPT-2 small (the book's ch. 4, V = {}, C = {}, d = {}, L = {}): 2Vd + Cd + L(12d^2 + 10d) + "
                        "2d = {} ({}) untied; tying removes Vd = {}, leaving {} ({}).",
                        group_thousands(gpt2.vocab), group_thousands(gpt2.context), gpt2.dim, gpt2.layers,
                        group_thousands(lesson.gpt2.untied), millions(lesson.gpt2.untied),
                        group_thousands(gpt2.vocab * gpt2.dim), group_thousands(lesson.gpt2.tied),
                        millions(lesson.gpt2.tied)),
            "gpt2_parameters", parameters_json(lesson.gpt2), "",
            // The book's GPT_CONFIG_124M counts 124,412,160 tied, which the formula must give.
            [&lesson] {
                const std::uint64_t v = 50257, c = 1024, d = 768, l = 12;
                const std::uint64_t untied = 2 * v * d + c * d + l * (12 * d * d + 10 * d) + 2 * d;
                return lesson.gpt2.untied == untied && lesson.gpt2.tied == untied - v * d && lesson.gpt2.tied == 124412160;
            }};
}

// The output side's gradient of E is dlogits.T @ H: each row a sum of H's rows. With H all zeros
// (a --hidden file of zeros, or E[ids] of zero rows) it is 0 in every row.
SheetClaim gradient_claim(const TiedLesson& lesson) {
    const std::uint64_t v = lesson.request.vocab_size;
    const bool h_zero = std::all_of(lesson.hidden.values.begin(), lesson.hidden.values.end(),
                                    [](float value) { return value == 0.0f; });
    const std::string every_row = v == 1 ? std::string("its only row") : v == 2 ? std::string("both rows")
                                                                         : "all " + group_thousands(v) + " rows";
    std::string sentence;
    if (h_zero) {
        sentence = fmt::format("Tied, every logit uses a row of E, so the output side's backward reaches {}; but its "
                               "gradient of E is dlogits.T @ H, and H is all zeros here, so it is 0 in every row and "
                               "moves none.",
                               every_row);
    } else {
        // rows_used is the number of distinct ids; the claim "only N of V" needs N < V.
        const std::string lookup_rows =
            lesson.rows_used == v ? fmt::format("; here the ids use every row, so the lookup alone would move {} too",
                                                v == 1 ? "it" : v == 2 ? "both" : "all " + group_thousands(v))
                                  : fmt::format(", where the lookup alone moves only {} the ids use",
                                                lesson.rows_used == 1 ? std::string("the one row")
                                                                      : "the " + count_of(lesson.rows_used, "row", "rows"));
        sentence = fmt::format("Tied, E also gets a dense gradient: every logit uses a row of E, so the output side's "
                               "backward moves {}{}.",
                               every_row, lookup_rows);
    }
    const std::uint64_t output_rows = h_zero ? 0 : v;
    return {sentence, "rows_moved", fmt::format("{{\"lookup\": {}, \"output_side\": {}}}", lesson.rows_used, output_rows),
            "tok_emb(idx).sum().backward()    # the input side's backward touches the rows the ids use\n"
            "rows_used = int((tok_emb.weight.grad != 0).any(dim=1).sum())\n" +
                fmt::format("assert rows_used == {}, \"embdemo counts {} rows the input side updates\"\n",
                            lesson.rows_used, lesson.rows_used) +
                fmt::format("assert bool((H == 0).all()) == {}, \"embdemo finds H {}all zeros\"\n",
                            h_zero ? "True" : "False", h_zero ? "" : "not "),
            [&lesson, h_zero] {
                const std::set<std::uint64_t> distinct(lesson.request.ids.values.begin(), lesson.request.ids.values.end());
                const bool zero = std::none_of(lesson.hidden.values.begin(), lesson.hidden.values.end(),
                                               [](float value) { return value != 0.0f; });
                return lesson.rows_used == distinct.size() && zero == h_zero;
            }};
}

// The script's own checks: the logits by a checksum a row when they are too many to list, and
// each row's top K in embdemo's order.
std::string script_checks(const TiedLesson& lesson) {
    std::string out;
    if (!logits_listed(lesson.logits.rows, lesson.request.vocab_size)) {
        std::vector<std::string> sums;
        for (const std::int64_t sum : lesson.row_bit_sums) sums.push_back(std::to_string(sum));
        out += "\n# Too many logits to list: per row, the sum of their bit patterns weighted by column.\n"
               "flat = logits.reshape(-1, V)\n"
               "columns = torch.arange(1, V + 1)\n"
               "checksums = (flat.view(torch.int32).long() * columns).sum(dim=1)\n" +
               wrapped_list("expected_checksums = [", sums, "]\n") +
               "assert checksums.tolist() == expected_checksums, \"PyTorch's logits differ from embdemo's\"\n";
    }
    std::vector<std::string> rows;
    for (std::size_t i = 0; i < lesson.top.size(); ++i) {
        std::vector<std::string> ids;
        for (const TopLogit& entry : lesson.top[i]) ids.push_back(std::to_string(entry.id));
        rows.push_back(fmt::format("[{}]", fmt::join(ids, ", ")));
    }
    out += '\n' + wrapped_list("expected_top_ids = [", rows, "]\n");
    out += "assert top_ids.reshape(-1, K).tolist() == expected_top_ids, \"PyTorch ranks other ids on top\"\n";
    out += "assert torch.allclose(torch.topk(logits, K).values, top_logits, rtol=0, atol=0, equal_nan=True), "
           "\"torch.topk finds other values\"\n";
    return out;
}

}  // namespace

std::vector<SheetTable> tied_tables(const TiedRequest& request, const TiedLesson* lesson) {
    const IdBatch& ids = request.ids;
    const std::size_t v = request.vocab_size, d = request.dim, n = ids.values.size();
    const auto per_id = [&](std::size_t cols) { return rows_shape(ids.batch, ids.seq, ids.batched, cols); };
    const auto of = [lesson](const Matrix* held) { return lesson ? held : nullptr; };
    SheetTable weight{"weight", "E = tok_emb.weight = out_head.weight", TableRole::weight, {v, d},
                      of(lesson ? &lesson->weight : nullptr)};
    weight.selected = used_rows(ids.values);
    weight.selected_what = "the ids' rows";
    SheetTable hidden{"hidden", "H", TableRole::per_id, per_id(d), of(lesson ? &lesson->hidden : nullptr)};
    hidden.python = "H";
    hidden.what = "H";
    SheetTable logits{"logits", "F.linear(H, E) = H @ E.T", TableRole::per_id, per_id(v),
                      of(lesson ? &lesson->logits.values : nullptr)};
    const std::vector<std::size_t> held = held_logit_rows(n, v);
    if (held.size() < n) logits.held_rows = held;
    if (logits_listed(n, v)) {
        logits.python = "logits";
        logits.what = "logits";
    }
    SheetTable top{"top_logits", "torch.topk(logits, K).values", TableRole::per_id, per_id(request.top),
                   of(lesson ? &lesson->top_logits : nullptr), false};
    top.python = "top_logits";
    top.what = "top-K tensor";
    return {weight, hidden, logits, top};
}

LessonSheet tied_sheet(const TiedLesson& lesson, const std::string& hidden_file) {
    const TiedRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::size_t n = ids.values.size();
    const std::string hidden_text = request.hidden_given ? "H from the --hidden file" : "H = E[ids]";
    LessonSheet sheet;
    sheet.title = "Tied output layer: logits = H @ E.T, the input table reused as out_head.weight";
    sheet.schema = k_tied_json_schema;
    sheet.ids = &ids;
    sheet.parameters = id_table_parameters(ids, request.vocab_size, request.vocab_inferred);
    const std::vector<SheetParameter> own = {
        {"dim", group_thousands(request.dim), "", std::to_string(request.dim)},
        {"hidden", hidden_text,
         request.hidden_given ? "" : "a stand-in for the final hidden state, which a model's blocks would compute", ""},
        {"seed", std::to_string(request.seed),
         seed_note(request.seed, fmt::format("torch.manual_seed, then E = nn.Embedding({}, {})", request.vocab_size,
                                             request.dim)),
         std::to_string(request.seed)},
        {"hidden_source", "", "", json_string(request.hidden_given ? "file" : "lookup")},
        {"top", std::to_string(request.top), "the K largest logits per position", ""},
        {"top_k", "", "", std::to_string(request.top)},
    };
    sheet.parameters.insert(sheet.parameters.end(), own.begin(), own.end());
    sheet.tables = tied_tables(request, &lesson);
    const std::string v = group_thousands(request.vocab_size), d = group_thousands(request.dim);
    const std::string rows = group_thousands(n);
    SheetBlock weight = SheetBlock::rows_of(
        fmt::format("E = tok_emb.weight = out_head.weight   {} x {}   > marks the ids' rows", v, d), "weight");
    SheetBlock hidden = SheetBlock::rows_of(
        fmt::format("H = {}   {} x {}", request.hidden_given ? "from the --hidden file" : "E[ids]", rows, d), "hidden");
    hidden.group = 1;  // E and H are separate tensors, each spelled as PyTorch prints it
    SheetBlock logits = SheetBlock::rows_of(
        fmt::format("logits = H @ E.T = F.linear(H, E)   {} x {}   column k is token id k", rows, v), "logits");
    logits.group = 2;
    const std::size_t widest = std::max({request.dim, request.vocab_size, request.top});
    logits.after = [&lesson, shown = shown_rows(n, widest)](const NumberFormat& format) {
        return top_lines(lesson, shown, format);
    };
    sheet.blocks = {weight, hidden, logits};
    if (!request.hidden_given) sheet.claims.push_back(own_rank_claim(lesson));
    sheet.claims.push_back(layout_claim(lesson));
    sheet.claims.push_back(parameters_claim(lesson));
    sheet.claims.push_back(gpt2_claim(lesson));
    sheet.claims.push_back(gradient_claim(lesson));
    sheet.fields = {{"top", top_json(lesson)}};
    sheet.script_what = "Weight tying: the output layer's weight is the embedding table E itself.";
    sheet.script_run = fmt::format("{} ids, V = {}, d = {}, top {}", n, request.vocab_size, request.dim, request.top);
    sheet.script_imports = "import numpy\n";
    sheet.torch_lines = {
        fmt::format("V, D, K = {}, {}, {}", request.vocab_size, request.dim, request.top),
        fmt::format("torch.manual_seed({})", request.seed),
        "tok_emb = torch.nn.Embedding(V, D)",
        "out_head = torch.nn.Linear(D, V, bias=False)    # its weight is V x d (out x in): E's own shape",
        "out_head.weight = tok_emb.weight    # tied",
        request.hidden_given
            ? fmt::format("H = torch.tensor({}, dtype=torch.float32).reshape(*idx.shape, D)    # the final hidden states",
                          load_matrix_python(hidden_file))
            : "H = tok_emb(idx).detach()    # the hidden states: here E[idx] itself",
        "logits = out_head(H.reshape(-1, D)).detach().reshape(*idx.shape, V)    # H @ E.T, V logits per id",
        "print(\"logits =\", logits)",
        "# embdemo's order: larger first, NaN above everything, equal logits by the smaller id.",
        "order = torch.sort(logits, dim=-1, descending=True, stable=True).indices",
        "top_ids, top_logits = order[..., :K], logits.gather(-1, order[..., :K])",
        "print(\"the top\", K, \"ids of each row:\", top_ids)",
    };
    sheet.script_after = script_checks(lesson);
    return sheet;
}

}  // namespace embdemo
