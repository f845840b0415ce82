#include "render/json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "render/number_format.hpp"

namespace embdemo {
namespace {

// JSON has no NaN or infinity; those become the strings "nan", "inf", "-inf".
std::string json_number(float value) {
    const std::string text = shortest_round_trip(value);
    return std::isfinite(value) ? text : '"' + text + '"';
}

std::string json_number(double value) {
    if (std::isnan(value)) return "\"nan\"";
    if (std::isinf(value)) return value > 0 ? "\"inf\"" : "\"-inf\"";
    return fmt::format("{}", value);
}

const char* weight_source_name(const WeightOrigin& origin) {
    switch (origin.kind) {
        case WeightOrigin::Kind::torch: break;
        case WeightOrigin::Kind::torch_randint: return "randint";
        case WeightOrigin::Kind::index_pattern: return "index";
    }
    return "torch";
}

void append_matrix(std::string& out, const char* name, const Matrix& m, bool as_integers) {
    out += fmt::format("  \"{}\": [", name);
    for (std::size_t r = 0; r < m.rows; ++r) {
        out += r ? ",\n    [" : "\n    [";
        for (std::size_t c = 0; c < m.cols; ++c) {
            if (c) out += ", ";
            out += as_integers ? fmt::format("{}", static_cast<int>(m.at(r, c))) : json_number(m.at(r, c));
        }
        out += ']';
    }
    out += m.rows ? "\n  ],\n" : "],\n";
}

}  // namespace

std::string render_json(const DemoReport& report) {
    const DemoRequest& request = report.request;
    std::string out = "{\n";
    out += fmt::format("  \"schema\": \"{}\",\n", k_json_schema);
    out += fmt::format("  \"ids\": [{}],\n", fmt::join(request.ids, ", "));
    out += fmt::format("  \"vocab\": {},\n", request.vocab_size);
    out += fmt::format("  \"vocab_inferred\": {},\n", request.vocab_inferred);
    out += fmt::format("  \"dim\": {},\n", request.dim);
    out += fmt::format("  \"seed\": {},\n", request.seed);
    out += fmt::format("  \"weight_source\": \"{}\",\n", weight_source_name(request.origin));
    append_matrix(out, "weight", report.weight, false);
    append_matrix(out, "onehot", report.onehot, true);
    append_matrix(out, "lookup", report.lookup, false);
    append_matrix(out, "onehot_matmul", report.onehot_matmul, false);
    append_matrix(out, "linear_output", report.linear_output, false);
    out += fmt::format("  \"identical\": {},\n", report.verdict.identical);
    out += fmt::format("  \"differing\": {},\n", report.verdict.differing);
    out += fmt::format("  \"max_abs_diff\": {},\n", json_number(report.verdict.max_abs_diff));
    out += fmt::format("  \"linear_identical\": {}\n", report.linear_verdict.identical);
    out += "}\n";
    return out;
}

}  // namespace embdemo
