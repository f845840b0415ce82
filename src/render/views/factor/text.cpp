#include "render/views/factor/text.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

std::string header(const FactorLesson& lesson) {
    const FactorRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::string shape = describe_id_count(ids.shape(), ids.values.size());
    return render_header_lines(
        "Factorised embedding (ALBERT): E1[ids] @ E2 instead of one V x d table",
        {{"ids", format_id_batch(ids), shape},
         {"vocab", group_thousands(request.vocab_size), vocab_note(table_vocab_source(request.vocab_inferred, request.ids, request.vocab_size))},
         {"dim", group_thousands(request.dim), "d, the width the model works in"},
         {"rank", group_thousands(request.rank), "r, the width of the table"},
         {"seed", std::to_string(request.seed),
          seed_note(request.seed, fmt::format("torch.manual_seed, then e1 = nn.Embedding({}, {}), then proj = "
                                              "nn.Linear({}, {}, bias=False)",
                                              request.vocab_size, request.rank, request.rank, request.dim))}}, ids);
}

// Row pairs: the first route on top, the one-hot route under it.
std::vector<BlockRow> pair_rows(const FactorLesson& lesson, const std::vector<std::size_t>& shown,
                                const char* first, const char* second) {
    const IdBatch& ids = lesson.request.ids;
    std::size_t width = 0;
    for (const std::size_t i : shown) {
        if (i != k_gap) width = std::max(width, fmt::format("{}  id {}", flat_position_label(ids, i), ids.values[i]).size());
    }
    std::vector<BlockRow> rows;
    for (const std::size_t i : shown) {
        if (i == k_gap) {
            rows.push_back({k_gap, "", "", false});
            continue;
        }
        const std::string label = pad_right(fmt::format("{}  id {}", flat_position_label(ids, i), ids.values[i]), width);
        rows.push_back({i, label + "  " + first, "", false});
        rows.push_back({i, std::string(width, ' ') + "  " + second, "", false});
    }
    return rows;
}

// Each pair's first row from `a`, the second from `b`.
std::string render_pairs(const Matrix& a, const Matrix& b, const std::vector<BlockRow>& rows, const Screen& screen,
                         Palette palette) {
    std::string out;
    bool second = false;
    for (const BlockRow& row : rows) {
        out += render_block(row.row != k_gap && second ? b : a, {row}, widest_label(rows), screen, palette);
        second = row.row != k_gap && !second;
    }
    return out;
}

// V*r + r*d < V*d exactly when r < V*d/(V+d): the largest rank that saves parameters is below it.
double saving_bound(const FactorRequest& request) {
    return static_cast<double>(request.vocab_size) * static_cast<double>(request.dim) /
           static_cast<double>(request.vocab_size + request.dim);
}

std::string parameter_lines(const FactorLesson& lesson) {
    const FactorRequest& request = lesson.request;
    const FactorParameters& here = lesson.here;
    const std::string verdict =
        here.factored < here.full ? fmt::format("{:.1f}x fewer", static_cast<double>(here.full) / static_cast<double>(here.factored))
        : here.factored == here.full ? "no saving"
        : saving_bound(request) > 1.0
            ? fmt::format("more than one table: at these sizes r must be below V*d/(V+d) = {:.2f} to save",
                          saving_bound(request))
            : fmt::format("more than one table: at these sizes no rank saves, since V*r + r*d >= V*d for every "
                          "r >= 1 (V*d/(V+d) = {:.2f})",
                          saving_bound(request));
    std::string out = wrap_words(fmt::format("Parameters here: one table V*d = {} x {} = {}; factored V*r + r*d = {} + {} = "
                                             "{} ({}).",
                                             group_thousands(request.vocab_size), group_thousands(request.dim),
                                             group_thousands(here.full), group_thousands(request.vocab_size * request.rank),
                                             group_thousands(request.rank * request.dim), group_thousands(here.factored),
                                             verdict),
                                 "", "");
    out += wrap_words(fmt::format("ALBERT (V = {}, d = {}, r = {}): {} ({}) vs {} ({}), {:.1f}x fewer.",
                                  group_thousands(k_albert_vocab), k_albert_dim, k_albert_rank,
                                  group_thousands(lesson.albert.full), millions(lesson.albert.full),
                                  group_thousands(lesson.albert.factored), millions(lesson.albert.factored),
                                  static_cast<double>(lesson.albert.full) / static_cast<double>(lesson.albert.factored)),
                      "", "");
    return out;
}

}  // namespace

