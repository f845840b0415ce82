// ALiBi's part of the positions sheet: its slopes, its bias as a frozen lookup by distance, and
// the formulations that models use, which give the same probabilities and different score bits.
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/limits.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/python_kit.hpp"
#include "render/views/positions/parts.hpp"

namespace embdemo {
namespace {

bool power_of_two(std::size_t n) { return (n & (n - 1)) == 0; }

// "0.5, 0.25, ..., 0.00390625": the slopes, the first four and the last when there are many.
std::string slope_list(const std::vector<float>& slopes) {
    std::vector<std::string> shown;
    for (std::size_t h = 0; h < slopes.size(); ++h) {
        if (slopes.size() <= 6 || h < 4 || h + 1 == slopes.size()) shown.push_back(fmt::format("{}", slopes[h]));
        if (slopes.size() > 6 && h == 4) shown.push_back("...");
    }
    return fmt::format("{}", fmt::join(shown, ", "));
}

std::string slopes_rule(std::size_t heads) {
    if (power_of_two(heads)) {
        return fmt::format("H = {} is a power of two: m_h = 2^(-8h/H) for h = 1..{}", heads, heads);
    }
    std::size_t closest = 1;
    while (closest * 2 < heads) closest *= 2;
    return fmt::format("H = {} is no power of two, so the paper's rule: the {} slopes of H = {}, then every other "
                       "slope of H = {}",
                       heads, closest, closest, 2 * closest);
}

std::string slopes_json(const std::vector<float>& slopes) {
    std::vector<std::string> cells;
    for (const float slope : slopes) cells.push_back(json_number(slope));
    return fmt::format("[{}]", fmt::join(cells, ", "));
}

// The slopes re-derived from their closed form, 2^(-8h/c) (and 2^(-4(2i+1)/c) for the extra
// heads): within one float32 ulp of the paper's products of powers.
bool slopes_hold(const std::vector<float>& slopes) {
    const std::size_t heads = slopes.size();
    std::size_t closest = 1;
    while (closest * 2 <= heads) closest *= 2;
    for (std::size_t h = 0; h < heads; ++h) {
        const double exponent = h < closest ? -8.0 * static_cast<double>(h + 1) / static_cast<double>(closest)
                                            : -4.0 * static_cast<double>(2 * (h - closest) + 1) / static_cast<double>(closest);
        const float expected = static_cast<float>(std::exp2(exponent));
        if (std::abs(slopes[h] - expected) > std::abs(expected) * 1.2e-7f) return false;
    }
    return true;
}

// "12 differ in their bits from BLOOM's", "none differs ...", "all 24 differ ...".
std::string differ_words(std::size_t differing, std::size_t total, const char* whose) {
    if (differing == 0) return fmt::format("none differs in its bits from {}", whose);
    if (differing == total) return fmt::format("{} differ in their bits from {}", total == 1 ? "the only one" : "all", whose);
    return fmt::format("{} {} in {} bits from {}", group_thousands(differing), differing == 1 ? "differs" : "differ",
                       differing == 1 ? "its" : "their", whose);
}

}  // namespace

std::vector<SheetClaim> alibi_claims(const PositionsLesson& lesson) {
    const AlibiBias& alibi = *lesson.alibi;
    const std::size_t heads = alibi.slopes.cols;
    const std::size_t seq = lesson.request.ids.seq;
    SheetClaim bias{
        fmt::format("ALiBi adds nothing to the rows: head h adds m_h * (j - i) to the score of query i and key j <= i "
                    "(0 on the diagonal; a key after its query is masked to -inf), which is the lookup D[i - j] "
                    "above, frozen: no parameter, no gradient. Slopes ({}): {}.",
                    slopes_rule(heads), slope_list(alibi.slopes.values)),
        "alibi_slopes", slopes_json(alibi.slopes.values),
        "full = slopes[:, None, None] * (torch.arange(T)[None, None, :] - torch.arange(T)[None, :, None])\n"
        "rows, cols = torch.tensor([i for i, j in pairs]), torch.tensor([j for i, j in pairs])\n"
        "assert same_bits(full[:, rows, cols].T, bias), \"m * (j - i) differs from the lookup D[i - j]\"\n",
        [&alibi, seq] {
            if (!slopes_hold(alibi.slopes.values) || alibi.distances.rows != seq) return false;
            for (std::size_t p = 0; p < alibi.pair_distance.size(); ++p) {
                for (std::size_t h = 0; h < alibi.slopes.cols; ++h) {
                    const float expected = alibi.slopes.values[h] * static_cast<float>(-static_cast<std::int64_t>(alibi.pair_distance[p]));
                    const float got = alibi.bias.at(p, h);
                    if (std::memcmp(&expected, &got, sizeof expected) != 0) return false;
                }
            }
            return alibi.pair_distance.size() == causal_pairs(seq);
        }};
    bias.paragraph = true;
    const std::string probabilities =
        alibi.widest_probability_gap == 0.0
            ? std::string("the probabilities are the same to the last bit")
            : fmt::format("the probabilities agree within {:.1e}", alibi.widest_probability_gap);
    SheetClaim variants{
        fmt::format("BLOOM adds m_h * j and MPT m_h * (j - (T - 1)) instead: along a query row each differs from "
                    "m_h * (j - i) by a constant, which softmax removes. Biasing the dot products of the first "
                    "sequence's token rows (the rows themselves as queries and keys, no 1/sqrt(d)) each way: of the {} "
                    "causal scores, {}, and {}; {} (softmax in double).",
                    group_thousands(alibi.compared_scores), differ_words(alibi.differing_bloom, alibi.compared_scores, "BLOOM's"),
                    differ_words(alibi.differing_mpt, alibi.compared_scores, "MPT's"), probabilities),
        "alibi_variants",
        fmt::format("{{\"compared_scores\": {}, \"differing_bloom\": {}, \"differing_mpt\": {}, "
                    "\"widest_probability_gap\": {}}}",
                    alibi.compared_scores, alibi.differing_bloom, alibi.differing_mpt,
                    json_number(alibi.widest_probability_gap)),
        fmt::format("first = tokens.reshape(-1, T, D)[0]    # the first sequence's rows\n"
                    "scores = torch.nn.functional.linear(first, first)    # q . k = x @ x.T\n"
                    "i_, j_ = torch.arange(T)[:, None], torch.arange(T)[None, :]\n"
                    "forms = {{\"ours\": j_ - i_, \"bloom\": j_ + 0 * i_, \"mpt\": j_ - (T - 1) + 0 * i_}}\n"
                    "biased = {{name: scores[None] + slopes[:, None, None] * form[None] for name, form in forms.items()}}\n"
                    "causal = (j_ <= i_).expand(H, T, T)\n"
                    "differing = {{name: int((b.view(torch.int32) != biased[\"ours\"].view(torch.int32))[causal].sum())\n"
                    "             for name, b in biased.items()}}\n"
                    "gap = max(abs(p - q) for name in (\"bloom\", \"mpt\") for h in range(H) for i in range(T)\n"
                    "          for p, q in zip(softmax_row(biased[\"ours\"][h, i, :i + 1].tolist()),\n"
                    "                          softmax_row(biased[name][h, i, :i + 1].tolist())))\n"
                    "assert differing[\"bloom\"] == {}, \"embdemo counts other differing bits against BLOOM's form\"\n"
                    "assert differing[\"mpt\"] == {}, \"embdemo counts other differing bits against MPT's form\"\n"
                    "assert gap == {}, \"embdemo finds another gap between the probabilities\"\n",
                    alibi.differing_bloom, alibi.differing_mpt, python_double(alibi.widest_probability_gap)),
        [&alibi] {
            return alibi.differing_bloom <= alibi.compared_scores && alibi.differing_mpt <= alibi.compared_scores &&
                   alibi.widest_probability_gap < 1e-5;
        }};
    return {bias, variants};
}

std::vector<std::string> alibi_torch_lines(const PositionsLesson& lesson) {
    return {
        fmt::format("H = {}    # ALiBi's heads", lesson.alibi->slopes.cols),
        "slopes = torch.tensor(get_slopes(H))    # m_h, float32: the paper's doubles rounded once",
        "slope_row = slopes[None, :]    # 1 x H, as embdemo holds them",
        "distances = slopes[None, :] * (-torch.arange(T))[:, None]    # D[k, h] = m_h * (-k): frozen, no parameter",
        "pairs = [(i, j) for i in range(T) for j in range(i + 1)]    # each query i and key j <= i",
        "distance = torch.tensor([i - j for i, j in pairs])",
        "bias = torch.nn.functional.embedding(distance, distances)    # the lookup D[i - j], P x H",
        "bias_onehot = torch.nn.functional.one_hot(distance, T).float() @ distances",
        "output = tokens    # ALiBi leaves the rows as they are",
    };
}

}  // namespace embdemo
