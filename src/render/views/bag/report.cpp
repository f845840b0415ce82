#include "render/views/bag/report.hpp"

#include <fmt/format.h>

#include "render/kit/json_text.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {
namespace {

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

}  // namespace

LessonReport bag_report(const BagLesson& lesson) {
    const BagRequest& request = lesson.request;
    const Bags& bags = request.bags;
    const bool is_max = request.mode == BagMode::max;
    const std::vector<std::size_t> offsets(bags.offsets.begin(), bags.offsets.end() - 1);
    LessonReport report;
    report.head = {
        {"schema", json_string(k_bag_json_schema)},
        {"bags", ragged_json(bags, bags.ids)},
        {"input", fmt::format("[{}]", fmt::join(bags.ids, ", "))},
        {"offsets", fmt::format("[{}]", fmt::join(offsets, ", "))},
        {"vocab", std::to_string(request.vocab_size)},
        {"vocab_inferred", request.vocab_inferred ? "true" : "false"},
        {"dim", std::to_string(request.dim)},
        {"seed", std::to_string(request.seed)},
        {"mode", json_string(bag_mode_name(request.mode))},
        {"padding_idx", request.padding_idx ? std::to_string(*request.padding_idx) : "null"},
        {"padding_row", lesson.padding_row ? std::to_string(*lesson.padding_row) : "null"},
        {"per_sample_weights",
         request.per_sample_weights.empty() ? "null" : ragged_json(bags, request.per_sample_weights)},
    };
    // From a text: the text, tokens, targets and loader, after "bags" (add_id_source looks for "ids").
    if (request.windows.source.from_text()) {
        LessonReport text;
        text.head = {{"ids", ""}};
        add_id_source(text, request.windows);
        report.head.insert(report.head.begin() + 2, text.head.begin() + 1, text.head.end());
    }
    const std::size_t b = bags.count();
    const std::size_t v = request.vocab_size;
    const std::size_t d = request.dim;
    report.tables.push_back({"weight", "E = bag.weight", &lesson.weight, {v, d}, false});
    if (!is_max) report.tables.push_back({"multihot", "M", &lesson.multihot, {b, v}, false});
    const char* output_formula = request.per_sample_weights.empty() ? "bag(input, offsets)"
                                                                     : "bag(input, offsets, per_sample_weights)";
    report.tables.push_back({"output", output_formula, &lesson.output, {b, d}, false});
    if (!is_max) {
        report.tables.push_back({"multihot_matmul", "the in-order M @ E (embdemo's reference arithmetic)",
                                 &lesson.multihot_matmul, {b, d}, false});
        report.tables.push_back({"torch_matmul", "M @ E through the BLAS, as PyTorch's @", &lesson.torch_matmul,
                                 {b, d}, false});
    } else {
        report.tables.push_back({"winners", "the id whose row won each column, -1 in an empty bag", &lesson.winners,
                                 {b, d}, true});
    }
    report.checks = {{"bag_sizes", fmt::format("[{}]", fmt::join(lesson.bag_sizes, ", "))}};
    if (!is_max) {
        const UlpDifference& diff = lesson.difference;
        report.checks.push_back({"identical", diff.ulps == 0 ? "true" : "false"});
        report.checks.push_back({"differing", std::to_string(diff.differing)});
        report.checks.push_back({"max_ulps", std::to_string(diff.ulps)});
        report.checks.push_back({"max_ulps_at", diff.ulps == 0 ? "null"
                                                               : fmt::format("{{\"bag\": {}, \"column\": {}}}", diff.bag,
                                                                             diff.column)});
        const UlpDifference& torch_diff = lesson.torch_difference;
        report.checks.push_back({"torch_matmul_identical", torch_diff.differing == 0 ? "true" : "false"});
        report.checks.push_back({"torch_matmul_differing", std::to_string(torch_diff.differing)});
    }
    return report;
}

std::uint64_t bag_report_values(const BagRequest& request) {
    const std::uint64_t v = request.vocab_size, d = request.dim, b = request.bags.count();
    // weight and output; M, the in-order M @ E and the BLAS's (sum, mean) or the winners (max)
    if (request.mode == BagMode::max) return v * d + 2 * b * d;
    return v * d + b * v + 3 * b * d;
}

}  // namespace embdemo
