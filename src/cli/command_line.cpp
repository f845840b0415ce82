#include "cli/command_line.hpp"

#include "cli/outputs.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/completion_data.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/mistakes.hpp"
#include "cli/option_checks.hpp"
#include "cli/option_spec.hpp"
#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"

namespace embdemo {
namespace {

using namespace option_checks;

// Every lesson's options and the main command's, for the checks that look at all of them.
template <typename Visit>
void for_each_option(const CLI::App& app, const Visit& visit) {
    for (const CLI::Option* option : app.get_options()) visit(*option);
    for (const CLI::App* lesson : app.get_subcommands([](const CLI::App*) { return true; })) {
        for (const CLI::Option* option : lesson->get_options()) visit(*option);
    }
}

// The errors CLI11 may still raise after find_unreadable_value: said in embdemo's words, never
// CLI11's (its text names no option the way the user typed it, and may span lines).
std::string describe_parse_error() {
    return "the command line cannot be read (allowed: the options of embdemo --help, each given once, "
           "with its value after a space or an \"=\")";
}

// An option given twice (on the main command or a lesson's), or one whose value is missing
// ("--dim" at the very end).
std::string describe_mismatch(const CLI::App& app, const CLI::ArgumentMismatch& error, const LessonSpec* lesson) {
    std::string repeated;
    for_each_option(app, [&](const CLI::Option& option) {
        if (repeated.empty() && option.count() > 1) {
            repeated = option.get_name() + " was given " + std::to_string(option.count()) + " times (allowed: once)";
        }
    });
    if (!repeated.empty()) return repeated;
    const std::string what = error.what();
    const std::string option = what.substr(0, what.find(':'));
    if (option.rfind("--", 0) == 0 && option.find_first_of(" \n") == std::string::npos) {
        return option + " needs a value; see " + help_command(lesson);
    }
    return describe_parse_error();
}

// The first word on the command line that is not an option embdemo knows, met after `lesson`
// (null: none named).
std::string describe_extra(const std::string& word, const LessonSpec* lesson, bool first_word) {
    if (word == "--") {
        // Only reached with a word after it: a "--" that ends the command line is POSIX's end
        // of the options, which run() accepts.
        return std::string("unexpected argument after \"--\", which ends the options (allowed: "
                           "options before it; embdemo takes no other arguments)");
    }
    if (word.size() > 1 && word[0] == '-') return unknown_option(word, lesson);
    return unexpected_word(word, lesson, first_word);
}

// Two spellings CLI11 2.1.2 reads its own way, caught before it sees them:
// - "--opt=" with nothing after the "=" is read as "--opt", taking the next word as the value
//   ("--export-projector= --trace" made a directory named "--trace");
// - "--flag=VALUE" is converted by CLI11 ("--trace=no" turned the trace off, "--sparse=maybe"
//   said "Could not convert"): a flag of embdemo takes no value.
// The option of that name, shared or any lesson's, or null. Read from the lists, not from CLI11:
// the parser declares a lesson's options only when the command line names the lesson.
const OptionSpec* find_option_spec(std::string_view name) {
    const OptionSpec* found = find_option(k_shared_help, name);
    for (auto spec = lessons_begin(); spec != lessons_end() && found == nullptr; ++spec) {
        found = find_option((*spec)->help, name);
    }
    return found;
}

std::optional<std::string> find_unreadable_value(int argc, const char* const argv[]) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "--") break;
        const std::size_t equals = word.find('=');
        if (word.size() < 4 || word.substr(0, 2) != "--" || equals == std::string_view::npos) continue;
        const std::string option(word.substr(0, equals));
        // --help and --version are CLI11's, which answers them itself; unknown ones describe_extra names.
        const OptionSpec* known = find_option_spec(option);
        if (known == nullptr) continue;
        if (known->flag || known->own_flag) {
            return bad_value(option.c_str(), std::string(word.substr(equals + 1)), "is a flag and takes no value",
                             option + " alone");
        }
        if (equals + 1 < word.size()) continue;
        return bad_value(option.c_str(), "", "is empty",
                         "a value after the \"=\", or " + option + " VALUE");
    }
    return std::nullopt;
}

}  // namespace

