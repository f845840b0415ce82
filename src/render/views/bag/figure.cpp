// bag_figure: nn.EmbeddingBag drawn two ways. Each bag points at its rows of E and at the row
// they reduce to; then, for sum and mean, the same rows as the product M @ E (M's columns meet
// E's shown rows), or, for max, the rows each bag picks with the winning cell of every column
// framed, since a maximum is no weighted sum of rows.
#include <algorithm>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/figure_parts.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "render/views/bag/view.hpp"

namespace embdemo {
namespace {

// A long bag's rows beyond these are left to its "..." row in the picture of max.
constexpr std::size_t k_max_picked_rows = 6;

// A key per shown bag, in order; the rows of E take the key of the first shown bag using them.
struct BagKeys {
    std::vector<std::string> names;
    std::vector<int> of_bag;   // per bag, k_no_key when not shown
    std::vector<int> of_row;   // per shown row of E
};

BagKeys bag_keys(const BagLesson& lesson, const std::vector<std::size_t>& bag_rows, const std::vector<std::size_t>& e_rows) {
    const Bags& bags = lesson.request.bags;
    BagKeys keys;
    keys.of_bag.assign(bags.count(), k_no_key);
    keys.of_row.assign(e_rows.size(), k_no_key);
    for (const std::size_t b : bag_rows) {
        if (b == k_gap) continue;
        keys.of_bag[b] = static_cast<int>(keys.names.size());
        keys.names.push_back(fmt::format("bag {}: {}", b, format_ids(bag_ids(bags, b))));
        for (const std::uint64_t id : bag_ids(bags, b)) {
            const auto at = std::find(e_rows.begin(), e_rows.end(), id);
            if (at != e_rows.end() && keys.of_row[at - e_rows.begin()] == k_no_key) {
                keys.of_row[at - e_rows.begin()] = keys.of_bag[b];
            }
        }
    }
    return keys;
}

// Bags as one column of their ids, pointing at their rows of E, which point at the output.
FigurePanel reduce_panel(const BagLesson& lesson, const std::vector<std::size_t>& bag_rows, const FigureMatrix& e,
                         const std::vector<std::size_t>& e_rows, const FigureMatrix& output, const BagKeys& keys) {
    const Bags& bags = lesson.request.bags;
    FigureMatrix column = text_matrix(
        bag_rows, {0}, [&](std::size_t b, std::size_t) { return format_ids(bag_ids(bags, b)); },
        [](std::size_t, std::size_t) { return false; },
        [&](std::size_t b, FigureRow& row) {
            row.label = fmt::format("bag {}", b);
            row.key = keys.of_bag[b];
        });
    column.name = "bags";
    column.shape = fmt::format("B = {}", group_thousands(bags.count()));
    column.col_labels = {""};
    FigurePanel panel;
    panel.title = fmt::format("bag(input, offsets{}), mode='{}': each bag reduces its rows of E to one row{}",
                              lesson.request.per_sample_weights.empty() ? "" : ", per_sample_weights",
                              bag_mode_name(lesson.request.mode), lesson.padding_row ? ", padding_idx skipped" : "");
    panel.items = {column, e, output};
    panel.ops = {"", ""};
    panel.arrows.resize(2);
    for (std::size_t r = 0; r < bag_rows.size(); ++r) {
        if (bag_rows[r] == k_gap) continue;
        std::vector<std::uint64_t> ids = bag_ids(bags, bag_rows[r]);
        ids.erase(std::remove(ids.begin(), ids.end(), lesson.padding_row.value_or(lesson.weight.rows)), ids.end());
        const std::vector<std::size_t> distinct = used_rows(ids);
        for (const std::size_t k : distinct) {
            const std::size_t at = figure_row_of(e_rows, k);
            panel.arrows[0].push_back({r, at, keys.of_bag[bag_rows[r]]});
            panel.arrows[1].push_back({at, r, keys.of_bag[bag_rows[r]]});
        }
    }
    return panel;
}

// Max: every shown bag's rows of E (up to k_max_picked_rows each), the cell that won each column
// framed, each row pointing at its bag's output.
FigurePanel max_panel(const BagLesson& lesson, const std::vector<std::size_t>& bag_rows, const Screen& screen,
                      const FigureMatrix& output, const BagKeys& keys) {
    const Bags& bags = lesson.request.bags;
    std::vector<std::size_t> picked;  // flat positions in bags.ids, k_gap for a bag's hidden rows
    std::vector<std::size_t> bag_of;  // per entry of picked
    for (const std::size_t b : bag_rows) {
        if (b == k_gap) continue;
        std::size_t kept = 0;
        for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
            if (lesson.padding_row == bags.ids[i]) continue;  // max skips it, as every mode does
            if (++kept > k_max_picked_rows) {
                picked.push_back(k_gap);
                bag_of.push_back(b);
                break;
            }
            picked.push_back(i);
            bag_of.push_back(b);
        }
    }
    const auto bag_at = [&](std::size_t i) {
        return static_cast<std::size_t>(std::upper_bound(bags.offsets.begin(), bags.offsets.end(), i) - bags.offsets.begin() - 1);
    };
    FigureMatrix rows = value_matrix(
        picked, screen.cols, [&](std::size_t i, std::size_t c) { return lesson.weight.at(bags.ids[i], c); },
        screen.format_of(lesson.weight), [&](std::size_t i, FigureRow& row) {
            row.label = fmt::format("bag {}: E[{}]", bag_at(i), bags.ids[i]);
            row.key = keys.of_bag[bag_at(i)];
            row.table_row = static_cast<long long>(bags.ids[i]);
        });
    // The winner of a column is an id; a repeated id wins at its first position, as torch keeps it.
    for (std::size_t p = 0; p < picked.size(); ++p) {
        if (picked[p] == k_gap) continue;
        const std::size_t b = bag_of[p];
        const std::uint64_t id = bags.ids[picked[p]];
        const auto first = std::find(bags.ids.begin() + static_cast<std::ptrdiff_t>(bags.offsets[b]), bags.ids.end(), id);
        if (first != bags.ids.begin() + static_cast<std::ptrdiff_t>(picked[p])) continue;
        for (std::size_t c = 0; c < screen.cols.size(); ++c) {
            rows.rows[p].marked[c] = screen.cols[c] != k_gap && lesson.winners.at(b, screen.cols[c]) == static_cast<float>(id);
        }
    }
    rows.name = "the rows each bag picks";
    rows.shape = fmt::format("{} from E ({} x {})", count_of(bags.ids.size(), "id", "ids"),
                             group_thousands(lesson.weight.rows), group_thousands(lesson.weight.cols));
    FigurePanel panel;
    panel.title = "max has no matrix form: each column takes its largest value among the bag's rows (framed)";
    panel.items = {rows, output};
    panel.ops = {""};
    panel.arrows.resize(1);
    for (std::size_t p = 0; p < picked.size(); ++p) {
        if (picked[p] != k_gap) panel.arrows[0].push_back({p, figure_row_of(bag_rows, bag_of[p]), keys.of_bag[bag_of[p]]});
    }
    return panel;
}

// What only the figure shows: max's frames (the sheet's comparison says where sum and mean's
// differing cells are framed). The sheet's sentences come first.
std::vector<std::string> frames_caption(const BagLesson& lesson) {
    if (lesson.request.mode == BagMode::max) return {"The framed cell of each column is its winner."};
    return {};
}

}  // namespace

