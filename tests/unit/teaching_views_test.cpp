#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/gpt2/data_loader.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/torch/init.hpp"
#include "core/lessons/report.hpp"
#include "render/views/text.hpp"
#include "render/views/trace.hpp"
#include "render/views/walkthrough.hpp"
#include "gpt2_vocabulary.hpp"
#include "text_checks.hpp"

using namespace embdemo;
using embdemo::testing::contains;
using embdemo::testing::widest_line;

namespace {

std::string joined(const std::vector<std::string>& steps) {
    std::string text;
    for (const auto& step : steps) text += step;
    return text;
}

// A 4 x 3 table with inf at E[1,0], nan at E[2,1] and -0.0 at E[0,2], as a weights file could
// hold it: the lookup and the product differ in several places, for different reasons.
DemoReport unusual_report(TokenIds ids) {
    Matrix weight(4, 3);
    weight.values = {0.1f, 0.2f, -0.0f, INFINITY, 1, 2, 3, NAN, 4, 5, 6, 7};
    DemoRequest request;
    request.ids = std::move(ids);
    request.vocab_size = 4;
    request.dim = 3;
    request.origin.kind = WeightOrigin::Kind::file;
    request.origin.detail = "unusual.csv";
    return build_demo_report(request, weight);
}

// The lines of `text` that contain `part`.
std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
    std::vector<std::string> found;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
        const std::string line = text.substr(start, end - start);
        if (contains(line, part)) found.push_back(line);
    }
    return found;
}

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
    CHECK(steps[1].rfind("Position ids[3] of 4: id 0", 0) == 0);
    CHECK(steps[2].rfind("Position ids[1] of 4: id 3", 0) == 0);
}

