// An option as data: its name, the name of its value and its help line, and where the parser
// puts it: a shared option in its RawOptions member, a lesson's own in RawOptions::own under
// its name, so that a lesson declares its options without touching a shared file. Each lesson
// lists its own (cli/lessons/NAME.cpp); cli/command_line.cpp hands a lesson's list to CLI11 when
// the command line names the lesson, and CLI11 stays in that one translation unit. Values are read as strings and checked by embdemo's own
// parsers, so every message is in embdemo's words.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "cli/option_checks.hpp"

namespace embdemo {

struct OptionSpec {
    const char* name;       // "--padding-idx"
    const char* type_name;  // "K"; empty for a flag
    const char* help;       // one line, within 80 columns with the name (CLI11 does not wrap)
    std::optional<std::string> option_checks::RawOptions::*value = nullptr;
    std::string option_checks::RawOptions::*with_default = nullptr;  // shown in --help
    bool option_checks::RawOptions::*flag = nullptr;
    bool own_flag = false;  // a lesson's own flag (no member): RawOptions::flag(name)
};

constexpr OptionSpec value_option(const char* name, const char* type_name, const char* help,
                                  std::optional<std::string> option_checks::RawOptions::*member) {
    return {name, type_name, help, member, nullptr, nullptr};
}

constexpr OptionSpec defaulted_option(const char* name, const char* type_name, const char* help,
                                      std::string option_checks::RawOptions::*member) {
    return {name, type_name, help, nullptr, member, nullptr};
}

constexpr OptionSpec flag_option(const char* name, const char* help, bool option_checks::RawOptions::*member) {
    return {name, "", help, nullptr, nullptr, member};
}

// A lesson's own option with a value, read as RawOptions::value(name).
constexpr OptionSpec own_value(const char* name, const char* type_name, const char* help) {
    return {name, type_name, help, nullptr, nullptr, nullptr, false};
}

// A lesson's own flag, read as RawOptions::flag(name).
constexpr OptionSpec own_flag(const char* name, const char* help) { return {name, "", help, nullptr, nullptr, nullptr, true}; }

// A lesson's options and the footer of its --help.
struct LessonHelp {
    const OptionSpec* options = nullptr;
    std::size_t option_count = 0;
    const char* footer_head = "";  // a first paragraph lessons share
    const char* footer = "";
};

// The option of that name in `help`'s list, or null.
inline const OptionSpec* find_option(const LessonHelp& help, std::string_view name) {
    for (std::size_t i = 0; i < help.option_count; ++i) {
        if (name == help.options[i].name) return &help.options[i];
    }
    return nullptr;
}

template <std::size_t N>
constexpr LessonHelp lesson_help(const OptionSpec (&options)[N], const char* footer_head, const char* footer) {
    return {options, N, footer_head, footer};
}

// The first paragraph of the footer of positions, tied and factor.
extern const char* const k_table_lesson_shared;

}  // namespace embdemo
