// --format python for `embdemo bag`: nn.EmbeddingBag on this run's bags, and the multi-hot
// matrix M with M @ bag.weight beside it. The script re-checks, from PyTorch's own tensors, the
// bag's output, M, PyTorch's M @ E and embdemo's in-order M @ E (its reference arithmetic, one
// rounded product and one addition per k), and every count the lesson states about their
// differences (values, ulps, signs of zero, non-finite pairs); for max, which row won each value.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/python_kit.hpp"
#include "render/views/python_script.hpp"
#include "render/views/bag/view.hpp"

namespace embdemo {
namespace {

std::string bags_python(const BagRequest& request) {
    std::vector<std::string> bags;
    for (std::size_t b = 0; b < request.bags.count(); ++b) {
        std::vector<std::string> ids;
        for (std::size_t i = request.bags.offsets[b]; i < request.bags.offsets[b + 1]; ++i) {
            ids.push_back(std::to_string(request.bags.ids[i]));
        }
        bags.push_back(fmt::format("[{}]", fmt::join(ids, ", ")));
    }
    return wrapped_list("bags = [", bags, "]\n");
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
                        fmt::format("], ({},))), \"a weight reads back as another float32\"\n", weights.size()));
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

std::string multihot_python(const BagLesson& lesson) {
    const BagRequest& request = lesson.request;
    const std::string scale = request.per_sample_weights.empty() ? "1.0" : "per_sample_weights[i]";
    std::string out = fmt::format(
        "# M, one row per bag: M[b, k] = how often k is in bag b{}{}, the padding row left out.\n"
        "M = torch.zeros({}, {})\n"
        "for b, (start, end) in enumerate(zip(starts, ends)):\n"
        "    for i in range(start, end):\n"
        "        if int(ids[i]) != bag.padding_idx:\n"
        "            M[b, ids[i]] += {}\n",
        request.per_sample_weights.empty() ? "" : " (the sum of its weights, in bag order)",
        request.mode == BagMode::mean ? ", divided by the bag's length" : "", request.bags.count(),
        request.vocab_size, scale);
    if (request.mode == BagMode::mean) out += "    if bag_sizes[b] > 0:\n        M[b] /= bag_sizes[b]\n";
    out += "product = M @ bag.weight.detach()    # PyTorch's M @ E\n";
    out += "# embdemo's reference M @ E: for k in order, each M[b, k] * E[k] rounded, then added from +0.\n";
    out += fmt::format("in_order = torch.zeros({}, {})\n", request.bags.count(), request.dim);
    out += fmt::format("for k in range({}):\n    in_order = in_order + M[:, k:k + 1] * bag.weight.detach()[k]\n",
                       request.vocab_size);
    out += "print(\"M @ bag.weight =\", product)\n\n";
    const std::set<std::uint64_t> used(request.bags.ids.begin(), request.bags.ids.end());
    const std::vector<std::uint64_t> columns(used.begin(), used.end());
    Matrix m_used(lesson.multihot.rows, columns.size());
    for (std::size_t b = 0; b < m_used.rows; ++b) {
        for (std::size_t c = 0; c < columns.size(); ++c) m_used.at(b, c) = lesson.multihot.at(b, columns[c]);
    }
    out += python_ints("columns = torch.tensor(", columns, ", dtype=torch.long)    # the ids the bags use\n");
    out += "M_used = M[:, columns]\n";
    out += expect_bits("M_used", m_used, "M");
    out += "others = torch.ones(M.shape[1], dtype=torch.bool)\nothers[columns] = False\n";
    out += "assert (M[:, others].view(torch.int32) == 0).all(), \"M has a value in a column no bag uses\"\n";
    out += expect_bits("product", lesson.torch_matmul, "M @ E");
    out += expect_bits("in_order", lesson.multihot_matmul, "in-order M @ E (embdemo's reference arithmetic)");
    out += difference_asserts("product", lesson.torch_difference, "PyTorch's M @ E");
    out += difference_asserts("in_order", lesson.difference, "the in-order M @ E");
    return out;
}

// max: which id won each value; torch's max_indices say 0 for an empty bag, embdemo -1.
std::string winners_python(const BagLesson& lesson) {
    std::vector<std::string> rows;
    for (std::size_t b = 0; b < lesson.winners.rows; ++b) {
        std::vector<std::string> row;
        for (std::size_t j = 0; j < lesson.winners.cols; ++j) {
            row.push_back(fmt::format("{}", static_cast<long long>(lesson.winners.at(b, j))));
        }
        rows.push_back(fmt::format("[{}]", fmt::join(row, ", ")));
    }
    std::string out =
        "# torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode (2: max), sparse,\n"
        "#                     per_sample_weights, include_last_offset, padding_idx): its 4th result\n"
        "_, _, _, max_indices = torch.embedding_bag(bag.weight, ids, offsets, False, 2, False, None, False, bag.padding_idx)\n"
        "winners = torch.where(torch.tensor(bag_sizes)[:, None] > 0, max_indices, -1)    # -1: an empty bag\n"
        "print(\"the id whose row won each value:\", winners)\n";
    out += wrapped_list("expected_winners = torch.tensor([", rows, "])\n");
    out += "assert torch.equal(winners, expected_winners), \"another row won a value in PyTorch\"\n";
    return out;
}

}  // namespace

std::string render_bag_python(const BagLesson& lesson) {
    const BagRequest& request = lesson.request;
    const Bags& bags = request.bags;
    const char* mode = bag_mode_name(request.mode);
    std::string out = python_preamble(
        "An embedding bag is a multi-hot row times E: nn.EmbeddingBag against M @ bag.weight.",
        fmt::format("{} bags, V = {}, d = {}, mode=\"{}\"", bags.count(), request.vocab_size, request.dim, mode),
        "import numpy\n", true);
    out += bags_python(request);
    out += python_ints("ids = torch.tensor(", bags.ids, ", dtype=torch.long)    # every bag's ids, in order\n");
    const std::vector<std::uint64_t> starts(bags.offsets.begin(), bags.offsets.end() - 1);
    out += python_ints("offsets = torch.tensor(", starts, ")    # where each bag starts\n");
    out += "starts, ends = offsets.tolist(), offsets.tolist()[1:] + [len(ids)]\n";
    if (!request.per_sample_weights.empty()) out += weights_python(request.per_sample_weights);
    out += fmt::format("torch.manual_seed({})\n", request.seed);
    out += fmt::format("bag = torch.nn.EmbeddingBag({}, {}, mode=\"{}\"{})\n", request.vocab_size, request.dim, mode,
                       request.padding_idx ? fmt::format(", padding_idx={}", *request.padding_idx) : "");
    out += fmt::format("output = bag(ids, offsets{}).detach()\n",
                       request.per_sample_weights.empty() ? "" : ", per_sample_weights=per_sample_weights");
    out += "print(\"bag(ids, offsets) =\", output)\n";
    out += "bag_sizes = [sum(int(k) != bag.padding_idx for k in ids[start:end]) for start, end in zip(starts, ends)]\n";
    out += python_ints("assert bag_sizes == ", std::vector<std::uint64_t>(lesson.bag_sizes.begin(), lesson.bag_sizes.end()),
                       ", \"embdemo counts other bag lengths\"\n");
    out += expect_bits("output", lesson.output, "bag output") + '\n';
    if (request.mode == BagMode::max) {
        out += winners_python(lesson);
    } else {
        out += multihot_python(lesson);
    }
    const std::string verdict =
        request.mode == BagMode::max
            ? "max has no matrix form"
            : lesson.torch_difference.differing == 0
                  ? "M @ bag.weight is identical to it"
                  : fmt::format("M @ bag.weight differs in {} by up to {}, as embdemo says",
                                count_of(lesson.torch_difference.differing, "value", "values"),
                                count_of(lesson.torch_difference.ulps, "ulp", "ulps"));
    out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit: {} {}; {}.\")\n",
                       bags.count() == 1 ? "the bag's" : fmt::format("the {} bags'", bags.count()),
                       request.mode == BagMode::max ? "maxima and the rows that won them" : "outputs and M", verdict);
    return out;
}

std::uint64_t bag_script_values(const BagRequest& request) {
    const std::uint64_t v = request.vocab_size, d = request.dim, b = request.bags.count();
    const std::uint64_t ids = request.bags.ids.size();
    // output and the per-sample weights; then the winners (max), or M's used columns (at most
    // one a distinct id), M @ E and the in-order M @ E
    const std::uint64_t used_columns = std::min(ids, v);
    const std::uint64_t weights = request.per_sample_weights.size();
    if (request.mode == BagMode::max) return 2 * b * d + weights;
    return b * d + weights + b * used_columns + 2 * b * d;
}

}  // namespace embdemo
