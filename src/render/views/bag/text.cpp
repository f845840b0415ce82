#include "render/views/bag/text.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/limits.hpp"
#include "render/views/bag/trace_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

constexpr std::size_t k_max_bag_label = 18;

// "[[2, 3], [], [1]]", with many bags shortened.
std::string format_bags(const Bags& bags) {
    std::string text = "[";
    for (std::size_t b = 0; b < bags.count(); ++b) {
        if (b == 3 && bags.count() > 4) {
            text += fmt::format(", ... {} more bags", bags.count() - 3);
            break;
        }
        text += (b ? ", " : "") + format_ids(bag_ids(bags, b));
    }
    return text + "]";
}

// "[0.5, 2, ... 13,996 more ..., 1]": one bag's weights, cut as format_ids cuts ids (the first
// ones that fit about 52 characters, then the count left out and the last).
std::string format_weight_items(const std::vector<std::string>& items) {
    constexpr std::size_t k_max_chars = 52;
    constexpr std::size_t k_max_listed = 12;
    const auto tail = [&items](std::size_t listed) {
        return fmt::format(", ... {} more ..., {}]", items.size() - listed - 1, items.back());
    };
    std::string text = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string item = (i > 0 ? ", " : "") + items[i];
        const std::string end = i + 1 == items.size()   ? "]"
                                : i + 2 == items.size() ? ", " + items.back() + "]"
                                                        : tail(i + 1);
        const bool fits = text.size() + item.size() + end.size() <= k_max_chars;
        if (i > 0 && items.size() > i + 1 && (i == k_max_listed || !fits)) return text + tail(i);
        text += item;
    }
    return text + "]";
}

// The per-sample weights bag by bag, shortened as the bags line is: the first three bags of
// many, each bag's weights cut as its ids are (14,000 weights once made a 2,038-line header).
std::string format_weights(const Bags& bags, const std::vector<float>& weights) {
    std::string text = "[";
    for (std::size_t b = 0; b < bags.count(); ++b) {
        if (b == 3 && bags.count() > 4) {
            text += fmt::format(", ... {} more bags", bags.count() - 3);
            break;
        }
        std::vector<std::string> items;
        for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
            items.push_back(shortest_round_trip(weights[i]));
        }
        text += (b ? ", " : "") + format_weight_items(items);
    }
    return text + "]";
}

std::string module_text(const BagRequest& request) {
    return fmt::format("nn.EmbeddingBag({}, {}, mode='{}'{})", request.vocab_size, request.dim,
                       bag_mode_name(request.mode),
                       request.padding_idx ? fmt::format(", padding_idx={}", *request.padding_idx) : "");
}

std::string header(const BagLesson& lesson) {
    const BagRequest& request = lesson.request;
    const Bags& bags = request.bags;
    std::vector<std::uint64_t> offsets(bags.offsets.begin(), bags.offsets.end() - 1);
    std::vector<HeaderLine> lines = {
        {"bags", format_bags(bags), fmt::format("B = {}, {}", bags.count(), count_of(bags.ids.size(), "id", "ids"))},
        {"vocab", group_thousands(request.vocab_size), request.vocab_inferred ? "largest id + 1; set it with --vocab" : ""},
        {"dim", group_thousands(request.dim), ""},
        {"mode", bag_mode_name(request.mode), "sum, mean (PyTorch's default) or max; --mode"},
        {"seed", std::to_string(request.seed), "torch.manual_seed, then " + module_text(request)},
        {"input", format_ids(bags.ids), "the bags' ids in one list, as bag(input, offsets) takes them"},
        {"offsets", format_ids(offsets), "where each bag starts"},
    };
    if (lesson.padding_row) {
        lines.push_back({"padding", fmt::format("row {}", *lesson.padding_row), "zeroed at init, skipped in every bag"});
    }
    if (!request.per_sample_weights.empty()) {
        lines.push_back({"weights", format_weights(bags, request.per_sample_weights),
                         "per_sample_weights: each row scaled before the sum"});
    }
    // From a text, the bags are the loader's windows: its text, tokens and targets under them.
    const std::vector<HeaderLine> tokens = token_parameters(request.windows);
    lines.insert(lines.begin() + 1, tokens.begin(), tokens.end());
    return render_header_lines(fmt::format("EmbeddingBag as a multi-hot product: each bag reduced to one vector ({})",
                                           bag_mode_name(request.mode)),
                               lines);
}