namespace {

// Hands a list of options to CLI11. Every value is read as a string and checked by embdemo's
// own parsers in validate(); each option may be given once.
void declare(CLI::App& app, const LessonHelp& help, RawOptions& raw) {
    for (std::size_t i = 0; i < help.option_count; ++i) {
        const OptionSpec& spec = help.options[i];
        const std::string name = spec.name;
        const bool flag = spec.flag || spec.own_flag;
        CLI::Option* option =
            spec.flag              ? app.add_flag(spec.name, raw.*spec.flag, spec.help)
            : spec.own_flag        ? app.add_flag_function(spec.name, [&raw, name](std::int64_t) { raw.own[name]; }, spec.help)
            : spec.value           ? app.add_option(spec.name, raw.*spec.value, spec.help)
            : spec.with_default    ? app.add_option(spec.name, raw.*spec.with_default, spec.help)->capture_default_str()
                                   : app.add_option_function<std::string>(
                                         spec.name, [&raw, name](const std::string& value) { raw.own[name] = value; }, spec.help);
        option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
        if (!flag) option->type_name(spec.type_name);
    }
}

// `embdemo bench ARGS` runs the program embdemo-bench with ARGS: a lesson with a parser of its
// own gets the words as they are.
CommandLine forward_to(const LessonSpec& lesson, std::vector<std::string> args) {
    CommandLine result;
    result.run = true;
    result.options.lesson = &lesson;
    result.options.bench_args = std::move(args);
    return result;
}

// The lesson named by the first word when it parses its own options, or null.
const LessonSpec* own_parser_lesson(int argc, const char* const argv[]) {
    if (argc < 2) return nullptr;
    const LessonSpec* lesson = find_lesson(argv[1]);
    return lesson != nullptr && lesson->caps.own_parser ? lesson : nullptr;
}

}  // namespace

// A lesson's subcommand; its options are declared only once a command line names it: CLI11
// checks every new option against all the others, and declaring all nine lessons' took about
// 140 us, 8% of the default demo's start (docs/performance.md, "Start-up"). An undeclared
// lesson's options change no parse, since only a named lesson's subcommand reads any.
struct LessonCommand {
    CLI::App* app;
    const LessonSpec* spec;
    bool declared = false;
};

struct CommandLineParser::Parts {
    CLI::App app{k_main_description, "embdemo"};
    RawOptions raw;  // the variables app's options fill; back to their defaults after each parse
    std::vector<LessonCommand> lessons;  // the subcommands

    Parts() {
        app.set_version_flag("--version", std::string("embdemo ") + EMBDEMO_VERSION);
        app.footer(k_shared_help.footer);
        app.get_formatter()->column_width(26);
        app.allow_extras();  // reported by describe_extra, in our words
        declare(app, k_shared_help, raw);
        // Lessons are subcommands; the shared options stay on the main command and may follow the
        // lesson's name (fallthrough), so they are parsed and validated in one place.
        for (auto spec = lessons_begin(); spec != lessons_end(); ++spec) {
            CLI::App* lesson = app.add_subcommand((*spec)->name, (*spec)->summary);
            const LessonHelp& help = (*spec)->help;
            if ((*spec)->caps.own_parser) {
                lesson->allow_extras();
            } else {
                lesson->fallthrough();
            }
            if (*help.footer) {
                lesson->footer(std::string(help.footer_head) + help.footer);
            } else if (*help.footer_head) {  // the lookup lesson, whose options are the main command's
                lesson->footer(std::string(help.footer_head) + k_shared_help.footer);
            }
            lessons.push_back({lesson, *spec});
        }
        app.require_subcommand(0, 1);
    }

    // Declares the options of every lesson a word of the command line names (a value that
    // happens to be a lesson's name only declares options no parse will read).
    void declare_lessons_named(int argc, const char* const argv[]) {
        for (LessonCommand& lesson : lessons) {
            for (int i = 1; i < argc && !lesson.declared; ++i) {
                if (argv[i] != std::string_view(lesson.spec->name)) continue;
                declare(*lesson.app, lesson.spec->help, raw);
                lesson.declared = true;
            }
        }
    }

    // The lesson named on the command line just parsed, or null.
    const LessonSpec* parsed_lesson() const {
        for (const LessonCommand& lesson : lessons) {
            if (lesson.app->parsed()) return lesson.spec;
        }
        return nullptr;
    }

