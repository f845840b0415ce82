// bag's sheet: nn.EmbeddingBag's bags reduced to one row each, the multi-hot M and M @ E beside
// the bag's output (sum and mean), or max's winning rows; how far the two forms differ and why,
// stated once for every format.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/limits.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/lesson_blocks.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/python_kit.hpp"
#include "render/views/bag/trace_text.hpp"
#include "render/views/bag/view.hpp"

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

// [[2, 3], [], [1]], or the per-sample weights in the same layout.
template <typename Value>
std::string ragged_json(const Bags& bags, const std::vector<Value>& values) {
    std::vector<std::string> rows;
    for (std::size_t b = 0; b < bags.count(); ++b) {
        std::vector<std::string> items;
        for (std::size_t i = bags.offsets[b]; i < bags.offsets[b + 1]; ++i) {
            if constexpr (std::is_same_v<Value, float>) {
                items.push_back(json_number(values[i]));
            } else {
                items.push_back(std::to_string(values[i]));
            }
        }
        rows.push_back(fmt::format("[{}]", fmt::join(items, ", ")));
    }
    return fmt::format("[{}]", fmt::join(rows, ", "));
}

std::string module_text(const BagRequest& request) {
    return fmt::format("nn.EmbeddingBag({}, {}, mode='{}'{})", request.vocab_size, request.dim,
                       bag_mode_name(request.mode),
                       request.padding_idx ? fmt::format(", padding_idx={}", *request.padding_idx) : "");
}

std::string bag_label(const Bags& bags, std::size_t b) {
    const std::string ids = format_ids(bag_ids(bags, b));
    return fmt::format("bag {}  {}", b, ids.size() <= k_max_bag_label ? ids : fmt::format("({} ids)", bags.size(b)));
}