std::string bag_label(const Bags& bags, std::size_t b) {
    const std::string ids = format_ids(bag_ids(bags, b));
    return fmt::format("bag {}  {}", b, ids.size() <= k_max_bag_label ? ids : fmt::format("({} ids)", bags.size(b)));
}

// The multi-hot matrix: what each entry is, and its rows.
std::string multihot_block(const BagLesson& lesson, const std::vector<std::size_t>& bag_rows, const TextOptions& options) {
    const char* entry = multihot_entry(lesson);
    std::vector<BlockRow> rows;
    for (const std::size_t b : bag_rows) rows.push_back({b, b == k_gap ? "" : fmt::format("bag {}", b), "", false});
    const Screen screen = choose_screen({{&lesson.multihot, bag_rows}}, lesson.multihot.cols, options.precision,
                                        block_cells_budget(widest_label(rows), 0));
    return wrap_words(fmt::format("M = multi-hot, entry (b, k) = {}{}   {} x {}", entry,
                                  lesson.padding_row ? "; the padding column is 0" : "",
                                  group_thousands(lesson.multihot.rows), group_thousands(lesson.multihot.cols)),
                      "", "  ") +
           render_block(lesson.multihot, rows, widest_label(rows), screen, options.palette);
}

// The winners of max, aligned under the output's cells.
std::string winner_cells(const BagLesson& lesson, std::size_t b, const Screen& screen) {
    return text_cells(screen, [&](std::size_t c) {
        const float winner = lesson.winners.at(b, c);
        return winner < 0 ? std::string("-") : std::to_string(static_cast<long long>(winner));
    }, &lesson.output);
}

std::string rounding_sentence(const BagLesson& lesson) {
    const UlpDifference& diff = lesson.difference;
    const std::size_t total = lesson.output.values.size();
    const bool mean = lesson.request.mode == BagMode::mean;
    const std::string how = fmt::format(
        "The bag adds its rows in bag order{}; the in-order M @ E {}adds over k = 0..{} in vocabulary order",
        mean ? " and divides by the count at the end" : "", mean ? "divides first, then " : "",
        lesson.request.vocab_size - 1);
    if (diff.differing == 0) {
        return how + fmt::format(". Here the two agree bit for bit in {}; other bags can make them "
                                 "differ in the last bits, float32 addition not being associative.",
                                 total == 1 ? std::string("their only value") : all_values(total));
    }
    const std::string route =
        route_clause(route_differences(lesson, std::nullopt), !lesson.request.per_sample_weights.empty());
    std::string subject = how_many_differ(diff.differing, total, "value", "values");
    subject[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(subject[0])));
    std::string text = how + fmt::format(". {} {} at bag {}, column {}: {}.", subject,
                                         diff.differing == 1 ? "differs," : "differ; most", diff.bag, diff.column,
                                         pair_clause(lesson.output.at(diff.bag, diff.column),
                                                     lesson.multihot_matmul.at(diff.bag, diff.column), diff.ulps));
    if (diff.non_finite > 0) {
        text += fmt::format(" Both follow float32's rules; {} {} inf or nan on one side or both.",
                            count_of(diff.non_finite, "value", "values"), diff.non_finite == 1 ? "is" : "are");
        return text + (route.empty() ? "" : " The in-order M @ E " + route + ".");
    }
    return text + (route.empty() ? "" : " Neither is wrong: the in-order M @ E " + route + ".");
}

