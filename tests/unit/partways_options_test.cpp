// --max-norm, --norm-type, grad's --sparse and --top (issue #15): what is accepted, and every
// hostile value refused with one message naming the option and what is allowed.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/options.hpp"

using namespace embdemo;

namespace {

CommandLine parse(std::vector<const char*> args) {
    args.insert(args.begin(), "embdemo");
    return parse_command_line(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("--max-norm and --norm-type reach the lookup lesson and grad") {
    const CommandLine lookup = parse({"--ids", "1,2", "--dim", "3", "--max-norm", "0.5", "--norm-type", "inf"});
    REQUIRE(lookup.run);
    REQUIRE(lookup.options.max_norm);
    CHECK(lookup.options.max_norm->max_norm == 0.5);
    CHECK(std::isinf(lookup.options.max_norm->norm_type));
    const CommandLine grad = parse({"grad", "--ids", "1,2", "--dim", "3", "--max-norm", "2", "--sparse", "--top", "2"});
    REQUIRE(grad.run);
    CHECK(grad.options.max_norm->norm_type == 2.0);  // nn.Embedding's default
    CHECK(grad.options.grad.sparse);
    CHECK(grad.options.grad.top == 2);
    const CommandLine small = parse({"grad", "--ids", "1", "--dim", "3"});
    REQUIRE(small.run);
    CHECK(small.options.grad.top == 2);  // min(3, V) with V = 2
    CHECK_FALSE(small.options.max_norm);
}

TEST_CASE("hostile --max-norm, --norm-type, --sparse and --top values are refused") {
    struct Bad {
        std::vector<const char*> args;
        const char* message;
    };
    const Bad cases[] = {
        {{"--ids", "1", "--dim", "2", "--max-norm", "0"}, "--max-norm \"0\": is not positive"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "-0.5"}, "--max-norm \"-0.5\": is not positive"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "nan"}, "--max-norm \"nan\": is not finite"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "inf"}, "--max-norm \"inf\": is not finite"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "1e999"}, "--max-norm \"1e999\": is out of range"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "0x1p3"}, "is not a decimal number"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "1,5"}, "is not a decimal number"},
        {{"--ids", "1", "--dim", "2", "--norm-type", "2"}, "--norm-type has no effect without --max-norm"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "1", "--norm-type", "0"}, "--norm-type \"0\": is not positive"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "1", "--norm-type", "-inf"}, "--norm-type \"-inf\": is not finite"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "1", "--norm-type", "Inf"}, "is not a decimal number"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "1", "--walkthrough"}, "--walkthrough cannot be combined with --max-norm"},
        {{"positions", "--ids", "1", "--dim", "2", "--max-norm", "1"}, "not to positions"},
        {{"factor", "--ids", "1", "--dim", "4", "--rank", "2", "--max-norm", "1"}, "not to factor"},
        {{"grad", "--ids", "1,1", "--dim", "2", "--sparse", "--scale-grad-by-freq"},
         "scale_grad_by_freq not supported with sparse gradients"},
        {{"grad", "--ids", "1", "--dim", "2", "--sparse", "--optimizer", "adam"},
         "Adam does not support sparse gradients, please consider SparseAdam instead"},
        {{"grad", "--ids", "1", "--dim", "2", "--sparse", "--optimizer", "adamw"}, "AdamW does not support sparse gradients"},
        {{"grad", "--ids", "1", "--dim", "2", "--sparse", "--optimizer", "sgd", "--momentum", "0.9"},
         "embdemo's sparse steps are plain SGD"},
        {{"grad", "--ids", "1", "--dim", "2", "--sparse", "--optimizer", "sgd", "--weight-decay", "0.1"},
         "add(sparse, dense) is not supported. Use add(dense, sparse) instead."},
        {{"grad", "--ids", "1", "--dim", "2", "--max-norm", "1", "--optimizer", "adam"}, "--max-norm cannot be combined"},
        {{"grad", "--ids", "1", "--dim", "2", "--sparse", "--sparse"}, "--sparse"},
        {{"grad", "--ids", "20", "--dim", "2", "--top", "0"}, "--top \"0\": is out of range"},
        {{"grad", "--ids", "20", "--dim", "2", "--top", "11"}, "--top \"11\": is out of range"},
        {{"grad", "--ids", "2", "--dim", "2", "--top", "4"}, "K from 1 to 3"},
        {{"grad", "--ids", "20", "--dim", "2", "--top", "x"}, "--top \"x\""},
        {{"grad", "--ids", "20", "--dim", "2", "--top", "2", "--format", "csv"}, "picks the swaps the text view lists"},
        {{"--ids", "1", "--dim", "2", "--top", "2"}, "--top"},
    };
    for (const auto& bad : cases) {
        CAPTURE(bad.message);
        const CommandLine command_line = parse(bad.args);
        CHECK_FALSE(command_line.run);
        CHECK(command_line.exit_code == k_exit_usage);
        CHECK(command_line.error.find(bad.message) != std::string::npos);
        CHECK(command_line.error.find('\n') == std::string::npos);
    }
}