Comparison as_comparison(const UlpDifference& diff) {
    Comparison comparison;
    comparison.identical = diff.differing == 0;
    comparison.differing = diff.differing;
    return comparison;
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

// What PyTorch's own `M @ bag.weight` gives on this machine (the BLAS, as embdemo calls it the way
// PyTorch does), so that the in-order reference is never taken for it.
std::string torch_matmul_sentence(const BagLesson& lesson) {
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

// The verdict's detail, from how the two differ: in ulps, which a count of differing values
// does not say.
std::string verdict_detail(const UlpDifference& diff) {
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

// The asserts of one UlpDifference between `output` and `product` (Python names).
std::string difference_asserts(const std::string& product, const UlpDifference& diff, const std::string& what) {
    std::string out = fmt::format("distance = ulps(output, {})\n", product);
    out += fmt::format("assert differing_bits(output, {}) == {}, \"embdemo counts {} values where {} differs\"\n",
                       product, diff.differing, diff.differing, what);
    out += fmt::format("assert int(distance.max()) == {}, \"embdemo measures {} at the most\"\n", diff.ulps,
                       count_of(diff.ulps, "ulp", "ulps"));
    if (diff.differing > 0) {
        out += fmt::format("assert int(distance[{}, {}]) == {}, \"embdemo's largest difference is not at bag {}, "
                           "column {}\"\n",
                           diff.bag, diff.column, diff.ulps, diff.bag, diff.column);
    }
    out += fmt::format("zero_signs = int(((output == 0) & ({} == 0) & (distance != 0)).sum())\n", product);
    out += fmt::format("assert zero_signs == {}, \"embdemo counts {} values that are +0 against -0\"\n",
                       diff.zero_signs, diff.zero_signs);
    out += fmt::format("non_finite = int(((distance != 0) & ~(output.isfinite() & {}.isfinite())).sum())\n", product);
    out += fmt::format("assert non_finite == {}, \"embdemo counts {} differing values with inf or nan\"\n",
                       diff.non_finite, diff.non_finite);
    return out;
}

// A claim's re-check: the lesson's difference counted again from the two matrices.
bool difference_holds(const Matrix& output, const Matrix& product, const UlpDifference& diff) {
    if (output.values.size() != product.values.size()) return false;
    std::size_t differing = 0, non_finite = 0;
    for (std::size_t i = 0; i < output.values.size(); ++i) {
        const float a = output.values[i], b = product.values[i];
        std::uint32_t x = 0, y = 0;
        std::memcpy(&x, &a, sizeof x);
        std::memcpy(&y, &b, sizeof y);
        if (x == y) continue;
        ++differing;
        non_finite += !std::isfinite(a) || !std::isfinite(b);
    }
    return differing == diff.differing && non_finite == diff.non_finite && (diff.ulps == 0) == (differing == 0);
}

std::vector<SheetClaim> bag_claims(const BagLesson& lesson) {
    if (lesson.request.mode == BagMode::max) {
        SheetClaim max{"max has no matrix-product form: a maximum is no weighted sum of rows, so no multi-hot M gives "
                       "M @ E = output. Each column takes its value from one row, its winner (the first of equal values, "
                       "as PyTorch keeps it).",
                       "matrix_form", "false", "",
                       // Every output value is its winner's value: no sum of several rows made it.
                       [&lesson] {
                           for (std::size_t b = 0; b < lesson.output.rows; ++b) {
                               for (std::size_t j = 0; j < lesson.output.cols; ++j) {
                                   const float winner = lesson.winners.at(b, j);
                                   const float value = lesson.output.at(b, j);
                                   if (winner < 0 ? value != 0.0f
                                                  : !(lesson.weight.at(static_cast<std::size_t>(winner), j) == value ||
                                                      (std::isnan(value) &&
                                                       std::isnan(lesson.weight.at(static_cast<std::size_t>(winner), j))))) {
                                       return false;
                                   }
                               }
                           }
                           return true;
                       }};
        max.paragraph = true;
        return {max};
    }
    SheetClaim rounding{rounding_sentence(lesson), "max_ulps", std::to_string(lesson.difference.ulps),
                        difference_asserts("in_order", lesson.difference, "the in-order M @ E"),
                        [&lesson] { return difference_holds(lesson.output, lesson.multihot_matmul, lesson.difference); }};
    rounding.paragraph = true;
    SheetClaim torch{torch_matmul_sentence(lesson), "torch_matmul_differing",
                     std::to_string(lesson.torch_difference.differing),
                     difference_asserts("product", lesson.torch_difference, "PyTorch's M @ E"),
                     [&lesson] { return difference_holds(lesson.output, lesson.torch_matmul, lesson.torch_difference); }};
    return {rounding, torch};
}

std::string bags_python(const BagRequest& request) {
    std::vector<std::string> bags;
    for (std::size_t b = 0; b < request.bags.count(); ++b) {
        std::vector<std::string> ids;
        for (std::size_t i = request.bags.offsets[b]; i < request.bags.offsets[b + 1]; ++i) {
            ids.push_back(std::to_string(request.bags.ids[i]));
        }
        bags.push_back(fmt::format("[{}]", fmt::join(ids, ", ")));
    }
    return wrapped_list("bags = [", bags, "]");
}

// Per-sample weights as the decimals a reader types, then checked against embdemo's float32 bits.
std::string weights_python(const std::vector<float>& weights) {
    std::vector<std::string> decimals;
    std::vector<std::string> bits;
    for (const float w : weights) {
        decimals.push_back(python_float32(w));
        bits.push_back(float_bits(w));
    }
    return wrapped_list("per_sample_weights = torch.tensor([", decimals, "], dtype=torch.float32)\n") +
           wrapped_list("assert same_bits(per_sample_weights, from_bits([", bits,
                        fmt::format("], ({},))), \"a weight reads back as another float32\"", weights.size()));
}

// The script's lines that make M, PyTorch's M @ E and embdemo's in-order one.
std::vector<std::string> multihot_lines(const BagRequest& request) {
    const std::string scale = request.per_sample_weights.empty() ? "1.0" : "per_sample_weights[i]";
    std::vector<std::string> lines = {
        fmt::format("# M, one row per bag: M[b, k] = how often k is in bag b{}{}, the padding row left out.",
                    request.per_sample_weights.empty() ? "" : " (the sum of its weights, in bag order)",
                    request.mode == BagMode::mean ? ", divided by the bag's length" : ""),
        fmt::format("M = torch.zeros({}, {})", request.bags.count(), request.vocab_size),
        "for b, (start, end) in enumerate(zip(starts, ends)):",
        "    for i in range(start, end):",
        "        if int(ids[i]) != bag.padding_idx:",
        "            M[b, ids[i]] += " + scale,
    };
    if (request.mode == BagMode::mean) {
        lines.push_back("    if bag_sizes[b] > 0:");
        lines.push_back("        M[b] /= bag_sizes[b]");
    }
    lines.push_back("product = M @ bag.weight.detach()    # PyTorch's M @ E");
    lines.push_back("# embdemo's reference M @ E: for k in order, each M[b, k] * E[k] rounded, then added from +0.");
    lines.push_back(fmt::format("in_order = torch.zeros({}, {})", request.bags.count(), request.dim));
    lines.push_back(fmt::format("for k in range({}):", request.vocab_size));
    lines.push_back("    in_order = in_order + M[:, k:k + 1] * bag.weight.detach()[k]");
    lines.push_back("print(\"M @ bag.weight =\", product)");
    return lines;
}

// M re-checked on the columns the bags use (a GPT-2 row has 50,257 entries, almost all 0), and
// 0 everywhere else.
std::string multihot_checks(const BagLesson& lesson) {
    const BagRequest& request = lesson.request;
    const std::set<std::uint64_t> used(request.bags.ids.begin(), request.bags.ids.end());
    const std::vector<std::uint64_t> columns(used.begin(), used.end());
    Matrix m_used(lesson.multihot.rows, columns.size());
    for (std::size_t b = 0; b < m_used.rows; ++b) {
        for (std::size_t c = 0; c < columns.size(); ++c) m_used.at(b, c) = lesson.multihot.at(b, columns[c]);
    }
    std::string out = '\n' + python_ints("columns = torch.tensor(", columns, ", dtype=torch.long)    # the ids the bags use\n");
    out += "M_used = M[:, columns]\n";
    out += expect_bits("M_used", m_used, "M");
    out += "others = torch.ones(M.shape[1], dtype=torch.bool)\nothers[columns] = False\n";
    out += "assert (M[:, others].view(torch.int32) == 0).all(), \"M has a value in a column no bag uses\"\n";
    return out;
}

// max: which id won each value; torch's max_indices say 0 for an empty bag, embdemo -1.
std::string winners_checks(const BagLesson& lesson) {
    std::vector<std::string> rows;
    for (std::size_t b = 0; b < lesson.winners.rows; ++b) {
        std::vector<std::string> row;
        for (std::size_t j = 0; j < lesson.winners.cols; ++j) {
            row.push_back(fmt::format("{}", static_cast<long long>(lesson.winners.at(b, j))));
        }
        rows.push_back(fmt::format("[{}]", fmt::join(row, ", ")));
    }
    std::string out =
        "\n# torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode (2: max), sparse,\n"
        "#                     per_sample_weights, include_last_offset, padding_idx): its 4th result\n"
        "_, _, _, max_indices = torch.embedding_bag(bag.weight, ids, offsets, False, 2, False, None, False, bag.padding_idx)\n"
        "winners = torch.where(torch.tensor(bag_sizes)[:, None] > 0, max_indices, -1)    # -1: an empty bag\n"
        "print(\"the id whose row won each value:\", winners)\n";
    out += wrapped_list("expected_winners = torch.tensor([", rows, "])\n");
    out += "assert torch.equal(winners, expected_winners), \"another row won a value in PyTorch\"\n";
    return out;
}

std::vector<std::string> torch_lines(const BagLesson& lesson) {
    const BagRequest& request = lesson.request;
    const Bags& bags = request.bags;
    const std::vector<std::uint64_t> starts(bags.offsets.begin(), bags.offsets.end() - 1);
    std::vector<std::string> lines = {
        bags_python(request),
        python_ints("ids = torch.tensor(", bags.ids, ", dtype=torch.long)    # every bag's ids, in order"),
        python_ints("offsets = torch.tensor(", starts, ")    # where each bag starts"),
        "starts, ends = offsets.tolist(), offsets.tolist()[1:] + [len(ids)]",
    };
    if (!request.per_sample_weights.empty()) lines.push_back(weights_python(request.per_sample_weights));
    lines.push_back(fmt::format("torch.manual_seed({})", request.seed));
    lines.push_back(fmt::format("bag = torch.nn.EmbeddingBag({}, {}, mode=\"{}\"{})", request.vocab_size, request.dim,
                                bag_mode_name(request.mode),
                                request.padding_idx ? fmt::format(", padding_idx={}", *request.padding_idx) : ""));
    lines.push_back(fmt::format("output = bag(ids, offsets{}).detach()",
                                request.per_sample_weights.empty() ? "" : ", per_sample_weights=per_sample_weights"));
    lines.push_back("print(\"bag(ids, offsets) =\", output)");
    lines.push_back(
        "bag_sizes = [sum(int(k) != bag.padding_idx for k in ids[start:end]) for start, end in zip(starts, ends)]");
    lines.push_back(python_ints("assert bag_sizes == ", std::vector<std::uint64_t>(lesson.bag_sizes.begin(), lesson.bag_sizes.end()),
                                ", \"embdemo counts other bag lengths\""));
    if (request.mode != BagMode::max) {
        lines.push_back("");
        const std::vector<std::string> product = multihot_lines(request);
        lines.insert(lines.end(), product.begin(), product.end());
    }
    return lines;
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

std::vector<SheetTable> bag_tables(const BagRequest& request, const BagLesson* lesson) {
    const std::size_t v = request.vocab_size, d = request.dim, b = request.bags.count();
    const bool is_max = request.mode == BagMode::max;
    const auto of = [lesson](const Matrix BagLesson::*member) { return lesson ? &(lesson->*member) : nullptr; };
    SheetTable weight{"weight", "E = bag.weight", TableRole::weight, {v, d}, of(&BagLesson::weight)};
    weight.selected = used_rows(request.bags.ids);
    weight.selected_what = "the rows the bags use";
    SheetTable output{"output",
                      request.per_sample_weights.empty() ? "bag(input, offsets)" : "bag(input, offsets, per_sample_weights)",
                      TableRole::per_bag, {b, d}, of(&BagLesson::output)};
    output.python = "output";
    output.what = "bag output";
    if (is_max) {
        SheetTable winners{"winners", "the id whose row won each column, -1 in an empty bag", TableRole::per_bag, {b, d},
                           of(&BagLesson::winners)};
        winners.integral = true;
        // The script lists the winners as integers and the weights' bits.
        winners.script_bound = checked_multiply(b, d).value_or(UINT64_MAX);
        return {weight, output, winners};
    }
    SheetTable multihot{"multihot", "M", TableRole::per_bag, {b, v}, of(&BagLesson::multihot)};
    // The script embeds M's used columns only (at most one a distinct id), and the weights.
    multihot.script_bound = checked_multiply(b, std::min<std::uint64_t>(request.bags.ids.size(), v)).value_or(UINT64_MAX) +
                            request.per_sample_weights.size();
    SheetTable in_order{"multihot_matmul", "the in-order M @ E (embdemo's reference arithmetic)", TableRole::per_bag, {b, d},
                        of(&BagLesson::multihot_matmul)};
    in_order.python = "in_order";
    in_order.what = "in-order M @ E (embdemo's reference arithmetic)";
    SheetTable product{"torch_matmul", "M @ E through the BLAS, as PyTorch's @", TableRole::per_bag, {b, d},
                       of(&BagLesson::torch_matmul)};
    product.python = "product";
    product.what = "M @ E";
    return {weight, multihot, output, in_order, product};
}

LessonSheet bag_sheet(const BagLesson& lesson) {
    const BagRequest& request = lesson.request;
    const Bags& bags = request.bags;
    const bool is_max = request.mode == BagMode::max;
    const std::vector<std::uint64_t> offsets(bags.offsets.begin(), bags.offsets.end() - 1);
    const std::string input = fmt::format("[{}]", fmt::join(bags.ids, ", "));
    const std::string starts = fmt::format("[{}]", fmt::join(offsets, ", "));
    LessonSheet sheet;
    sheet.title = fmt::format("EmbeddingBag as a multi-hot product: each bag reduced to one vector ({})",
                              bag_mode_name(request.mode));
    sheet.schema = k_bag_json_schema;
    sheet.ids = &request.windows;  // from a text, the loader's windows: their text, tokens and targets
    sheet.tokens_after = "bags";
    // The header reads bags, vocab, dim, mode, seed, input, offsets; the JSON bags, input,
    // offsets, vocab, ..., seed, mode: a parameter's text or JSON alone keeps each order.
    sheet.parameters = {
        {"bags", format_bags(bags), fmt::format("B = {}, {}", bags.count(), count_of(bags.ids.size(), "id", "ids")),
         ragged_json(bags, bags.ids)},
        {"input", "", "", input},
        {"offsets", "", "", starts},
        {"vocab", group_thousands(request.vocab_size), request.vocab_inferred ? "largest id + 1; set it with --vocab" : "",
         std::to_string(request.vocab_size)},
        {"vocab_inferred", "", "", request.vocab_inferred ? "true" : "false"},
        {"dim", group_thousands(request.dim), "", std::to_string(request.dim)},
        {"seed", "", "", std::to_string(request.seed)},
        {"mode", bag_mode_name(request.mode), "sum, mean (PyTorch's default) or max; --mode",
         json_string(bag_mode_name(request.mode))},
        {"seed", std::to_string(request.seed), "torch.manual_seed, then " + module_text(request), ""},
        {"input", format_ids(bags.ids), "the bags' ids in one list, as bag(input, offsets) takes them", ""},
        {"offsets", format_ids(offsets), "where each bag starts", ""},
        {"padding_idx", "", "", request.padding_idx ? std::to_string(*request.padding_idx) : "null"},
        {"padding_row", "", "", lesson.padding_row ? std::to_string(*lesson.padding_row) : "null"},
        {"per_sample_weights", "", "",
         request.per_sample_weights.empty() ? "null" : ragged_json(bags, request.per_sample_weights)},
    };
    if (lesson.padding_row) {
        sheet.parameters.push_back(
            {"padding", fmt::format("row {}", *lesson.padding_row), "zeroed at init, skipped in every bag", ""});
    }
    if (!request.per_sample_weights.empty()) {
        sheet.parameters.push_back({"weights", format_weights(bags, request.per_sample_weights),
                                    "per_sample_weights: each row scaled before the sum", ""});
    }
    sheet.tables = bag_tables(request, &lesson);

    // The bag and column the closing sentence names stay in view.
    const UlpDifference& diff = lesson.difference;
    const bool named = !is_max && diff.differing > 0;
    std::vector<std::string> bag_labels, zeros_notes, m_labels;
    for (std::size_t b = 0; b < bags.count(); ++b) {
        bag_labels.push_back(bag_label(bags, b));
        zeros_notes.push_back(bag_zeros_note(lesson, b));
        m_labels.push_back(fmt::format("bag {}", b));
    }
    SheetBlock weight = SheetBlock::rows_of(fmt::format("E = bag.weight   {} x {}   > marks the rows the bags use",
                                                        group_thousands(request.vocab_size), group_thousands(request.dim)),
                                            "weight");
    if (lesson.padding_row) {
        weight.notes.assign(request.vocab_size, "");
        weight.notes[*lesson.padding_row] = "padding_idx";
    }
    SheetBlock output = SheetBlock::pair(
        fmt::format("output = bag(input, offsets{}), and {} under it   {} x {}",
                    request.per_sample_weights.empty() ? "" : ", per_sample_weights",
                    is_max ? "the winning id per column" : "the in-order M @ E", group_thousands(bags.count()),
                    group_thousands(request.dim)),
        "output", is_max ? "winners" : "multihot_matmul", is_max ? "max" : "bag", is_max ? "from" : "in order");
    output.labels = bag_labels;
    output.notes = zeros_notes;
    output.group = 1;  // E apart from the outputs, each spelled as PyTorch prints it
    if (named) output.keep_columns = {diff.column};
    if (is_max) {
        output.under_cell = [&lesson](std::size_t b, std::size_t c) {
            const float winner = lesson.winners.at(b, c);
            return winner < 0 ? std::string("-") : std::to_string(static_cast<long long>(winner));
        };
    }
    if (named) sheet.tables[2].selected = {diff.bag};
    if (is_max) {
        sheet.blocks = {weight, output};
    } else {
        SheetBlock multihot = SheetBlock::rows_of(
            fmt::format("M = multi-hot, entry (b, k) = {}{}   {} x {}", multihot_entry(lesson),
                        lesson.padding_row ? "; the padding column is 0" : "", group_thousands(lesson.multihot.rows),
                        group_thousands(lesson.multihot.cols)),
            "multihot");
        multihot.labels = m_labels;
        multihot.group = 2;
        sheet.blocks = {weight, multihot, output};
        sheet.checks = {{"The in-order M @ E and the bag's output", "output", "multihot_matmul",
                         as_comparison(lesson.difference), lesson.output.values.size()}};
        sheet.verdict = verdict_detail(lesson.difference);
    }
    sheet.claims = bag_claims(lesson);
    sheet.fields = {{"bag_sizes", fmt::format("[{}]", fmt::join(lesson.bag_sizes, ", "))}};
    if (!is_max) {
        sheet.fields.push_back({"max_ulps_at", diff.ulps == 0 ? "null"
                                                             : fmt::format("{{\"bag\": {}, \"column\": {}}}", diff.bag,
                                                                           diff.column)});
        sheet.fields.push_back({"torch_matmul_identical", lesson.torch_difference.differing == 0 ? "true" : "false"});
    }
    sheet.trace = [&lesson](const TextOptions& options) { return render_bag_trace(lesson, options); };
    sheet.script_what = "An embedding bag is a multi-hot row times E: nn.EmbeddingBag against M @ bag.weight.";
    sheet.script_run = fmt::format("{} bags, V = {}, d = {}, mode=\"{}\"", bags.count(), request.vocab_size, request.dim,
                                   bag_mode_name(request.mode));
    sheet.script_imports = "import numpy\n";
    sheet.torch_lines = torch_lines(lesson);
    sheet.script_after = is_max ? winners_checks(lesson) : multihot_checks(lesson);
    return sheet;
}

}  // namespace embdemo
