#include "render/kit/text_sections.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/torch/init.hpp"
#include "core/limits.hpp"
#include "render/kit/explain.hpp"
#include "render/kit/paint.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/table.hpp"
#include "render/kit/token_label.hpp"

namespace embdemo {
namespace {

// When E is summarised, at most this many selected rows are forced into view.
constexpr std::size_t k_max_selected_rows_shown = 8;

std::string format_diff(double diff) { return fmt::format("{}", diff); }

}  // namespace

WeightRows weight_rows(const DemoReport& report) {
    WeightRows result;
    const TokenIds& ids = report.request.ids;
    for (std::size_t i = 0; i < ids.size(); ++i) result.selected[ids[i]].push_back(i);
    // A summary keeps the selected rows in view, up to a screenful of them: when there are more,
    // first those of the positions X lists (a long text's first and last tokens), so that the
    // rows below have their rows of E above.
    std::vector<std::size_t> forced;
    const auto force = [&forced](std::size_t row) {
        if (forced.size() < k_max_selected_rows_shown && std::find(forced.begin(), forced.end(), row) == forced.end()) {
            forced.push_back(row);
        }
    };
    if (result.selected.size() > k_max_selected_rows_shown) {
        for (const std::size_t position : visible_positions(ids.size(), should_summarise(ids.size(), report.request.vocab_size))) {
            if (position != k_gap) force(ids[position]);
        }
    }
    for (const auto& entry : result.selected) force(entry.first);
    const Matrix& e = report.weight;
    result.rows = visible_positions(e.rows, should_summarise(e.rows, e.cols), forced);
    for (const auto& entry : result.selected) {
        result.hidden_selected +=
            std::find(result.rows.begin(), result.rows.end(), entry.first) == result.rows.end();
    }
    return result;
}

std::string describe_origin(const DemoReport& report) {
    const Matrix& e = report.weight;
    switch (report.request.origin.kind) {
        case WeightOrigin::Kind::torch: break;
        case WeightOrigin::Kind::torch_randint:
            return fmt::format("torch.randint({}, {}, ({}, {}))", k_randint_low, k_randint_high,
                               e.rows, e.cols);
        case WeightOrigin::Kind::index_pattern:
            return report.request.origin.detail + " for row k, column j";
        case WeightOrigin::Kind::file:
            return "loaded from " + escape_for_message(report.request.origin.detail);
    }
    return fmt::format("nn.Embedding({}, {}).weight", e.rows, e.cols);
}

std::string render_header(const DemoReport& report) {
    std::string out = "Embedding lookup vs one-hot matrix product\n";
    for (const Parameter& parameter : demo_parameters(report.request, format_id_batch(report.request.id_batch()))) {
        out += format_parameter_row(parameter);
    }
    return out;
}

namespace {

// "  > 12  " before E's cells, "   ids[0]" after them.
constexpr std::size_t k_weight_marker_width = 4;  // "  > "
constexpr std::size_t k_annotation_gap = 3;

std::size_t weight_label_width(const Matrix& e) { return std::to_string(e.rows - 1).size(); }

std::size_t annotation_width(const WeightRows& shown, const IdShape& shape) {
    std::size_t width = 0;
    for (const std::size_t r : shown.rows) {
        const auto hit = shown.selected.find(r);
        if (hit != shown.selected.end()) {
            width = std::max(width, k_annotation_gap + describe_positions(hit->second, shape).size());
        }
    }
    return width;
}

// "X[12] @ E", the widest label of the row-pair layout.
std::string product_label(const IdShape& shape, std::size_t position) {
    return fmt::format("X[{}] @ E", torch_index(shape, position));
}

// "id 2", or "ids[0, 1] = 2" in a batch: the label of a result row, its id right-aligned to
// `id_width` digits so that the rows of a column line up; ids of a text also name their token
// (`id 8495 " Design"`), so that a row of a long text can be found by its words.
std::string id_label(const DemoRequest& request, std::size_t position, std::size_t id_width) {
    const std::uint64_t id = request.ids[position];
    const std::string token = request.source.from_text() ? " \"" + short_token(request.source.token_of(id)) + '"' : "";
    if (!request.shape.batched) return "id " + pad_left(std::to_string(id), id_width) + token;
    return "ids[" + torch_index(request.shape, position) + "] = " + pad_left(std::to_string(id), id_width) + token;
}

// The widest id_label of the visible rows.
std::size_t id_label_width(const DemoRequest& request, const std::vector<std::size_t>& rows, std::size_t id_width) {
    std::size_t width = 0;
    for (const std::size_t r : rows) {
        if (r != k_gap) width = std::max(width, id_label(request, r, id_width).size());
    }
    return width;
}

std::size_t id_width(const TokenIds& ids, const std::vector<std::size_t>& rows) {
    std::size_t width = 1;
    for (const std::size_t r : rows) {
        if (r != k_gap) width = std::max(width, std::to_string(ids[r]).size());
    }
    return width;
}

std::vector<std::size_t> result_rows(const Matrix& result) {
    return visible_positions(result.rows, should_summarise(result.rows, result.cols));
}

}  // namespace

std::size_t weight_cells_budget(const DemoReport& report) {
    const WeightRows shown = weight_rows(report);
    const std::size_t used = k_weight_marker_width + weight_label_width(report.weight) + 2 +
                             annotation_width(shown, report.request.shape);
    // A batch's annotation ("ids[0,0], ids[0,2], ids[1,1], ... (4 times)") can take half the line:
    // the cells then get fewer columns rather than pushing the line past 80 (found by fuzz_pipeline).
    return k_max_line_width - std::min(used, 3 * k_max_line_width / 4);
}

std::size_t results_cells_budget(const DemoReport& report) {
    const Matrix& lookup = report.lookup;
    // "  id 2  X[0] @ E  " before the cells of the row-pair layout.
    const auto rows = result_rows(lookup);
    const std::size_t prefix = 2 + id_label_width(report.request, rows, id_width(report.request.ids, rows)) + 2 +
                               product_label(report.request.shape, lookup.rows - 1).size() + 2;
    return k_max_line_width - std::min(prefix, k_max_line_width / 2);
}

const NumberFormat& Screen::format_of(const Matrix& m) const {
    for (const auto& [matrix, own] : formats) {
        if (matrix == &m) return own;
    }
    return format;
}

Screen choose_screen(const std::vector<ScreenBlock>& blocks, std::size_t cols, int precision,
                     std::size_t budget, const std::vector<std::size_t>& always_show) {
    const auto screen_for = [&](const std::vector<std::size_t>& shown_cols) {
        Screen screen{shown_cols, {}, {}};
        std::vector<float> everything;
        std::vector<std::pair<int, std::vector<float>>> groups;
        for (const ScreenBlock& block : blocks) {
            auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == block.group; });
            if (group == groups.end()) group = groups.insert(groups.end(), {block.group, {}});
            for (const std::size_t r : block.rows) {
                for (const std::size_t c : shown_cols) {
                    if (r == k_gap || c == k_gap) continue;
                    everything.push_back(block.matrix->at(r, c));
                    group->second.push_back(block.matrix->at(r, c));
                }
            }
        }
        screen.format = choose_number_format(everything, precision);
        std::vector<NumberFormat> group_formats;
        for (const auto& group : groups) {
            group_formats.push_back(groups.size() == 1 ? screen.format : choose_number_format(group.second, precision));
            screen.format.width = std::max(screen.format.width, group_formats.back().width);
        }
        for (const ScreenBlock& block : blocks) {
            const auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == block.group; });
            screen.formats.emplace_back(block.matrix, group_formats[static_cast<std::size_t>(group - groups.begin())]);
        }
        return screen;
    };
    // No cell is narrower than one character: a layout too wide even so is passed over before
    // its columns are listed or its values copied and spelled (every column of a 4 Mi-wide table
    // took 380 MiB and 8 s to find that out, past the memory estimate).
    std::vector<std::vector<std::size_t>> candidates;
    if (cols <= (budget + 1) / 2) candidates.push_back(visible_positions(cols, false));  // 2 cols - 1 characters at least
    for (std::size_t edges = k_edge_items; edges >= 1; --edges) {
        candidates.push_back(visible_positions(cols, true, always_show, edges));
    }
    // Past 80 columns is worse than a named column out of view.
    if (!always_show.empty()) candidates.push_back(visible_positions(cols, true, {}, 1));
    for (const auto& candidate : candidates) {
        if (cells_width(candidate, 1) > budget) continue;
        Screen screen = screen_for(candidate);
        if (cells_width(candidate, screen.format.width) <= budget) return screen;
    }
    return screen_for(candidates.back());
}

