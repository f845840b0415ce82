// What every lesson's run shares: writing to stdout so that a failed write is never exit 0,
// error lines, the terminal's text options, and writing a LessonView as the options ask.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "core/kernels/onehot_products.hpp"
#include "render/formats/lesson_view.hpp"

namespace embdemo {

void print_error(const std::string& message);

// Writes the whole text; `not_written` names the files the run drops when this fails
// ("--save-weights \"e.npy\" was"). A reader that closed its pipe early chose to stop reading:
// exit 1 without a message, unless files were dropped.
int write_stdout(const std::string& text, const std::string& not_written = "");

// The text view's settings for this terminal: width, colour, palette, precision.
TextOptions text_options(const Options& options);

// "one-hot product: 1,234 of 6,237 rows (19%)" on stderr, redrawn in place, for work that
// runs past a second; nothing when stderr is not a terminal (a script reads only the result).
// `what` names the work ("logits H @ E.T: ..."), `unit` what it counts ("train: 40 of 100 steps").
ProductProgress terminal_progress(const char* what = "one-hot product", const char* unit = "rows");

// The files a run writes besides stdout, staged and committed around writing the view.
struct StagedFiles {
    std::string not_written;  // for the message when stdout fails
    std::function<std::string()> commit;  // renames them into place: a message, or empty
};

// Renders the view in the format the options ask for, all of it before anything is written,
// and writes it (step by step with --pause on a terminal). Returns the exit status of that.
int write_view(const Options& options, const LessonView& view, const StagedFiles& files = {});

// The exit status of a run that wrote its view with `written`: a failed write wins, then
// "differ" (3) when the lesson's two forms disagree. With csv or tsv, which carry only numbers,
// `why` (when not empty) is said on stderr as a note.
int lesson_status(const Options& options, int written, bool identical, const std::string& why = "");

}  // namespace embdemo
