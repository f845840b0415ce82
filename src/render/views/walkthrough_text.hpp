// The walkthrough's first step for ids that came from a text (--text, --text-file): the text, the
// pieces GPT-2's pattern cuts it into and the ids each piece becomes (the tokens lesson's
// numbers), and with --context the data loader's windows and targets, whose first batch the
// later steps embed. Typed ids start at the notebook's first step instead (walkthrough.cpp).
#pragma once

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/lessons/report.hpp"
#include "render/views/walkthrough.hpp"

namespace embdemo {

// `request.source` must come from a text; `vocab` is GPT-2's, which made its ids.
WalkthroughStep text_step(const DemoRequest& request, const Gpt2Vocabulary& vocab);

}  // namespace embdemo
