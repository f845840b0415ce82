// A lesson as one registered object (as ninja's kTools[]): its subcommand's name and summary,
// and its run, which prepares its inputs (files, the tokenizer, the loader), computes the core
// lesson, and writes one LessonView. The CLI is a loop over k_lessons (cli/lessons/registry.cpp).
// Adding a lesson: a core lesson, its views in render/, cli/lessons/NAME.cpp, and one row there.
#pragma once

#include <string>

#include "cli/option_spec.hpp"
#include "cli/options.hpp"

namespace embdemo {

// What the shared checks need to know of a lesson.
struct LessonCaps {
    bool table_ids = false;   // reads --ids as B x T rows and draws its own tables (no --weights)
    bool trace = false;       // has a --trace view
    bool own_parser = false;  // a program of its own parses its options (embdemo-bench)
};

struct LessonSpec {
    Lesson id;
    const char* name;     // the subcommand: "grad"
    const char* summary;  // its line in embdemo --help
    LessonCaps caps;
    LessonHelp help;      // its options and its --help footer
    // The formats its view carries for these options (a mode such as --optimizer may carry
    // fewer); any other --format is refused before the run, naming these.
    FormatSet (*formats)(const option_checks::RawOptions& raw);
    int (*run)(const Options& options);
};

// Each lesson's, defined in its own cli/lessons/NAME.cpp and listed once in registry.cpp.
extern const LessonSpec k_lookup_lesson, k_grad_lesson, k_cost_lesson, k_bench_lesson, k_positions_lesson,
    k_tied_lesson, k_factor_lesson, k_tokens_lesson, k_bag_lesson;

// The main command's options, which every lesson takes, and the text of embdemo --help.
extern const LessonHelp k_shared_help;
extern const char* const k_main_description;

// Every lesson, the default (the notebook's lookup) first.
const LessonSpec* const* lessons_begin();
const LessonSpec* const* lessons_end();
const LessonSpec& lesson_spec(Lesson id);

// For lessons whose view carries the same formats whatever the options.
template <FormatSet Formats>
FormatSet fixed_formats(const option_checks::RawOptions&) { return Formats; }

// "the lookup, grad and bag lessons": those with a capability, for messages.
std::string lessons_with(bool LessonCaps::*capability);

}  // namespace embdemo