Screen choose_screen(const DemoReport& report, int precision, std::size_t budget) {
    const std::vector<std::size_t> results = result_rows(report.lookup);
    // E and the results are separate tensors (PyTorch may print E in scientific notation and
    // E[ids] in fixed); the lookup and the product interleave, so they share a group.
    return choose_screen({{&report.weight, weight_rows(report).rows, 0},
                          {&report.lookup, results, 1},
                          {&report.onehot_matmul, results, 1}},
                         report.weight.cols, precision, budget);
}

Screen text_screen(const DemoReport& report, int precision) {
    return choose_screen(report, precision,
                         std::min(weight_cells_budget(report), results_cells_budget(report)));
}

std::string render_weight(const DemoReport& report, const Screen& screen, const TextOptions& options) {
    const Matrix& e = report.weight;
    const WeightRows shown = weight_rows(report);
    const std::size_t label_width = weight_label_width(e);
    std::string out = fmt::format("E = {}   {} x {}   > marks selected rows\n",
                                  describe_origin(report), group_thousands(e.rows),
                                  group_thousands(e.cols));
    for (const std::size_t r : shown.rows) {
        if (r == k_gap) {
            out += fmt::format("  {}   ...\n", std::string(label_width + 1, ' '));
            continue;
        }
        const auto hit = shown.selected.find(r);
        const std::string label = pad_left(std::to_string(r), label_width);
        const std::string cells = format_row_cells(e, r, screen.cols, screen.format_of(e));
        if (hit != shown.selected.end()) {
            out += fmt::format("  {} {}  {}   {}\n", paint(">", Paint::selected, options.palette),
                               paint(label, Paint::selected, options.palette),
                               paint(cells, Paint::selected, options.palette),
                               describe_positions(hit->second, report.request.shape));
        } else {
            out += fmt::format("    {}  {}\n", label, cells);
        }
    }
    if (shown.hidden_selected > 0) {
        out += fmt::format("  ({} more selected {} inside the \"...\")\n",
                           group_thousands(shown.hidden_selected),
                           shown.hidden_selected == 1 ? "row is" : "rows are");
    }
    if (screen.format_of(e).mode == NumberFormat::Mode::scientific) {
        static constexpr const char* k_reasons[] = {"", "values that span more than 1000x",
                                                    "values above 1e8", "values below 1e-4"};
        out += fmt::format("  (scientific notation, as PyTorch prints {})\n",
                           k_reasons[static_cast<int>(screen.format_of(e).why)]);
    }
    return out;
}

