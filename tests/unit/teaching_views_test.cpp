#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/init.hpp"
#include "core/report.hpp"
#include "render/trace.hpp"
#include "render/walkthrough.hpp"

using namespace embdemo;

namespace {

DemoReport torch_report(TokenIds ids, std::size_t vocab, std::size_t dim) {
    DemoRequest request;
    request.ids = std::move(ids);
    request.vocab_size = vocab;
    request.dim = dim;
    return build_demo_report(request, torch_embedding_weight(vocab, dim, request.seed));
}

std::size_t count_lines(const std::vector<std::string>& steps) {
    std::size_t lines = 0;
    for (const auto& step : steps) lines += std::count(step.begin(), step.end(), '\n');
    return lines;
}

std::size_t widest_line(const std::vector<std::string>& steps) {
    std::size_t widest = 0;
    for (const auto& step : steps) {
        std::size_t start = 0;
        for (std::size_t end; (end = step.find('\n', start)) != std::string::npos; start = end + 1) {
            widest = std::max(widest, end - start);
        }
    }
    return widest;
}

}  // namespace

TEST_CASE("a trace over GPT-2's vocabulary stays short and fits 80 columns") {
    const DemoReport report = torch_report({5, 40000, 50256}, 50257, 64);
    const auto steps = render_trace(report, {}, TextOptions{});
    CHECK(steps.size() == 5);  // header, three positions, results
    CHECK(count_lines(steps) < 90);
    CHECK(widest_line(steps) <= 80);
}

TEST_CASE("a trace of many ids traces the first eight and says how many it left out") {
    TokenIds ids(40);
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = i;
    const auto steps = render_trace(torch_report(ids, 40, 4), {}, TextOptions{});
    CHECK(steps.size() == 2 + k_default_traced_positions);
    CHECK(steps.back().find("32 more positions not traced") != std::string::npos);
}

TEST_CASE("a trace of chosen positions traces exactly those, in the order given") {
    const auto steps = render_trace(torch_report({2, 3, 1, 0}, 4, 5), {3, 1}, TextOptions{});
    REQUIRE(steps.size() == 4);
    CHECK(steps[1].rfind("Position 3 of 4: id 0", 0) == 0);
    CHECK(steps[2].rfind("Position 1 of 4: id 3", 0) == 0);
}

TEST_CASE("the trace points out a repeated id") {
    const DemoReport report = torch_report({2, 0, 2}, 4, 3);
    CHECK(render_trace_position(report, 2, TextOptions{}).find("was already at position 0") !=
          std::string::npos);
    CHECK(render_trace_position(report, 1, TextOptions{}).find("already") == std::string::npos);
}

TEST_CASE("the walkthrough has the notebook's seven steps and fits 80 columns") {
    const DemoReport report = torch_report({2, 3, 1}, 4, 5);
    const auto steps = render_walkthrough(report, torch_linear_weight(4, 5, 123), TextOptions{});
    REQUIRE(steps.size() == 7);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        CHECK(steps[i].rfind("Step " + std::to_string(i + 1) + " of 7", 0) == 0);
    }
    CHECK(widest_line(steps) <= 80);
    // nn.Linear(4, 5)'s own weights after torch.manual_seed(123), as the notebook prints them.
    CHECK(steps[4].find("-0.2039  0.0166 -0.2483  0.1886") != std::string::npos);
}
