// embdemo tokens: GPT-2's tokenizer, text -> pieces -> merges -> ids.
#include <string>
#include <vector>

#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/option_spec.hpp"
#include "io/text_input.hpp"
#include "render/views/lesson_figures.hpp"
#include "render/views/tokens_decode.hpp"
#include "render/views/tokens_report.hpp"
#include "render/views/tokens_text.hpp"

namespace embdemo {

// --ids: the ids decoded back to text.
int run_tokens_decode(const Options& options, const Gpt2Vocabulary& vocab) {
    const Gpt2Decoding decoding = decode_gpt2(vocab, *options.tokens.decode_ids);
    LessonView view;
    view.report = [&](const std::vector<std::string>&) { return tokens_decode_report(decoding); };
    view.figure = [&](int) { return tokens_decode_figure(decoding); };
    view.text = [&](const TextOptions&, View) { return std::vector<std::string>{render_tokens_decode_text(decoding)}; };
    return write_view(options, view);
}

int run_tokens(const Options& options) {
    const Gpt2Vocabulary& vocab = *gpt2_vocabulary().value();  // validation loaded it
    if (options.tokens.decode_ids) return run_tokens_decode(options, vocab);
    const TokensLesson lesson = run_tokens_lesson(vocab, options.tokens);
    LessonView view;
    view.report = [&](const std::vector<std::string>&) { return tokens_report(lesson, vocab); };
    view.figure = [&](int precision) { return tokens_figure(lesson, vocab, precision); };
    view.text = [&](const TextOptions&, View) { return std::vector<std::string>{render_tokens_text(lesson, vocab)}; };
    return write_view(options, view);
}


namespace {

constexpr const char* k_tokens_footer = R"(The text comes from --text (up to Linux's 131,072 bytes per argument) or
--text-file (UTF-8, up to 16 MiB); --dim sets d for the table sizes (default
768, GPT-2 small's); --format text, json, csv, tsv, markdown, svg or html
(python: the tokenizer is tiktoken's, not PyTorch's). The ids are those of
tiktoken.get_encoding("gpt2").encode(text, allowed_special={"<|endoftext|>"}).

--ids LIST decodes GPT-2 ids (0 to 50,256) instead: each id's bytes (tiktoken's
decode_single_token_bytes), escaped where they are not UTF-8 on their own, and
the text they join into (decode_bytes; decode puts U+FFFD where they are not).

Examples:
  embdemo tokens --text "Your journey starts with one step"
  embdemo tokens --text "unbelievably" --piece 0
  embdemo tokens --text-file notes.txt --format json
  embdemo tokens --ids 7120,7002,4940,351,530,2239
)";

const OptionSpec k_tokens_options[] = {
    value_option("--piece", "K", "the piece to follow, from 0 (default: most merges)", &option_checks::RawOptions::piece),
};

}  // namespace

extern const LessonSpec k_tokens_lesson = {Lesson::tokens, "tokens", "GPT-2's tokenizer: text -> pieces -> merges -> ids", {},
                                         lesson_help(k_tokens_options, "", k_tokens_footer), fixed_formats<k_every_format & ~format_bit(OutputFormat::python)>, run_tokens};

}  // namespace embdemo