    // `embdemo help [LESSON]`: the help that `embdemo [LESSON] --help` prints.
    CommandLine help(int argc, const char* const argv[]) {
        if (argc > 3) {
            return fail("unexpected argument " + quote_for_message(argv[3]) +
                        " (allowed: embdemo help, or embdemo help LESSON: one lesson name at most)");
        }
        CommandLine result;
        const std::string_view word = argc == 3 ? argv[2] : "";
        if (argc == 2 || word == "--help" || word == "-h") {
            result.stdout_text = app.help();
            return result;
        }
        const LessonSpec* spec = find_lesson(argv[2]);
        if (spec == nullptr) return fail(unknown_lesson(argv[2]));
        if (spec->caps.own_parser) return forward_to(*spec, {"--help"});
        declare_lessons_named(argc, argv);
        for (const LessonCommand& lesson : lessons) {
            if (lesson.spec == spec) result.stdout_text = lesson.app->help(app.get_name());
        }
        return result;
    }
};

CommandLineParser::CommandLineParser() : m_parts(std::make_unique<Parts>()) {}
CommandLineParser::~CommandLineParser() = default;

CommandLine CommandLineParser::parse(int argc, const char* const argv[]) {
    // git-style: `embdemo bench ARGS` runs the separate program embdemo-bench with ARGS, which
    // parses them itself (it alone links a BLAS, which would slow every embdemo start).
    if (const LessonSpec* own = own_parser_lesson(argc, argv)) return forward_to(*own, {argv + 2, argv + argc});
    if (argc >= 2 && std::string_view(argv[1]) == "help") return m_parts->help(argc, argv);
    if (argc == 2 && std::string_view(argv[1]) == "--completion-data") {  // hidden: for bash completion
        CommandLine result;
        result.stdout_text = completion_data();
        return result;
    }
    CLI::App& app = m_parts->app;
    RawOptions& raw = m_parts->raw;
    // Every parse leaves the parser as built, so the next one starts from nothing given, and the
    // strings this one read are freed with it (libFuzzer takes memory kept past a run for a
    // leak; CLI11 keeps only its own processed copy of each option's last value).
    struct Reset {
        Parts& parts;
        ~Reset() {
            parts.app.clear();
            parts.raw = RawOptions{};
        }
    } reset{*m_parts};
    if (auto unreadable = find_unreadable_value(argc, argv)) return fail(*unreadable);
    m_parts->declare_lessons_named(argc, argv);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        // A lesson that parses its own options has only an empty subcommand here: its help is its own.
        const LessonSpec* lesson = m_parts->parsed_lesson();
        if (lesson != nullptr && lesson->caps.own_parser) return forward_to(*lesson, {"--help"});
        CommandLine result;
        result.stdout_text = app.help();
        return result;
    } catch (const CLI::CallForVersion& version) {
        CommandLine result;
        result.stdout_text = std::string(version.what()) + '\n';
        return result;
    } catch (const CLI::ArgumentMismatch& error) {
        return fail(describe_mismatch(app, error, m_parts->parsed_lesson()));
    } catch (const CLI::ParseError& error) {
        return fail(describe_parse_error());
    } catch (const std::logic_error&) {
        // A lesson's own flag given a value where find_unreadable_value does not look (after
        // "--"): CLI11 converts it with std::stoll, which throws std::invalid_argument or
        // std::out_of_range rather than a ParseError. The shared flags' conversion says the same.
        return fail(describe_parse_error());
    }
    // Before the leftover words: those may be the options of a lesson that parses its own.
    if (const LessonSpec* spec = m_parts->parsed_lesson(); spec != nullptr && spec->caps.own_parser) {
        return fail(std::string(spec->name) + " must be the first word: embdemo " + spec->name +
                    " [OPTIONS] (its options: embdemo " + spec->name + " --help)");
    }
    // POSIX (Utility Syntax Guideline 10): "--" ends the options. embdemo takes no operands, so
    // it may only end the command line; a word after it is refused by describe_extra.
    if (app.remaining().size() == 1 && app.remaining().front() == "--") {
        // nothing follows the "--": the options before it stand
    } else if (!app.remaining().empty()) {
        const std::string word = app.remaining().front();
        return fail(describe_extra(word, m_parts->parsed_lesson(), argc > 1 && word == argv[1]));
    }
    if (const LessonSpec* spec = m_parts->parsed_lesson()) raw.lesson = spec;
    for (const CLI::Option* option : app.get_options()) {
        if (option->count() > 0) raw.shared_given.push_back(option->get_name());
    }
    raw.precision_given = app.count("--precision") > 0;
    CommandLine result = validate(raw);
    if (result.run) {
        if (auto problem = check_stdout_is_no_input(raw, result.options)) return fail(*problem);
    }
    return result;
}

CommandLine parse_command_line(int argc, const char* const argv[]) {
    return CommandLineParser().parse(argc, argv);
}

}  // namespace embdemo