Figure bag_figure(const BagLesson& lesson, int precision) {
    const BagRequest& request = lesson.request;
    const Bags& bags = request.bags;
    const bool is_max = request.mode == BagMode::max;
    const std::vector<std::size_t> e_rows = shown_rows(lesson.weight.rows, lesson.weight.cols, used_rows(bags.ids));
    // The bag and column where the two forms differ most stay in view, as in the text view.
    const UlpDifference& diff = lesson.difference;
    const bool named = !is_max && diff.differing > 0;
    const std::vector<std::size_t> bag_rows =
        shown_rows(bags.count(), request.dim, named ? std::vector<std::size_t>{diff.bag} : std::vector<std::size_t>{});
    std::vector<ScreenBlock> blocks = {{&lesson.weight, e_rows, 0}, {&lesson.output, bag_rows, 1}};
    if (!is_max) blocks.push_back({&lesson.multihot_matmul, bag_rows, 1});
    const Screen screen = choose_screen(blocks, request.dim, precision, block_cells_budget(24, 12),
                                        named ? std::vector<std::size_t>{diff.column} : std::vector<std::size_t>{});
    const BagKeys keys = bag_keys(lesson, bag_rows, e_rows);

    FigureMatrix e = numeric_matrix(lesson.weight, e_rows, screen.cols, screen.format_of(lesson.weight),
                                    [&](std::size_t k, FigureRow& row) {
                                        row.table_row = static_cast<long long>(k);
                                        if (lesson.padding_row == k) row.note = "padding_idx";
                                    });
    for (std::size_t r = 0; r < e_rows.size(); ++r) e.rows[r].key = keys.of_row[r];
    e.name = "E = bag.weight";
    const auto per_bag = [&](std::size_t b, FigureRow& row) {
        row.label = fmt::format("bag {}", b);
        row.key = keys.of_bag[b];
        row.note = bag_zeros_note(lesson, b);
    };
    FigureMatrix output = numeric_matrix(lesson.output, bag_rows, screen.cols, screen.format_of(lesson.output), per_bag);
    output.name = "output";

    Figure figure;
    figure.title = fmt::format("EmbeddingBag, mode='{}'{}   (V = {}, d = {}, B = {})", bag_mode_name(request.mode),
                               is_max ? ": no matrix form" : ": output = M @ E", group_thousands(request.vocab_size),
                               group_thousands(request.dim), group_thousands(bags.count()));
    figure.keys = keys.names;
    figure.panels = {reduce_panel(lesson, bag_rows, e, e_rows, output, keys)};
    if (is_max) {
        figure.panels.push_back(max_panel(lesson, bag_rows, screen, output, keys));
    } else {
        FigureMatrix m = numeric_matrix(lesson.multihot, bag_rows, e_rows,
                                        visible_format(lesson.multihot, bag_rows, e_rows, precision), per_bag);
        m.name = "M = multi-hot";
        FigureMatrix product = numeric_matrix(lesson.multihot_matmul, bag_rows, screen.cols,
                                              screen.format_of(lesson.multihot_matmul), per_bag);
        product.name = "M @ E, in order";
        mark_differences(product, lesson.output, lesson.multihot_matmul, bag_rows, screen.cols);
        figure.panels.push_back(
            joined_panel(fmt::format("As a product: M's entry (b, k) = {}", multihot_entry(lesson)), {m, e, product}, {"x", "="}));
    }
    figure.caption = frames_caption(lesson);
    return figure;
}

}  // namespace embdemo
