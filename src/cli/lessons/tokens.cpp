// embdemo tokens: GPT-2's tokenizer, text -> pieces -> merges -> ids.
#include <string>
#include <vector>

#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "cli/text_input.hpp"
#include "render/tokens_text.hpp"

namespace embdemo {

int run_tokens(const Options& options) {
    const Gpt2Vocabulary& vocab = *gpt2_vocabulary().value();  // validation loaded it
    const TokensLesson lesson = run_tokens_lesson(vocab, options.tokens);
    LessonView view;
    view.json = [&] { return render_tokens_json(lesson, vocab); };
    view.text = [&](const TextOptions&, View) { return std::vector<std::string>{render_tokens_text(lesson, vocab)}; };
    return write_view(options, view);
}

}  // namespace embdemo
