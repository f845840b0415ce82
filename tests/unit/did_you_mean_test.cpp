#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/completion_data.hpp"
#include "cli/did_you_mean.hpp"
#include "cli/exit_codes.hpp"

using namespace embdemo;

namespace {

CommandLine parse(std::vector<const char*> args) {
    args.insert(args.begin(), "embdemo");
    return parse_command_line(static_cast<int>(args.size()), args.data());
}

// The error of a refused command line (exit status 2, one line).
std::string refusal(std::vector<const char*> args) {
    const CommandLine command_line = parse(std::move(args));
    CHECK_FALSE(command_line.run);
    CHECK(command_line.exit_code == k_exit_usage);
    CHECK(command_line.error.find('\n') == std::string::npos);
    return command_line.error;
}

}  // namespace

TEST_CASE("typo_distance weighs as git's levenshtein(cmd, candidate, 0, 2, 1, 3)") {
    // Expected values from a line-by-line Python port of git's levenshtein.c.
    const struct {
        const char* typed;
        const char* candidate;
        int distance;
    } cases[] = {
        {"gard", "grad", 0},        {"hlep", "help", 0},           {"tags", "tag", 3},
        {"tag", "tags", 1},         {"", "abc", 3},                {"abc", "", 9},
        {"--id", "--dim", 1},       {"--momentun", "--momentum", 2}, {"nosuch", "lookup", 10},
        {"--dimm", "--dim", 3},     {"kitten", "sitting", 5},      {"positoins", "positions", 0},
    };
    for (const auto& each : cases) {
        CAPTURE(each.typed);
        CAPTURE(each.candidate);
        CHECK(typo_distance(each.typed, each.candidate) == each.distance);
    }
}

TEST_CASE("closest_names prefers prefixes, keeps ties and stops at git's similarity floor") {
    const std::vector<std::string> lessons{"lookup", "grad", "cost", "bench", "positions", "tied", "factor", "tokens", "bag"};
    CHECK(closest_names("gard", lessons) == std::vector<std::string>{"grad"});
    CHECK(closest_names("to", lessons) == std::vector<std::string>{"tokens"});  // a prefix beats "tied"
    CHECK(closest_names("t", lessons) == std::vector<std::string>{"tied", "tokens"});
    CHECK(closest_names("nosuch", lessons).empty());   // every score is 7 or more
    CHECK(closest_names("grad", lessons).empty());     // known: nothing to suggest
    CHECK(closest_names("", lessons).empty());
    CHECK(closest_names("b", {"bag", "bench"}).empty());  // a prefix of every candidate: too ambiguous
    const std::vector<std::string> options{"--ids", "--dim", "--init", "--vocab"};
    CHECK(closest_names("--id", options) == std::vector<std::string>{"--ids"});
    CHECK(closest_names("--i", options) == std::vector<std::string>{"--ids", "--init"});
    CHECK(closest_names("--dimm", options) == std::vector<std::string>{"--dim"});
    CHECK(closest_names("--dimmm", options).empty());  // two deletions: 3 + 3 + 1 reaches the floor
    CHECK(closest_names("--" + std::string(1 << 20, 'x'), options).empty());  // skipped, not scored
    CHECK(suggestion_list({"--ids", "--init"}, false) == "--ids or --init");
    CHECK(suggestion_list({"a", "b", "c"}, true) == "\"a\", \"b\" or \"c\"");
}

TEST_CASE("a mistyped lesson is answered with the closest lesson and the list") {
    CHECK(refusal({"gard"}) == "unknown lesson \"gard\" (did you mean \"grad\"?; lessons: lookup, grad, cost, bench, "
                               "positions, tied, factor, tokens, bag, train; embdemo help LESSON describes one)");
    CHECK(refusal({"hlep"}).find("did you mean \"help\"?") != std::string::npos);
    CHECK(refusal({"nosuch", "--ids", "2"}).find("unknown lesson \"nosuch\" (lessons: lookup,") == 0);
    // After options, a word like no lesson is a stray word; one like a lesson is a mistyped lesson.
    CHECK(refusal({"--ids", "2", "--dim", "5", "extra"}).find("unexpected argument \"extra\"") == 0);
    CHECK(refusal({"--ids", "2", "--dim", "5", "tokns"}).find("did you mean \"tokens\"?") != std::string::npos);
}

TEST_CASE("a mistyped option is answered with the closest options of the lesson given") {
    CHECK(refusal({"--id", "2,3"}) ==
          "unknown option \"--id\" (did you mean --ids?; allowed: the options listed by embdemo --help)");
    CHECK(refusal({"positions", "--encodnig", "rope"}) ==
          "unknown option \"--encodnig\" (did you mean --encoding?; allowed: the options listed by embdemo positions "
          "--help)");
    CHECK(refusal({"--quux"}) == "unknown option \"--quux\" (allowed: the options listed by embdemo --help)");
    CHECK(refusal({"--bogus"}).find("did you mean --bags of embdemo bag?") != std::string::npos);  // as git would
    CHECK(refusal({"bag", "--momentun", "1"}).find("did you mean --momentum of embdemo grad?") != std::string::npos);
    CHECK(refusal({"--dimm=3"}).find("unknown option \"--dimm=3\" (did you mean --dim?") == 0);
}