std::string render_factor_text(const FactorLesson& lesson, const TextOptions& options) {
    const FactorRequest& request = lesson.request;
    const IdBatch& ids = request.ids;
    const std::set<std::size_t> used(ids.values.begin(), ids.values.end());
    std::vector<BlockRow> e1_rows;
    const std::vector<std::size_t> e1_shown = shown_rows(lesson.e1.rows, lesson.e1.cols, {used.begin(), used.end()});
    for (const std::size_t k : e1_shown) e1_rows.push_back({k, k == k_gap ? "" : std::to_string(k), "", used.count(k) > 0});
    std::vector<BlockRow> e2_rows;
    const std::vector<std::size_t> e2_shown = shown_rows(lesson.e2.rows, lesson.e2.cols);
    for (const std::size_t k : e2_shown) e2_rows.push_back({k, k == k_gap ? "" : std::to_string(k), "", false});
    const std::vector<std::size_t> shown_n = shown_rows(lesson.output.rows, std::max(request.rank, request.dim));
    const std::vector<BlockRow> narrow = pair_rows(lesson, shown_n, "E1[ids]", "one_hot @ E1");
    const std::vector<BlockRow> wide = pair_rows(lesson, shown_n, "E1[ids] @ E2", "(one_hot @ E1) @ E2");
    const Screen narrow_screen = choose_screen({{&lesson.e1, e1_shown}, {&lesson.lookup_e1, shown_n}}, request.rank,
                                               options.precision, block_cells_budget(widest_label(narrow), 0));
    const Screen wide_screen = choose_screen({{&lesson.e2, e2_shown}, {&lesson.output, shown_n}}, request.dim,
                                             options.precision, block_cells_budget(widest_label(wide), 0));

    std::string out = header(lesson) + '\n';
    out += wrap_words(fmt::format("E1 = e1.weight   {} x {}   > marks the rows the ids use", group_thousands(request.vocab_size),
                       group_thousands(request.rank)), "", "  ");
    out += render_block(lesson.e1, e1_rows, widest_label(e1_rows), narrow_screen, options.palette);
    out += '\n' + wrap_words(fmt::format("E2 = proj.weight.T   {} x {}   (nn.Linear stores out x in = {} x {})",
                       group_thousands(request.rank), group_thousands(request.dim), group_thousands(request.dim),
                       group_thousands(request.rank)), "", "  ");
    out += render_block(lesson.e2, e2_rows, widest_label(e2_rows), wide_screen, options.palette);
    out += '\n' + wrap_words(fmt::format("The lookup in E1, and one_hot(ids) @ E1 under it   {} x {}", group_thousands(lesson.output.rows),
                       group_thousands(request.rank)), "", "  ");
    out += render_pairs(lesson.lookup_e1, lesson.onehot_e1, narrow, narrow_screen, options.palette);
    out += '\n' + wrap_words(fmt::format("Then @ E2: proj(e1(ids)), and the one-hot route under it   {} x {}",
                       group_thousands(lesson.output.rows), group_thousands(request.dim)), "", "  ");
    out += render_pairs(lesson.output, lesson.onehot_output, wide, wide_screen, options.palette);
    // rank(E1 @ E2) <= min(V, r, d): E1 has V rows and r columns, E2 has r rows and d columns.
    const std::uint64_t rank_bound = std::min({request.vocab_size, request.rank, request.dim});
    out += '\n' + wrap_words(fmt::format("The layer is an embedding with table E1 @ E2 ({} x {}, rank at most {}{}), "
                                         "which ALBERT never stores.",
                                         group_thousands(request.vocab_size), group_thousands(request.dim),
                                         group_thousands(rank_bound),
                                         rank_bound < request.rank ? fmt::format(" = min(V, d, r), below r = {}", request.rank)
                                                                   : std::string()),
                             "", "");
    out += parameter_lines(lesson);
    const bool identical = lesson.first_check.identical && lesson.output_check.identical;
    const std::size_t total = lesson.lookup_e1.values.size() + lesson.output.values.size();
    return out + render_verdict(identical,
                                identical ? fmt::format("both routes agree bit for bit ({})", count_of(total, "value", "values"))
                                          : differing_values(lesson.first_check.differing +
                                                                 lesson.output_check.differing,
                                                             total) + " between the routes",
                                options.palette);
}

}  // namespace embdemo
