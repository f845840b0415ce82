// embdemo tokens: GPT-2's tokenizer, text -> pieces -> merges -> ids.
#include <string>
#include <vector>

#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "io/text_input.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/views/tokens_report.hpp"
#include "render/views/tokens_text.hpp"

namespace embdemo {

int run_tokens(const Options& options) {
    const Gpt2Vocabulary& vocab = *gpt2_vocabulary().value();  // validation loaded it
    const TokensLesson lesson = run_tokens_lesson(vocab, options.tokens);
    LessonView view;
    view.report = [&](const std::vector<std::string>&) { return tokens_report(lesson, vocab); };
    view.figure = [&](int precision) { return tokens_figure(lesson, vocab, precision); };
    view.text = [&](const TextOptions&, View) { return std::vector<std::string>{render_tokens_text(lesson, vocab)}; };
    return write_view(options, view);
}


namespace {

constexpr const char* k_tokens_footer = R"(The text comes from --text or --text-file (UTF-8); --dim sets d for the table
sizes (default 768, GPT-2 small's); --format text, json, csv, tsv, markdown,
svg or html (python: the tokenizer is tiktoken's, not PyTorch's). The ids are
those of tiktoken.get_encoding("gpt2").encode(text,
allowed_special={"<|endoftext|>"}).

Examples:
  embdemo tokens --text "Your journey starts with one step"
  embdemo tokens --text "unbelievably" --piece 0
  embdemo tokens --text-file notes.txt --format json
)";

const OptionSpec k_tokens_options[] = {
    value_option("--piece", "K", "the piece to follow, from 0 (default: most merges)", &option_checks::RawOptions::piece),
};

}  // namespace

extern const LessonSpec k_tokens_lesson = {Lesson::tokens, "tokens", "GPT-2's tokenizer: text -> pieces -> merges -> ids", {},
                                         lesson_help(k_tokens_options, "", k_tokens_footer), fixed_formats<k_every_format & ~format_bit(OutputFormat::python)>, run_tokens};

}  // namespace embdemo