// Row pairs per bag: its output ("bag", or "max"), then M @ E or the winners ("from") under it.
std::vector<BlockRow> output_rows(const BagLesson& lesson, const std::vector<std::size_t>& bag_rows) {
    const Bags& bags = lesson.request.bags;
    const bool is_max = lesson.request.mode == BagMode::max;
    std::size_t label_width = 0;
    for (const std::size_t b : bag_rows) {
        if (b != k_gap) label_width = std::max(label_width, bag_label(bags, b).size());
    }
    std::vector<BlockRow> rows;
    for (const std::size_t b : bag_rows) {
        if (b == k_gap) {
            rows.push_back({k_gap, "", "", false});
            continue;
        }
        rows.push_back({b, pad_right(bag_label(bags, b), label_width) + "  " + (is_max ? "max" : "bag"),
                        bag_zeros_note(lesson, b), false});
        rows.push_back({b, std::string(label_width, ' ') + "  " + (is_max ? "from" : "in order"), "", false});
    }
    return rows;
}

}  // namespace

std::vector<std::uint64_t> bag_ids(const Bags& bags, std::size_t b) {
    return {bags.ids.begin() + static_cast<std::ptrdiff_t>(bags.offsets[b]),
            bags.ids.begin() + static_cast<std::ptrdiff_t>(bags.offsets[b + 1])};
}

// Why a bag's output is all zeros, when it is empty or holds nothing but padding_idx (which
// every mode skips), or "".
std::string bag_zeros_note(const BagLesson& lesson, std::size_t b) {
    const Bags& bags = lesson.request.bags;
    if (bags.size(b) == 0) return "empty: zeros";
    if (!lesson.padding_row) return "";
    const auto first = bags.ids.begin() + static_cast<std::ptrdiff_t>(bags.offsets[b]);
    const auto last = bags.ids.begin() + static_cast<std::ptrdiff_t>(bags.offsets[b + 1]);
    const bool only_padding = std::all_of(first, last, [&](std::uint64_t id) { return id == *lesson.padding_row; });
    return only_padding ? "only padding_idx: zeros" : "";
}

const char* multihot_entry(const BagLesson& lesson) {
    const BagRequest& request = lesson.request;
    return !request.per_sample_weights.empty() ? "the sum of k's weights in bag b"
           : request.mode != BagMode::mean     ? "count of k in bag b"
           : lesson.padding_row                ? "(count of k in bag b) / (ids in bag b, padding_idx not counted)"
                                               : "(count of k in bag b) / (ids in bag b)";
}

// What PyTorch's own `M @ bag.weight` gives on this machine (the BLAS, as embdemo calls it the way
// PyTorch does), so that the in-order reference is never taken for it.
std::string bag_torch_matmul_sentence(const BagLesson& lesson) {
    const UlpDifference& diff = lesson.torch_difference;
    const std::string subject = "PyTorch's M @ bag.weight (through the BLAS, on this machine)";
    if (diff.differing == 0) return subject + " equals the bag's output bit for bit.";
    const std::size_t total = lesson.output.values.size();
    // Zeros of opposite sign are equal numbers: say so rather than count them as 1 ulp.
    const std::string by = diff.non_finite > 0 ? ""
                           : diff.zero_signs == diff.differing
                               ? " (equal as numbers: zeros of opposite sign)"
                               : fmt::format(", by up to {}", count_of(diff.ulps, "ulp", "ulps"));
    return fmt::format("{} differs from the bag's output in {} of {} values{}.", subject,
                       group_thousands(diff.differing), group_thousands(total), by);
}

// The verdict's detail, from how the two differ.
std::string bag_verdict_detail(const UlpDifference& diff) {
    if (diff.differing == 0) return "the in-order M @ E equals the bag's output bit for bit";
    if (diff.non_finite > 0) return "the in-order M @ E and the bag's output differ where float32 overflowed (exit status 3)";
    if (diff.zero_signs == diff.differing) {
        return fmt::format("the in-order M @ E equals the bag's output as numbers; {} in sign (exit status 3)",
                           diff.differing == 1 ? std::string("one zero differs") : fmt::format("{} zeros differ",
                                                                                              diff.differing));
    }
    return fmt::format("the in-order M @ E is the bag's output to within {} (computed another way; exit status 3)",
                       count_of(diff.ulps, "ulp", "ulps"));
}

