#include "cli/mistakes.hpp"

#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli/did_you_mean.hpp"
#include "cli/lessons/lesson.hpp"
#include "core/escape.hpp"

namespace embdemo {
namespace {

std::vector<std::string> option_names(const LessonHelp& help) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < help.option_count; ++i) names.emplace_back(help.options[i].name);
    return names;
}

bool declares(const LessonHelp& help, std::string_view option) { return find_option(help, option) != nullptr; }

std::vector<std::string> lesson_names() {
    std::vector<std::string> names;
    for (auto spec = lessons_begin(); spec != lessons_end(); ++spec) names.emplace_back((*spec)->name);
    return names;
}

// "grad" or "positions, tied, factor and bag".
std::string and_list(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    }
    return out;
}

// "did you mean --ids?; " (the closing part of a message's parenthesis), or nothing.
std::string did_you_mean(const std::vector<std::string>& names, bool quoted) {
    return names.empty() ? "" : "did you mean " + suggestion_list(names, quoted) + "?; ";
}

// "embdemo bag" or "embdemo", for "not of ...".
std::string command_name(const LessonSpec* lesson) {
    return lesson == nullptr ? std::string("embdemo") : std::string("embdemo ") + lesson->name;
}

// The options the command line may hold after `lesson`: its own, the shared ones, and CLI11's.
std::vector<std::string> allowed_options(const LessonSpec* lesson) {
    std::vector<std::string> names = option_names(k_shared_help);
    if (lesson != nullptr) {
        const std::vector<std::string> own = option_names(lesson->help);
        names.insert(names.end(), own.begin(), own.end());
    }
    names.emplace_back("--help");
    if (lesson == nullptr) names.emplace_back("--version");
    return names;
}

}  // namespace

std::string help_command(const LessonSpec* lesson) { return command_name(lesson) + " --help"; }

const LessonSpec* find_lesson(const std::string& name) {
    for (auto spec = lessons_begin(); spec != lessons_end(); ++spec) {
        if (name == (*spec)->name) return *spec;
    }
    return nullptr;
}

std::string unknown_lesson(const std::string& word) {
    std::vector<std::string> candidates = lesson_names();
    const std::string lessons = fmt::format("{}", fmt::join(candidates, ", "));
    candidates.emplace_back("help");
    return "unknown lesson " + quote_for_message(word) + " (" + did_you_mean(closest_names(word, candidates), true) +
           "lessons: " + lessons + "; embdemo help LESSON describes one)";
}

std::string unexpected_word(const std::string& word, const LessonSpec* lesson, bool first_word) {
    if (lesson == nullptr) {
        std::vector<std::string> candidates = lesson_names();
        candidates.emplace_back("help");
        if (first_word || !closest_names(word, candidates).empty()) return unknown_lesson(word);
        return "unexpected argument " + quote_for_message(word) +
               " (allowed: options only, e.g. embdemo --ids 2,3,1 --dim 5)";
    }
    return "unexpected argument " + quote_for_message(word) + " (allowed: options only, those listed by " +
           help_command(lesson) + ")";
}

std::string unknown_option(const std::string& word, const LessonSpec* lesson) {
    const std::string option = word.substr(0, word.find('='));
    // CLI11 reads a lesson's options only after the lesson's name: the lesson does own this one.
    if (const OptionSpec* own = lesson == nullptr ? nullptr : find_option(lesson->help, option)) {
        const std::string usage = *own->type_name == '\0' ? option : option + " " + own->type_name;
        return fmt::format("{} is an option of {} and goes after its name (allowed: {} {}, or see {})", option,
                           command_name(lesson), command_name(lesson), usage, help_command(lesson));
    }
    std::vector<std::string> owners;
    for (auto spec = lessons_begin(); spec != lessons_end(); ++spec) {
        if (*spec != lesson && declares((*spec)->help, option)) owners.emplace_back((*spec)->name);
    }
    if (!owners.empty()) {
        return fmt::format("{} is an option of embdemo {}, not of {} (allowed: the options listed by {})", option,
                           and_list(owners), command_name(lesson), help_command(lesson));
    }
    std::string suggestion = did_you_mean(closest_names(option, allowed_options(lesson)), false);
    if (suggestion.empty()) {
        // A misspelt option of another lesson: named with the lesson it belongs to.
        for (auto spec = lessons_begin(); spec != lessons_end() && suggestion.empty(); ++spec) {
            if (*spec == lesson) continue;
            const std::vector<std::string> close = closest_names(option, option_names((*spec)->help));
            if (!close.empty()) {
                suggestion = "did you mean " + suggestion_list(close, false) + " of embdemo " + (*spec)->name + "?; ";
            }
        }
    }
    return "unknown option " + quote_for_message(word) + " (" + suggestion + "allowed: the options listed by " +
           help_command(lesson) + ")";
}

}  // namespace embdemo