std::string render_onehot(const DemoReport& report, const TextOptions& options) {
    const TokenIds& ids = report.request.ids;
    const std::size_t vocab = report.request.vocab_size;
    const auto rows = visible_positions(ids.size(), should_summarise(ids.size(), vocab));
    const std::size_t id_width = std::to_string(vocab - 1).size();
    const std::size_t label_width = id_label_width(report.request, rows, id_width);

    std::string out = fmt::format("X = one_hot(ids, {})   {}\n", vocab,
                                  per_id_shape(report.request.shape, ids.size(), vocab));
    for (const std::size_t i : rows) {
        if (i == k_gap) {
            out += "    ...\n";
            continue;
        }
        std::string row;
        if (vocab <= k_max_spelled_onehot) {
            for (std::size_t k = 0; k < vocab; ++k) {
                if (k) row += ' ';
                row += k == ids[i] ? paint("1", Paint::one, options.palette) : "0";
            }
        } else {
            // Beside a batch's token labels the long form would pass 80 columns.
            const bool fits = 2 + label_width + 3 + fmt::format("1 at column {}, the other {} entries are 0", vocab - 1,
                                                                 group_thousands(vocab - 1)).size() <= k_max_line_width;
            row = fmt::format(fits ? "{} at column {}, the other {} entries are 0" : "{} at column {}, {} zeros",
                              paint("1", Paint::one, options.palette), ids[i], group_thousands(vocab - 1));
        }
        out += fmt::format("  {}   {}\n", pad_right(id_label(report.request, i, id_width), label_width), row);
    }
    return out;
}