TEST_CASE("an option of another lesson names that lesson") {
    CHECK(refusal({"bag", "--momentum", "1"}) ==
          "--momentum is an option of embdemo grad, not of embdemo bag (allowed: the options listed by embdemo bag --help)");
    CHECK(refusal({"--momentum", "1"}) ==
          "--momentum is an option of embdemo grad, not of embdemo (allowed: the options listed by embdemo --help)");
    CHECK(refusal({"grad", "--ids", "2", "--dim", "5", "extra"}) ==
          "unexpected argument \"extra\" (allowed: options only, those listed by embdemo grad --help)");
    CHECK(refusal({"grad", "--dim"}) == "--dim needs a value; see embdemo grad --help");
}

TEST_CASE("a lesson's own option before the lesson's name is said to go after it") {
    // It was "unknown option", or "an option of embdemo bag, not of embdemo grad" for --padding-idx,
    // which grad lists too.
    CHECK(refusal({"--ids", "2", "--dim", "2", "--optimizer", "sgd", "grad"}) ==
          "--optimizer is an option of embdemo grad and goes after its name (allowed: embdemo grad --optimizer "
          "OPT, or see embdemo grad --help)");
    CHECK(refusal({"--padding-idx", "0", "grad", "--ids", "2", "--dim", "2"}).find(
              "--padding-idx is an option of embdemo grad and goes after its name") == 0);
    CHECK(refusal({"--scale-grad-by-freq", "grad", "--ids", "2", "--dim", "2"}) ==
          "--scale-grad-by-freq is an option of embdemo grad and goes after its name (allowed: embdemo grad "
          "--scale-grad-by-freq, or see embdemo grad --help)");
}

TEST_CASE("bench's options before its name are bench's, which must come first") {
    // It was "unknown option \"--threads\"", an option embdemo bench --help lists.
    CHECK(refusal({"--threads", "2", "bench"}) ==
          "bench must be the first word: embdemo bench [OPTIONS] (its options: embdemo bench --help)");
    CHECK(refusal({"--ids", "2", "bench", "--repeats", "3"}) ==
          "bench must be the first word: embdemo bench [OPTIONS] (its options: embdemo bench --help)");
}

TEST_CASE("embdemo help prints the help of embdemo --help and of embdemo LESSON --help") {
    CHECK(parse({"help"}).stdout_text == parse({"--help"}).stdout_text);
    CHECK(parse({"help", "--help"}).stdout_text == parse({"--help"}).stdout_text);
    for (const char* lesson : {"lookup", "grad", "cost", "positions", "tied", "factor", "tokens", "bag"}) {
        CAPTURE(lesson);
        const CommandLine help = parse({"help", lesson});
        CHECK(help.exit_code == k_exit_ok);
        CHECK_FALSE(help.stdout_text.empty());
        CHECK(help.stdout_text == parse({lesson, "--help"}).stdout_text);
    }
    const CommandLine bench = parse({"help", "bench"});
    CHECK(bench.run);
    CHECK(bench.options.bench_args == std::vector<std::string>{"--help"});
    // Not the first word: CLI11 answered --help with bench's empty subcommand ("Options: -h,--help").
    for (const std::vector<const char*>& args : std::vector<std::vector<const char*>>{
             {"--help", "bench"}, {"-h", "bench"}, {"--color", "never", "bench", "--help"}}) {
        const CommandLine later = parse(args);
        CHECK(later.run);
        CHECK(later.stdout_text.empty());
        CHECK(later.options.bench_args == std::vector<std::string>{"--help"});
    }
    CHECK(refusal({"help", "gard"}).find("unknown lesson \"gard\" (did you mean \"grad\"?") == 0);
    CHECK(refusal({"help", "grad", "bag"}) ==
          "unexpected argument \"bag\" (allowed: embdemo help, or embdemo help LESSON: one lesson name at most)");
}

TEST_CASE("completion data lists each lesson's options and only values the parser takes") {
    const CommandLine data = parse({"--completion-data"});
    CHECK(data.exit_code == k_exit_ok);
    const std::string& text = data.stdout_text;
    CHECK(text.find("lessons lookup grad cost bench positions tied factor tokens bag train help\n") == 0);
    CHECK(text.find("options grad --help --padding-idx") != std::string::npos);
    CHECK(text.find("options cost --help --model --tokens --ids --text --text-file --tokenizer --vocab-size --vocab --dim "
                    "--format\n") !=
          std::string::npos);
    CHECK(text.find("values --format text json csv tsv markdown svg html python ipynb\n") != std::string::npos);
    CHECK(text.find("dirs --export-projector\n") != std::string::npos);
    CHECK(text == completion_data());
}