std::string render_bag_text(const BagLesson& lesson, const TextOptions& options, bool trace) {
    const BagRequest& request = lesson.request;
    const Bags& bags = request.bags;
    const bool is_max = request.mode == BagMode::max;
    const std::set<std::size_t> used(bags.ids.begin(), bags.ids.end());
    const std::vector<std::size_t> e_shown = shown_rows(lesson.weight.rows, lesson.weight.cols, {used.begin(), used.end()});
    std::vector<BlockRow> e_rows;
    for (const std::size_t k : e_shown) {
        e_rows.push_back({k, k == k_gap ? "" : std::to_string(k), lesson.padding_row == k ? "padding_idx" : "",
                          used.count(k) > 0});
    }
    // The bag and column the closing sentence names stay in view.
    const UlpDifference& diff = lesson.difference;
    const bool named = !is_max && diff.differing > 0;
    const std::vector<std::size_t> bag_rows =
        shown_rows(bags.count(), request.dim, named ? std::vector<std::size_t>{diff.bag} : std::vector<std::size_t>{});
    const std::vector<BlockRow> out_rows = output_rows(lesson, bag_rows);
    const std::size_t out_label = widest_label(out_rows);
    // E apart from the outputs, each spelled as PyTorch prints it; an output and the in-order
    // M @ E under it share a group, so their digits line up.
    std::vector<ScreenBlock> blocks = {{&lesson.weight, e_shown, 0}, {&lesson.output, bag_rows, 1}};
    if (!is_max) blocks.push_back({&lesson.multihot_matmul, bag_rows, 1});
    const Screen screen = choose_screen(blocks, request.dim, options.precision,
                                        std::min(block_cells_budget(out_label, 12), block_cells_budget(widest_label(e_rows), 11)),
                                        named ? std::vector<std::size_t>{diff.column} : std::vector<std::size_t>{});

    std::string out = header(lesson) + '\n';
    out += wrap_words(fmt::format("E = bag.weight   {} x {}   > marks the rows the bags use", group_thousands(request.vocab_size),
                       group_thousands(request.dim)), "", "  ");
    out += render_block(lesson.weight, e_rows, widest_label(e_rows), screen, options.palette);
    out += hidden_rows_line(hidden_count(e_shown, {used.begin(), used.end()}), "the rows the bags use");
    if (!is_max) out += '\n' + multihot_block(lesson, bag_rows, options);
    out += '\n' + wrap_words(fmt::format("output = bag(input, offsets{}), and {} under it   {} x {}",
                                         request.per_sample_weights.empty() ? "" : ", per_sample_weights",
                                         is_max ? "the winning id per column" : "the in-order M @ E", group_thousands(bags.count()),
                                         group_thousands(request.dim)),
                             "", "  ");
    bool pair_second = false;
    for (const BlockRow& row : out_rows) {
        if (row.row != k_gap && pair_second && is_max) {
            out += fmt::format("    {}  {}\n", pad_right(row.label, out_label), winner_cells(lesson, row.row, screen));
        } else {
            out += render_block(row.row != k_gap && pair_second ? lesson.multihot_matmul : lesson.output, {row}, out_label,
                                screen, options.palette);
        }
        pair_second = row.row != k_gap && !pair_second;
    }
    out += '\n';
    if (trace) out += render_bag_trace(lesson, options) + '\n';
    if (is_max) {
        return out + wrap_words("max has no matrix-product form: a maximum is no weighted sum of rows, so no "
                                "multi-hot M gives M @ E = output. Each column takes its value from one row, the "
                                "winner shown under it (the first of equal values, as PyTorch keeps it).",
                                "", "");
    }
    out += wrap_words(rounding_sentence(lesson), "", "");
    out += wrap_words(bag_torch_matmul_sentence(lesson), "", "");
    return out + render_verdict(lesson.difference.differing == 0, bag_verdict_detail(lesson.difference), options.palette);
}

}  // namespace embdemo