// The lookup and the one-hot product next to each other, so that equal numbers line up.
std::string render_results(const DemoReport& report, const Screen& screen, std::size_t width) {
    const Matrix& lookup = report.lookup;
    const Matrix& product = report.onehot_matmul;
    const DemoRequest& request = report.request;
    const TokenIds& ids = request.ids;
    const auto rows = result_rows(lookup);
    const std::size_t ids_width = id_width(ids, rows);
    const std::size_t label_width = id_label_width(request, rows, ids_width);
    const std::size_t block_width = cells_width(screen.cols, screen.format_of(lookup).width);
    const std::string shape = per_id_shape(request.shape, lookup.rows, lookup.cols);
    const auto cells = [&](const Matrix& m, std::size_t r) {
        return r == k_gap ? pad_left("...", screen.format_of(m).width)
                          : format_row_cells(m, r, screen.cols, screen.format_of(m));
    };

    // "  id 2   0.6957 ... -0.6315 |  0.6957 ...": the blocks share one format, so they align.
    const std::size_t side_by_side_width = 2 + label_width + 1 + block_width + 3 + block_width;
    if (side_by_side_width <= width) {
        std::string out = fmt::format("lookup E[ids] and one-hot product X @ E, side by side   {} each\n", shape);
        out += fmt::format("  {} {}   {}\n", std::string(label_width, ' '), pad_right("E[ids]", block_width),
                           "X @ E");
        for (const std::size_t r : rows) {
            const std::string label = r == k_gap ? "" : id_label(request, r, ids_width);
            out += fmt::format("  {} {} | {}\n", pad_right(label, label_width),
                               pad_right(cells(lookup, r), block_width), cells(product, r));
        }
        return out;
    }

    std::string out = fmt::format("lookup E[ids] and one-hot product X @ E, row by row   {} each\n", shape);
    std::size_t pair_width = 0;
    for (const std::size_t r : rows) {
        if (r != k_gap) pair_width = std::max(pair_width, product_label(request.shape, r).size());
    }
    for (const std::size_t r : rows) {
        if (r == k_gap) {
            out += "  ...\n";
            continue;
        }
        out += fmt::format("  {}  {}  {}\n", pad_right(id_label(request, r, ids_width), label_width),
                           pad_right(fmt::format("E[{}]", ids[r]), pair_width), cells(lookup, r));
        out += fmt::format("  {}  {}  {}\n", std::string(label_width, ' '),
                           pad_right(product_label(request.shape, r), pair_width), cells(product, r));
    }
    return out;
}

std::string render_linear_view(const DemoReport& report) {
    const Matrix& e = report.weight;
    return fmt::format("nn.Linear({}, {}, bias=False), W = E.T: X @ W.T {}\n", e.rows, e.cols,
                       report.linear_verdict.identical ? "equals the lookup too"
                                                       : "differs from the lookup");
}

