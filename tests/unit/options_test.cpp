#include <doctest/doctest.h>

#include <any>
#include <cmath>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/command_line.hpp"
#include "cli/lessons/grad/settings.hpp"
#include "cli/lessons/lesson.hpp"
#include "core/lessons/bag_lesson.hpp"

using namespace embdemo;

namespace {

CommandLine parse(std::vector<const char*> args) {
    args.insert(args.begin(), "embdemo");
    return parse_command_line(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("the notebook's command line infers vocab and uses seed 123") {
    const CommandLine command_line = parse({"--ids", "2,3,1", "--dim", "5"});
    REQUIRE(command_line.run);
    const DemoRequest& request = command_line.options.request;
    CHECK(request.ids == TokenIds{2, 3, 1});
    CHECK(request.vocab_size == 4);
    CHECK(request.vocab_inferred);
    CHECK(request.dim == 5);
    CHECK(request.seed == 123);
    CHECK(command_line.options.format == OutputFormat::text);
    CHECK(command_line.options.precision == 4);
}

TEST_CASE("an explicit vocab and the largest seed are accepted") {
    const CommandLine command_line =
        parse({"--ids", "0", "--vocab", "10", "--dim", "2", "--seed", "18446744073709551615"});
    REQUIRE(command_line.run);
    CHECK(command_line.options.request.vocab_size == 10);
    CHECK_FALSE(command_line.options.request.vocab_inferred);
    CHECK(command_line.options.request.seed == 18446744073709551615ull);
}

TEST_CASE("bad command lines are usage errors that name the option") {
    struct Bad {
        std::vector<const char*> args;
        const char* message;
    };
    const Bad cases[] = {
        {{"--ids", "2,,3", "--dim", "5"}, "--ids \"2,,3\": item 2 is empty"},
        {{"--ids", "9", "--vocab", "5", "--dim", "5"}, "--ids: ids[0] = 9 is out of range for --vocab 5"},
        {{"--ids", "1", "--dim", "0"}, "--dim \"0\": is less than 1"},
        {{"--ids", "1", "--dim", "5", "--format", "xml"}, "--format \"xml\": is not a known format"},
        {{"--ids", "1", "--dim", "5", "--dim", "5"}, "--dim"},
        {{"--dim", "5"}, "--ids is required"},
        {{"--ids", "1", "--dim", "5", "stray"}, "stray"},
        {{"--ids=", "--dim", "5"}, "--ids \"\": is empty"},
        {{"--ids", "1", "--dim=", "5"}, "--dim \"\": is empty"},
        {{"--ids", "1", "--dim", "5", "--export-projector=", "--trace"}, "--export-projector \"\": is empty"},
    };
    for (const auto& bad : cases) {
        CAPTURE(bad.message);
        const CommandLine command_line = parse(bad.args);
        REQUIRE_FALSE(command_line.run);
        CHECK(command_line.exit_code == k_exit_usage);
        CHECK(command_line.error.find(bad.message) != std::string::npos);
    }
}

TEST_CASE("--help and --version print to stdout and exit 0") {
    const CommandLine help = parse({"--help"});
    CHECK_FALSE(help.run);
    CHECK(help.exit_code == k_exit_ok);
    CHECK(help.stdout_text.find("Exit status:") != std::string::npos);
    const CommandLine version = parse({"--version"});
    CHECK(version.stdout_text.rfind("embdemo ", 0) == 0);
}

TEST_CASE("--weights makes --dim and --vocab optional and leaves them to the file") {
    const CommandLine command_line = parse({"--ids", "2,3", "--weights", "wte.npy"});
    REQUIRE_MESSAGE(command_line.run, command_line.error);
    const DemoRequest& request = command_line.options.request;
    CHECK(request.origin.kind == WeightOrigin::Kind::file);
    CHECK(request.origin.detail == "wte.npy");
    CHECK(request.vocab_size == 0);
    CHECK(request.dim == 0);
    CHECK_FALSE(request.vocab_inferred);
}

TEST_CASE("the new formats and --show are parsed") {
    const CommandLine command_line = parse({"--ids", "1", "--dim", "2", "--format", "tsv", "--show", "onehot_matmul"});
    REQUIRE(command_line.run);
    CHECK(command_line.options.format == OutputFormat::tsv);
    CHECK(command_line.options.show == MatrixSelection{ReportMatrix::onehot_matmul});
    CHECK(parse({"--ids", "1", "--dim", "2", "--format", "markdown"}).options.format == OutputFormat::markdown);
}

TEST_CASE("file and format options that make no sense together are refused") {
    const struct {
        std::vector<const char*> args;
        const char* message;
    } cases[] = {
        {{"--ids", "1", "--weights", "w.npy", "--seed", "5"},
         "--seed cannot be combined with --weights: E comes from the file, so the seed would have no effect "
         "(allowed: one of them)"},
        {{"--ids", "1", "--dim", "2", "--show", "lookup"},
         "--show \"lookup\": needs --format json, csv, tsv or markdown (allowed: --show with one of those "
         "formats; the text view shows every matrix)"},
        {{"--ids", "1", "--dim", "2", "--format", "csv", "--show", "E"},
         "--show \"E\": is not a matrix name (allowed: comma-separated names from weight, onehot, lookup, "
         "onehot_matmul, linear_output)"},
        {{"--ids", "1", "--dim", "2", "--format", "json", "--show", "lookup,E"},
         "--show \"lookup,E\": item 2 \"E\" is not a matrix name (allowed: comma-separated names from weight, "
         "onehot, lookup, onehot_matmul, linear_output)"},
        {{"--ids", "1", "--dim", "2", "--format", "json", "--show", "lookup,"},
         "--show \"lookup,\": item 2 \"\" is empty (allowed: comma-separated names from weight, onehot, lookup, "
         "onehot_matmul, linear_output)"},
        {{"--ids", "1", "--dim", "2", "--format", "csv", "--show", "lookup,weight,lookup"},
         "--show \"lookup,weight,lookup\": item 3 \"lookup\" is named twice (allowed: comma-separated names from "
         "weight, onehot, lookup, onehot_matmul, linear_output)"},
        {{"--ids", "1", "--dim", "2", "--labels", "l.txt"},
         "--labels has no effect without --export-projector (allowed: both, or neither)"},
        {{"--ids", "1", "--dim", "2", "--save-weights", "e.csv"},
         "--save-weights \"e.csv\": does not end in .npy (allowed: a file name ending in .npy)"},
        {{"--ids", "1", "--weights", ""}, "--weights \"\": is empty (allowed: the name of a .npy, .csv or .tsv file)"},
        {{"--ids", "1"}, "--dim is required, e.g. embdemo --ids 2,3,1 --dim 5; see embdemo --help"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.message);
        const CommandLine command_line = parse(c.args);
        CHECK_FALSE(command_line.run);
        CHECK(command_line.exit_code == k_exit_usage);
        CHECK(command_line.error == c.message);
    }
}

TEST_CASE("--precision is refused by the exact formats and kept by the rounded views") {
    for (const char* format : {"json", "csv", "tsv"}) {
        CAPTURE(format);
        const CommandLine refused = parse({"--ids", "1", "--dim", "2", "--format", format, "--precision", "3"});
        REQUIRE_FALSE(refused.run);
        CHECK(refused.exit_code == k_exit_usage);
        CHECK(refused.error.find("--precision \"3\": has no effect with --format") != std::string::npos);
        CHECK(parse({"--ids", "1", "--dim", "2", "--format", format}).run);  // the default is no request
    }
    const CommandLine markdown = parse({"--ids", "1", "--dim", "2", "--format", "markdown", "--precision", "3"});
    REQUIRE(markdown.run);
    CHECK(markdown.options.precision == 3);
}

TEST_CASE("--show takes several matrices, in the order given, for json too") {
    const CommandLine command_line =
        parse({"--ids", "1", "--dim", "2", "--format", "json", "--show", "onehot_matmul,lookup"});
    REQUIRE(command_line.run);
    CHECK(command_line.options.show == MatrixSelection{ReportMatrix::onehot_matmul, ReportMatrix::lookup});
}

// ---- --max-norm, --norm-type, grad's --sparse and --top (issue #15) ----

TEST_CASE("--max-norm and --norm-type reach the lookup lesson and grad") {
    const CommandLine lookup = parse({"--ids", "1,2", "--dim", "3", "--max-norm", "0.5", "--norm-type", "inf"});
    REQUIRE(lookup.run);
    REQUIRE(lookup.options.max_norm);
    CHECK(lookup.options.max_norm->max_norm == 0.5);
    CHECK(std::isinf(lookup.options.max_norm->norm_type));
    // Python's float("+inf") is inf too (issue 28: it was refused as "not finite").
    const CommandLine plus = parse({"--ids", "1,2", "--dim", "3", "--max-norm", "0.5", "--norm-type", "+inf"});
    REQUIRE(plus.run);
    CHECK(std::isinf(plus.options.max_norm->norm_type));
    CHECK(plus.options.max_norm->norm_type > 0);
    const CommandLine grad = parse({"grad", "--ids", "1,2", "--dim", "3", "--max-norm", "2", "--sparse", "--top", "2"});
    REQUIRE(grad.run);
    CHECK(grad.options.max_norm->norm_type == 2.0);  // nn.Embedding's default
    CHECK(own_settings<GradOptions>(grad.options).request.sparse);
    CHECK(own_settings<GradOptions>(grad.options).request.top == 2);
    const CommandLine small = parse({"grad", "--ids", "1", "--dim", "3"});
    REQUIRE(small.run);
    CHECK(own_settings<GradOptions>(small.options).request.top == 2);  // min(3, V) with V = 2
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
        {{"--ids", "1", "--dim", "2", "--max-norm", "1", "--norm-type", "-inf"}, "--norm-type \"-inf\": is not positive"},
        {{"--ids", "1", "--dim", "2", "--max-norm", "1", "--norm-type", "nan"}, "--norm-type \"nan\": is not a number"},
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
        {{"grad", "--ids", "1", "--dim", "2", "--sparse", "--sparse"}, "--sparse was given 2 times (allowed: once)"},
        {{"grad", "--ids", "1", "--dim", "2", "--sparse=maybe"}, "--sparse \"maybe\": is a flag and takes no value"},
        {{"cost", "--model", "gpt2", "--model", "gpt2"}, "--model was given 2 times (allowed: once)"},
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

TEST_CASE("a reused parser starts each parse from nothing given") {
    // The pipeline fuzz target parses millions of command lines with one parser; a value left
    // over from an earlier command line would make it test a program that does not exist.
    const std::vector<std::vector<const char*>> command_lines{
        {"grad", "--ids", "1,2", "--padding-idx", "1", "--precision", "2", "--format", "json"},
        {"--ids", "2,3,1", "--dim", "5"},
        {"--ids", "2", "--ids", "3"},
        {"bag", "--bags", "1,2;3", "--mode", "max", "--seed", "9"},
        {"--ids"},
        {"tied", "--ids", "0,1", "--vocab", "3", "--dim", "2", "--top", "2"},
        {"--dim", "3", "--ids", "0,1"},
        {"--help"},
        {"grad", "--ids", "0,1"},
    };
    CommandLineParser parser;
    for (std::vector<const char*> args : command_lines) {
        args.insert(args.begin(), "embdemo");
        const int argc = static_cast<int>(args.size());
        const CommandLine fresh = parse_command_line(argc, args.data());
        const CommandLine reused = parser.parse(argc, args.data());
        CAPTURE(args.at(1));
        CHECK(reused.run == fresh.run);
        CHECK(reused.exit_code == fresh.exit_code);
        CHECK(reused.error == fresh.error);
        CHECK(reused.stdout_text == fresh.stdout_text);
        CHECK(reused.options.lesson == fresh.options.lesson);
        CHECK(reused.options.request.ids == fresh.options.request.ids);
        CHECK(reused.options.request.vocab_size == fresh.options.request.vocab_size);
        CHECK(reused.options.request.dim == fresh.options.request.dim);
        CHECK(reused.options.request.seed == fresh.options.request.seed);
        CHECK(reused.options.format == fresh.options.format);
        CHECK(reused.options.precision == fresh.options.precision);
        CHECK(reused.options.own.type() == fresh.options.own.type());
        if (const auto* grad = std::any_cast<GradOptions>(&fresh.options.own)) {
            CHECK(own_settings<GradOptions>(reused.options).request.padding_idx == grad->request.padding_idx);
        }
        if (const auto* bag = std::any_cast<BagRequest>(&fresh.options.own)) {
            CHECK(own_settings<BagRequest>(reused.options).mode == bag->mode);
        }
    }
}
