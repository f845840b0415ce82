// `embdemo tokens`'s views, the one include of its command: its report for the machine formats
// (report.hpp), its text view (text.hpp), its figure for svg and html, and the views of --ids
// decoding (decode.hpp). Each is a pure function of the lesson's result.
#pragma once

#include "core/lessons/tokens_lesson.hpp"
#include "core/gpt2/gpt2_vocab.hpp"
#include "render/kit/figure_model.hpp"
#include "render/views/tokens/report.hpp"
#include "render/views/tokens/text.hpp"
#include "render/views/tokens/decode.hpp"
#include "render/views/tokens/compare.hpp"

namespace embdemo {

// text -> pieces -> ids, and the followed piece's BPE merges.
Figure tokens_figure(const TokensLesson& lesson, const Gpt2Vocabulary& vocab, int precision);

}  // namespace embdemo