namespace {

// "0.41 ms", "6.21 s": three significant digits are all a timing on a shared machine supports.
std::string describe_seconds(double seconds) {
    // "us", as the views are ASCII: a micro sign is no character under LC_ALL=C.
    if (seconds < 1e-3) return fmt::format("{:.3g} us", seconds * 1e6);
    if (seconds < 1.0) return fmt::format("{:.3g} ms", seconds * 1e3);
    return fmt::format("{:.3g} s", seconds);
}

// (V - 1) / V as a percentage with as many decimals as V has digits beyond two, so that it never
// rounds up to 100: "75", "99.0", "99.998".
std::string zeros_percent(std::uint64_t vocab_size) {
    const int decimals = std::max(0, static_cast<int>(std::to_string(vocab_size).size()) - 2);
    return fmt::format("{:.{}f}", 100.0 * static_cast<double>(vocab_size - 1) / static_cast<double>(vocab_size), decimals);
}

}  // namespace

std::string timing_sentence(const DemoReport& report) {
    const FormTiming& timing = report.timing;
    const DemoRequest& request = report.request;
    const double ratio = timing.lookup_seconds > 0 ? timing.product_seconds / timing.lookup_seconds : 0;
    const std::string longer = ratio >= 1.5 ? group_thousands(static_cast<std::uint64_t>(ratio + 0.5)) + "x longer"
                                            : "about as long";
    return fmt::format("time on this machine: lookup {}, one-hot product {} ({}), {} for {}; X ({} x {}) is {}% zeros",
                       describe_seconds(timing.lookup_seconds), describe_seconds(timing.product_seconds),
                       count_of(timing.product_threads, "thread", "threads"), longer,
                       report.verdict.identical ? "the same bits" : "a result that differs",
                       group_thousands(request.ids.size()), group_thousands(request.vocab_size),
                       zeros_percent(request.vocab_size));
}

std::string verdict_line(const DemoReport& report, const TextOptions& options) {
    const Palette palette = options.palette;
    const Comparison& verdict = report.verdict;
    const std::size_t total = report.lookup.values.size();
    std::string out;
    if (verdict.identical) {
        out = fmt::format("verdict: {} -- {} {} bit for bit, max abs diff 0\n",
                          paint("IDENTICAL", Paint::good, palette), all_values(total), total == 1 ? "agrees" : "agree");
    } else {
        out = fmt::format("verdict: {} -- {}, max abs diff {}\n", paint("DIFFERENT", Paint::bad, palette),
                          differing_values(verdict.differing, total), format_diff(verdict.max_abs_diff));
        if (report.difference) out += wrap_words(explain_difference(*report.difference, report.request.shape), "  why: ", "       ");
    }
    if (options.timing) out += wrap_words(timing_sentence(report), "", "  ");
    return out;
}

std::string render_plain_matrix(const Matrix& m, const TextOptions& options) {
    const auto rows = visible_positions(m.rows, should_summarise(m.rows, m.cols));
    const std::size_t label_width = std::to_string(m.rows ? m.rows - 1 : 0).size();
    const auto cols = fitting_columns(m, rows, options.precision, k_max_line_width - label_width - 4);
    const NumberFormat format = visible_format(m, rows, cols, options.precision);
    std::string out;
    for (const std::size_t r : rows) {
        if (r == k_gap) {
            out += fmt::format("  {}  ...\n", std::string(label_width, ' '));
        } else {
            out += fmt::format("  {}  {}\n", pad_left(std::to_string(r), label_width),
                               format_row_cells(m, r, cols, format));
        }
    }
    return out;
}

std::string format_plain(float value, const NumberFormat& format) {
    NumberFormat unpadded = format;
    unpadded.width = 0;
    std::string text = format_number(value, unpadded);
    if (format.mode == NumberFormat::Mode::integer && !text.empty() && text.back() == '.') {
        text.pop_back();
    }
    return text;
}

std::string format_term(float value, const NumberFormat& format) {
    const std::string text = format_plain(value, format);
    return text[0] == '-' ? '(' + text + ')' : text;
}

}  // namespace embdemo
