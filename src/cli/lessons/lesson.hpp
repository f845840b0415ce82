// A lesson as one registered object (as ninja's kTools[]): its subcommand's name and summary,
// and its run, which prepares its inputs (files, the tokenizer, the loader), computes the core
// lesson, and writes one LessonView. The CLI is a loop over k_lessons (cli/lessons/registry.cpp).
// Adding a lesson: a core lesson, its views in render/, cli/lessons/NAME.cpp, and one row there.
// Nothing outside a lesson's own files names it: what the shared code must know of a lesson is
// in its LessonCaps and LessonChecks.
#pragma once

#include <optional>
#include <string>

#include "cli/option_spec.hpp"
#include "cli/options.hpp"
#include "core/limits.hpp"

namespace embdemo {

// What the shared checks need to know of a lesson.
struct LessonCaps {
    bool table_ids = false;   // reads --ids as B x T rows and draws its own tables (no --weights)
    bool trace = false;       // has a --trace view
    bool own_parser = false;  // a program of its own parses its options (embdemo-bench)
    // Takes the demo's view and file options (k_lookup_only_options): the lookup lesson.
    bool demo_views = false;
    // How its run holds X, for the shared size check (core/limits.hpp); nullopt: the lesson
    // checks its own sizes (bag's product is bags x V x d, not ids x V x d).
    std::optional<OneHotHeld> one_hot = OneHotHeld::whole;
    // --context without a text is the lesson's own (positions: C, the rows of P), not the loader's T.
    bool own_context = false;
    // The seed may draw more than E (grad's G), so --seed with --weights is the lesson's to check.
    bool seed_draws_more = false;
    // A table lesson that estimates its memory and keeps --max-memory's budget (tied, bag); the
    // others refuse the option.
    bool memory_budget = false;
    // Writes its trained table with --save-weights and --export-projector (train), which are
    // otherwise the lookup's.
    bool saves_weights = false;
};

// A lesson's own checks, run by option_checks::validate in this order; each may be null.
struct LessonChecks {
    // Its prepare step, the first: its inputs read (a text tokenised, the data loader run) into the
    // ids. Null: option_checks::prepare_ids, for --ids, --text or --text-file (bag reads --bags).
    ParseResult<IdBatch> (*prepare)(const option_checks::RawOptions& raw) = nullptr;
    // After the shared options are valid: its own options, into Options. A problem, or nullopt.
    std::optional<std::string> (*own)(const option_checks::RawOptions& raw, Options& options) = nullptr;
    // Instead of the shared validation, for lessons that take few of the shared options (cost, tokens).
    CommandLine (*whole)(const option_checks::RawOptions& raw) = nullptr;
};

struct LessonSpec {
    // Each lesson's file fills the rest by name: `spec.caps.trace = true; spec.run = run_grad;`.
    LessonSpec(const char* lesson_name, const char* help_summary) : name(lesson_name), summary(help_summary) {}

    const char* name;     // the subcommand: "grad"
    const char* summary;  // its line in embdemo --help
    LessonCaps caps;
    LessonHelp help;      // its options and its --help footer
    // The formats its view carries for these options (a mode such as --optimizer may carry
    // fewer); any other --format is refused before the run, naming these.
    FormatSet (*formats)(const option_checks::RawOptions& raw) = nullptr;
    LessonChecks checks;
    int (*run)(const Options& options) = nullptr;
    // The shared options it reads, when not all but those its caps refuse (cost, tokens).
    const char* const* shared_options = nullptr;
    std::size_t shared_option_count = 0;
    // Shared options it refuses besides (bag: --ids), for completion; its checks say why.
    const char* const* refused_options = nullptr;
    std::size_t refused_option_count = 0;
};

// The main command's options, which every lesson takes, and the text of embdemo --help.
extern const LessonHelp k_shared_help;
extern const char* const k_main_description;

// Every lesson, the default (the notebook's lookup) first.
const LessonSpec* const* lessons_begin();
const LessonSpec* const* lessons_end();

// For lessons whose view carries the same formats whatever the options.
template <FormatSet Formats>
FormatSet fixed_formats(const option_checks::RawOptions&) { return Formats; }

// "the lookup, grad and bag lessons": those with a capability, for messages.
std::string lessons_with(bool LessonCaps::*capability);

}  // namespace embdemo
