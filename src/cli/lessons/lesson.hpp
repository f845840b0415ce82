// A lesson as one registered object (as ninja's kTools[]): its subcommand's name and summary,
// and its run, which prepares its inputs (files, the tokenizer, the loader), computes the core
// lesson, and writes one LessonView. The CLI is a loop over k_lessons (cli/lessons/registry.cpp).
// Adding a lesson: a core lesson, its views in render/, cli/lessons/NAME.cpp, and one row there.
#pragma once

#include <string_view>

#include "cli/options.hpp"

namespace embdemo {

struct LessonSpec {
    Lesson id;
    const char* name;     // the subcommand: "grad"
    const char* summary;  // its line in embdemo --help
    int (*run)(const Options& options);
};

// Every lesson, the default (the notebook's lookup) first.
const LessonSpec* lessons_begin();
const LessonSpec* lessons_end();
const LessonSpec& lesson_spec(Lesson id);
const LessonSpec* find_lesson(std::string_view name);

// Each lesson's run, defined in its own cli/lessons/NAME.cpp.
int run_lookup(const Options& options);
int run_grad(const Options& options);
int run_cost(const Options& options);
int run_bench(const Options& options);
int run_positions(const Options& options);
int run_tied(const Options& options);
int run_factor(const Options& options);
int run_bag(const Options& options);
int run_tokens(const Options& options);

}  // namespace embdemo
