#include <doctest/doctest.h>

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
        {{"--ids", "9", "--vocab", "5", "--dim", "5"}, "id 9 (item 1) is out of range for --vocab 5"},
        {{"--ids", "1", "--dim", "0"}, "--dim \"0\": is less than 1"},
        {{"--ids", "1", "--dim", "5", "--format", "xml"}, "--format \"xml\": is not a known format"},
        {{"--ids", "1", "--dim", "5", "--dim", "5"}, "--dim"},
        {{"--dim", "5"}, "--ids is required"},
        {{"--ids", "1", "--dim", "5", "stray"}, "stray"},
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