TEST_CASE("the trace points out a repeated id") {
    const DemoReport report = torch_report({2, 0, 2}, 4, 3);
    const TraceLayout layout = trace_layout(report, 4);
    CHECK(render_trace_position(report, 2, layout, TextOptions{}).find("was already at position ids[0]") !=
          std::string::npos);
    CHECK(render_trace_position(report, 1, layout, TextOptions{}).find("already") == std::string::npos);
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

TEST_CASE("a walkthrough from a text starts with its pieces and the loader's windows, one step more") {
    const Gpt2Vocabulary& vocab = testing::gpt2_vocabulary();
    // 8 tokens: " \xf0\x9f" "\xa6" "\x99" hold parts of the llama; windows of 2 every 2 ids.
    IdBatch tokens;
    tokens.source.text = "one two \U0001F999 three four five";
    tokens.values = encode_gpt2(vocab, tokens.source.text);
    tokens.seq = tokens.values.size();
    tokens.source.token_of = [&vocab](std::uint64_t id) { return token_label(vocab.bytes(id)); };
    REQUIRE(tokens.values.size() == 8);
    const LoaderBatch loaded = first_loader_batch(tokens, {2, 2, 2}).value();
    DemoRequest request;
    request.ids = loaded.inputs.values;
    request.shape = loaded.inputs.shape();
    request.source = loaded.inputs.source;
    request.source.loader = {2, 2, 2, loaded.windows, loaded.targets};
    request.vocab_size = 50257;
    request.dim = 2;
    const DemoReport report = build_demo_report(request, torch_embedding_weight(50257, 2, 123));
    const auto steps = render_walkthrough(report, torch_linear_weight(50257, 2, 123), TextOptions{}, &vocab);
    REQUIRE(steps.size() == 8);
    CHECK(steps[0].rfind("Step 1 of 8: the text, cut into token ids", 0) == 0);
    CHECK(contains(steps[0], "6 pieces"));
    CHECK(contains(steps[0], "8 tokens in all"));
    CHECK(contains(steps[0], "5 of the 6 pieces are whole tokens; 1 is split, the most into 3 tokens"));
    CHECK(contains(steps[0], "3 tokens hold only part of a character"));
    // range(0, 8 - 2, 2): windows at 0, 2, 4; one batch of 2, the third window dropped.
    CHECK(contains(steps[0], "3 windows, starting at positions 0, 2, 4"));
    CHECK(contains(steps[0], "1 batch, and drop_last=True drops the last window"));
    CHECK(contains(steps[0], "targets[1] "));
    CHECK(contains(steps[1], "idx = inputs"));
    CHECK(contains(joined(steps), "Next to the lookup from step 4:"));
    CHECK(widest_line(steps) <= 80);
    // Without the vocabulary (or a text) the notebook's seven steps are what they were.
    CHECK(render_walkthrough(report, torch_linear_weight(50257, 2, 123), TextOptions{}).size() == 7);
}

TEST_CASE("the walkthrough calls the numbers the notebook's only for the notebook's table") {
    const auto notebook = render_walkthrough(torch_report({2, 3, 1}, 4, 5), torch_linear_weight(4, 5, 123),
                                             TextOptions{});
    CHECK(contains(notebook[1], "the very numbers the notebook prints"));

    DemoRequest request;
    request.ids = {2, 3, 1};
    request.vocab_size = 10;
    request.dim = 5;
    request.seed = 7;
    const DemoReport other = build_demo_report(request, torch_embedding_weight(10, 5, 7));
    const auto steps = render_walkthrough(other, torch_linear_weight(10, 5, 7), TextOptions{});
    CHECK_FALSE(contains(joined(steps), "notebook prints"));
    CHECK(contains(steps[1], "torch.manual_seed(7)"));
    CHECK(contains(steps[1], "seed 7 and a 10 x 5 table"));
}

TEST_CASE("the walkthrough's code that loads a weight file fits 80 columns") {
    // Found by tests/fuzz/fuzz_pipeline: the one-line torch.tensor(numpy.loadtxt(...)) took 105.
    const DemoReport report = unusual_report({2, 3, 1});
    const auto steps = render_walkthrough(report, torch_linear_weight(4, 3, 123), TextOptions{});
    for (const std::string& step : steps) {
        std::size_t start = 0;
        while (start < step.size()) {
            const std::size_t end = std::min(step.find('\n', start), step.size());
            CAPTURE(step.substr(start, end - start));
            CHECK(end - start <= 80);
            start = end + 1;
        }
    }
}

TEST_CASE("the walkthrough of a file whose results differ says so in every step") {
    const DemoReport report = unusual_report({2, 3, 1});
    const auto steps = render_walkthrough(report, torch_linear_weight(4, 3, 123), TextOptions{});
    REQUIRE(steps.size() == 7);
    CHECK_FALSE(contains(steps[1], "manual_seed"));
    CHECK(contains(steps[1], "E = torch.tensor("));
    CHECK(contains(steps[1], "numpy.loadtxt(\"unusual.csv\""));
    CHECK(contains(steps[0], "comes with the file"));
    CHECK(contains(steps[5], "Step 6 of 7: the product differs from the lookup"));
    CHECK_FALSE(contains(steps[5], "Why they agree"));
    CHECK(contains(steps[5], "verdict: DIFFERENT"));
    CHECK_FALSE(contains(steps[6], "Same numbers"));
    CHECK(contains(steps[6], "for weights without -0.0, inf or nan"));
}

TEST_CASE("the walkthrough looks up ids in the notebook's order: the last, the first, then all") {
    const auto steps = render_walkthrough(torch_report({2, 3, 1}, 4, 5), torch_linear_weight(4, 5, 123),
                                          TextOptions{});
    const std::string& lookup = steps[2];
    const auto first = lookup.find("embedding(torch.tensor([1]))");
    const auto second = lookup.find("embedding(torch.tensor([2]))");
    const auto all = lookup.find("embedding(idx)");
    CHECK(first < second);
    CHECK(second < all);
    CHECK(all != std::string::npos);
}

TEST_CASE("step 5 marks the columns of W that the ids pick") {
    const auto steps = render_walkthrough(torch_report({2, 0, 2}, 4, 5), torch_linear_weight(4, 5, 123),
                                          TextOptions{});
    const auto marks = lines_with(steps[4], "^");
    REQUIRE(marks.size() == 2);  // the legend in the title, and the marks under the columns
    const std::string& line = marks[1];
    const auto header = lines_with(steps[4], "       0       1       2       3");
    REQUIRE(header.size() == 1);
    // Under column k's right edge: a mark for 0 and 2, none for 1 and 3.
    for (const std::size_t k : {0, 1, 2, 3}) {
        const std::size_t right_edge = header[0].find(std::to_string(k) + (k == 3 ? "" : " "));
        REQUIRE(right_edge != std::string::npos);
        const bool marked = right_edge < line.size() && line[right_edge] == '^';
        CHECK(marked == (k == 0 || k == 2));
    }
}

TEST_CASE("the trace explains every differing value and claims agreement only where bits agree") {
    const DemoReport report = unusual_report({2, 3, 1});
    const std::string trace = joined(render_trace(report, {}, TextOptions{}));
    // Position 1 (id 3): column 0 is poisoned by inf in E[1,0], column 1 by nan in E[2,1].
    const std::string position1 = render_trace_position(report, 1, trace_layout(report, 4), TextOptions{});
    CHECK(contains(position1, "column 1 differs too, because E[2, 1] is nan"));
    CHECK(contains(position1, "column 2 agrees"));
    // Position 0 (id 2): column 1 holds nan in both results with the same bits, column 2 agrees.
    const std::string position0 = render_trace_position(report, 0, trace_layout(report, 4), TextOptions{});
    CHECK(contains(position0, "the other 2 columns agree bit for bit"));
    CHECK_FALSE(contains(position0, "multiplied by 1"));
    CHECK_FALSE(contains(trace, "]["));  // one index notation: E[k,j]
}

TEST_CASE("each tensor is spelled as PyTorch prints it: E in scientific, the lookup in fixed, same columns") {
    // print(E) for GPT-2's table spans more than 1000x: scientific; print(E[ids]) of these three
    // rows does not (0.0011 to 0.8329): fixed, "0.0011", as PyTorch prints it.
    const DemoReport report = torch_report({5, 40000, 50256}, 50257, 768);
    const TraceLayout layout = trace_layout(report, 4);
    const std::string trace = joined(render_trace(report, {}, TextOptions{}));
    CHECK(lines_with(trace, "1.1364e-03 -7.5320e-01").size() >= 2);  // E's row 50256, E[50256] traced
    CHECK(lines_with(trace, "0.0011 -0.7532").size() >= 3);          // the result, lookup and product
    CHECK(layout.screen.format_of(report.weight).mode == NumberFormat::Mode::scientific);
    CHECK(layout.screen.format_of(report.lookup).mode == NumberFormat::Mode::fixed);
    const std::string text = render_text(report, TextOptions{});
    CHECK(lines_with(text, "1.1364e-03 -7.5320e-01 ...").size() == 1);  // E's row
    CHECK(lines_with(text, "0.0011 -0.7532 ...").size() == 2);          // the lookup and the product
    CHECK(widest_line(render_trace(report, {}, TextOptions{})) <= 80);
}
