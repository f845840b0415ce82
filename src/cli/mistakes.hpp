// The messages for a word on the command line that embdemo does not know: a mistyped lesson, a
// mistyped option, an option of another lesson, a stray word. Each names the word, suggests what
// it was probably meant to be (cli/did_you_mean), and says where the allowed words are listed.
// Built from the registry's data (cli/lessons), so CLI11 stays in cli/command_line.cpp.
#pragma once

#include <string>

namespace embdemo {

struct LessonSpec;

// `embdemo LESSON --help`, or `embdemo --help` when no lesson was named (`lesson` null).
std::string help_command(const LessonSpec* lesson);

// The lesson named `name`, or null.
const LessonSpec* find_lesson(const std::string& name);

// `unknown lesson "gard" (did you mean "grad"?; lessons: lookup, grad, ...)`.
std::string unknown_lesson(const std::string& word);

// A word that is not an option, met after the lesson `lesson` (null: none named): an unknown
// lesson when it stands where a lesson goes (`first_word`) or resembles one, else a stray word.
std::string unexpected_word(const std::string& word, const LessonSpec* lesson, bool first_word);

// An option (`word` starts with "-") that neither `lesson` (null: the main command) nor the
// shared options declare: the lessons it belongs to, or the closest options, and where the
// allowed ones are listed.
std::string unknown_option(const std::string& word, const LessonSpec* lesson);

}  // namespace embdemo
