// factor's sheet: ALBERT's two factors, the two routes through them, and what the factorisation
// is about, V*d parameters against V*r + r*d, stated once for every format.
#include <algorithm>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/kit/parameters.hpp"
#include "render/views/factor/view.hpp"

namespace embdemo {
namespace {

// V*r + r*d < V*d exactly when r < V*d/(V+d): the largest rank that saves parameters is below it.
double saving_bound(const FactorRequest& request) {
    return static_cast<double>(request.vocab_size) * static_cast<double>(request.dim) /
           static_cast<double>(request.vocab_size + request.dim);
}

std::string parameters_json(const FactorParameters& counts) {
    return fmt::format("{{\"full\": {}, \"factored\": {}}}", counts.full, counts.factored);
}

std::string saving_words(const FactorLesson& lesson) {
    const FactorParameters& here = lesson.here;
    if (here.factored < here.full) {
        return fmt::format("{:.1f}x fewer", static_cast<double>(here.full) / static_cast<double>(here.factored));
    }
    if (here.factored == here.full) return "no saving";
    const double bound = saving_bound(lesson.request);
    return bound > 1.0 ? fmt::format("more than one table: at these sizes r must be below V*d/(V+d) = {:.2f} to save", bound)
                       : fmt::format("more than one table: at these sizes no rank saves, since V*r + r*d >= V*d for "
                                     "every r >= 1 (V*d/(V+d) = {:.2f})",
                                     bound);
}

std::vector<SheetClaim> factor_claims(const FactorLesson& lesson) {
    const FactorRequest& request = lesson.request;
    const std::uint64_t v = request.vocab_size, d = request.dim, r = request.rank;
    // rank(E1 @ E2) <= min(V, r, d): E1 has V rows and r columns, E2 has r rows and d columns.
    const std::uint64_t rank_bound = std::min({v, r, d});
    SheetClaim table{
        fmt::format("The layer is an embedding with table E1 @ E2 ({} x {}, rank at most {}{}), which ALBERT never "
                    "stores.",
                    group_thousands(v), group_thousands(d), group_thousands(rank_bound),
                    rank_bound < r ? fmt::format(" = min(V, d, r), below r = {}", r) : std::string()),
        "table",
        fmt::format("{{\"rows\": {}, \"cols\": {}, \"rank_at_most\": {}}}", v, d, rank_bound),
        // Random factors reach the bound, so the script asserts the rank itself: a bound that was
        // too high would then fail too.
        fmt::format("table = e1.weight.detach() @ proj.weight.detach().T    # made here only to count its rank\n"
                    "assert table.shape == (V, D), \"E1 @ E2 is not V x d\"\n"
                    "assert torch.linalg.matrix_rank(table) == {}, \"E1 @ E2 has another rank than embdemo says\"\n",
                    rank_bound),
        [&lesson, rank_bound] {
            return rank_bound == std::min({lesson.e1.rows, lesson.e1.cols, lesson.e2.cols}) &&
                   lesson.e1.cols == lesson.e2.rows;
        }};
    const FactorParameters& here = lesson.here;
    SheetClaim counts{
        fmt::format("Parameters here: one table V*d = {} x {} = {}; factored V*r + r*d = {} + {} = {} ({}).",
                    group_thousands(v), group_thousands(d), group_thousands(here.full), group_thousands(v * r),
                    group_thousands(r * d), group_thousands(here.factored), saving_words(lesson)),
        "parameters", parameters_json(here),
        fmt::format("assert parameters(V, R, D) == ({}, {}), \"embdemo counts other parameters here\"\n", here.full,
                    here.factored),
        [&lesson] {
            const FactorParameters& counted = lesson.here;
            const bool fewer = saving_words(lesson).find("fewer") != std::string::npos;
            return counted.full == lesson.e1.rows * lesson.e2.cols &&
                   counted.factored == lesson.e1.values.size() + lesson.e2.values.size() &&
                   fewer == (counted.factored < counted.full);
        }};
    const FactorParameters& albert = lesson.albert;
    SheetClaim paper{
        fmt::format("ALBERT (V = {}, d = {}, r = {}): {} ({}) vs {} ({}), {:.1f}x fewer.", group_thousands(k_albert_vocab),
                    k_albert_dim, k_albert_rank, group_thousands(albert.full), millions(albert.full),
                    group_thousands(albert.factored), millions(albert.factored),
                    static_cast<double>(albert.full) / static_cast<double>(albert.factored)),
        "albert_parameters", parameters_json(albert),
        fmt::format("assert parameters({}, {}, {}) == ({}, {}), \"embdemo counts other parameters for ALBERT\"\n",
                    k_albert_vocab, k_albert_rank, k_albert_dim, albert.full, albert.factored),
        [&lesson] {
            return lesson.albert.full == k_albert_vocab * k_albert_dim &&
                   lesson.albert.factored == k_albert_vocab * k_albert_rank + k_albert_rank * k_albert_dim;
        }};
    table.paragraph = true;
    return {table, counts, paper};
}

}  // namespace

std::vector<SheetTable> factor_tables(const FactorRequest& request, const FactorLesson* lesson) {
    const IdBatch& ids = request.ids;
    const std::size_t v = request.vocab_size, d = request.dim, r = request.rank;
    const auto per_id = [&](std::size_t cols) { return rows_shape(ids.batch, ids.seq, ids.batched, cols); };
    const auto of = [lesson](const Matrix FactorLesson::*member) { return lesson ? &(lesson->*member) : nullptr; };
    SheetTable e1{"e1", "e1.weight", TableRole::weight, {v, r}, of(&FactorLesson::e1)};
    e1.selected = used_rows(ids.values);
    SheetTable e2{"e2", "proj.weight.T", TableRole::plain, {r, d}, of(&FactorLesson::e2)};
    SheetTable first{"lookup_e1", "e1(ids)", TableRole::per_id, per_id(r), of(&FactorLesson::lookup_e1)};
    first.python = "first";
    first.what = "E1[idx]";
    SheetTable first_onehot{"onehot_e1", "one_hot(ids) @ E1", TableRole::per_id, per_id(r), of(&FactorLesson::onehot_e1), false};
    first_onehot.python = "first_onehot";
    first_onehot.what = "one_hot(idx) @ E1";
    SheetTable output{"output", "proj(e1(ids)) = E1[ids] @ E2", TableRole::per_id, per_id(d), of(&FactorLesson::output)};
    output.python = "output";
    output.what = "proj(e1(idx))";
    SheetTable onehot{"onehot_output", "(one_hot(ids) @ E1) @ E2", TableRole::per_id, per_id(d), of(&FactorLesson::onehot_output)};
    onehot.python = "onehot_output";
    onehot.what = "proj(one_hot(idx) @ E1)";
    return {e1, e2, first, first_onehot, output, onehot};
}

LessonSheet factor_sheet(const FactorLesson& lesson) {
    const FactorRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::size_t n = ids.values.size();
    LessonSheet sheet;
    sheet.title = "Factorised embedding (ALBERT): E1[ids] @ E2 instead of one V x d table";
    sheet.schema = k_factor_json_schema;
    sheet.ids = &ids;
    sheet.parameters = id_table_parameters(ids, request.vocab_size, request.vocab_inferred);
    const std::vector<SheetParameter> own = {
        {"dim", group_thousands(request.dim), "d, the width the model works in", std::to_string(request.dim)},
        {"rank", group_thousands(request.rank), "r, the width of the table", std::to_string(request.rank)},
        {"seed", std::to_string(request.seed),
         seed_note(request.seed, fmt::format("torch.manual_seed, then e1 = nn.Embedding({}, {}), then proj = "
                                             "nn.Linear({}, {}, bias=False)",
                                             request.vocab_size, request.rank, request.rank, request.dim)),
         std::to_string(request.seed)},
    };
    sheet.parameters.insert(sheet.parameters.end(), own.begin(), own.end());
    sheet.tables = factor_tables(request, &lesson);
    const std::string v = group_thousands(request.vocab_size), d = group_thousands(request.dim);
    const std::string r = group_thousands(request.rank), rows = group_thousands(n);
    sheet.blocks = {
        SheetBlock::rows_of(fmt::format("E1 = e1.weight   {} x {}   > marks the rows the ids use", v, r), "e1"),
        SheetBlock::rows_of(fmt::format("E2 = proj.weight.T   {} x {}   (nn.Linear stores out x in = {} x {})", r, d, d, r),
                            "e2"),
        SheetBlock::pair(fmt::format("The lookup in E1, and one_hot(ids) @ E1 under it   {} x {}", rows, r), "lookup_e1",
                         "onehot_e1", "E1[ids]", "one_hot @ E1"),
        SheetBlock::pair(fmt::format("Then @ E2: proj(e1(ids)), and the one-hot route under it   {} x {}", rows, d),
                         "output", "onehot_output", "E1[ids] @ E2", "(one_hot @ E1) @ E2"),
    };
    sheet.checks = {
        {"E1[ids] and one_hot(ids) @ E1", "lookup_e1", "onehot_e1", lesson.first_check, lesson.lookup_e1.values.size()},
        {"E1[ids] @ E2 and (one_hot(ids) @ E1) @ E2", "output", "onehot_output", lesson.output_check,
         lesson.output.values.size()},
    };
    sheet.claims = factor_claims(lesson);
    sheet.agree = "both routes agree";
    sheet.disagree = "between the routes";
    sheet.script_what = "A factorised embedding (ALBERT): a V x r table, then a linear map from r to d.";
    sheet.script_run = fmt::format("{} ids, V = {}, r = {}, d = {}", n, request.vocab_size, request.rank, request.dim);
    sheet.script_imports = "import numpy\n";
    sheet.torch_lines = {
        fmt::format("V, R, D = {}, {}, {}", request.vocab_size, request.rank, request.dim),
        fmt::format("torch.manual_seed({})", request.seed),
        "e1 = torch.nn.Embedding(V, R)    # E1, V x r",
        "proj = torch.nn.Linear(R, D, bias=False)    # weight d x r, drawn after E1: E2 = proj.weight.T",
        "first = e1(idx).detach()    # E1[idx]",
        "first_onehot = torch.nn.functional.one_hot(idx, V).float() @ e1.weight.detach()",
        "output = proj(first).detach()    # E1[idx] @ E2",
        "onehot_output = proj(first_onehot).detach()    # (one_hot(idx) @ E1) @ E2",
        "print(\"proj(e1(idx)) =\", output)",
        "print(\"proj(one_hot(idx) @ E1) =\", onehot_output)",
        "",
        "",
        "def parameters(vocab, rank, dim):",
        "    \"\"\"V d for one table against V r + r d for the two factors, counted by PyTorch.\"\"\"",
        "    full = torch.nn.Embedding(vocab, dim, device=\"meta\").weight.numel()",
        "    factored = sum(p.numel() for p in (torch.nn.Embedding(vocab, rank, device=\"meta\").weight,",
        "                                        torch.nn.Linear(rank, dim, bias=False, device=\"meta\").weight))",
        "    return full, factored",
        "",
    };
    return sheet;
}

}  // namespace embdemo
