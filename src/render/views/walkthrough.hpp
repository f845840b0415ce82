// --walkthrough: a narrated classroom run that follows the notebook of "Build a Large Language
// Model From Scratch" step by step, with the PyTorch line of each step and the real numbers of
// the current arguments. Plain sentences, no colour needed to follow it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/lessons/report.hpp"
#include "render/views/text.hpp"

namespace embdemo {

// One step of the lesson, before numbering: the --walkthrough pages and the HTML page are both
// made from these, so the narration is written once.
struct WalkthroughStep {
    std::string title;  // "the one-hot matrix X"
    std::string body;   // lines ending in '\n', at most 80 columns
    // The positions in ids this step is about (step 6 traces one id); empty: all of them.
    std::vector<std::size_t> focus;
};

// The seven steps, in order, with the numbers of this run. Ids from a text get a first step
// more, from the text to its ids (walkthrough_text), when `vocab` (GPT-2's, which made them) is given.
std::vector<WalkthroughStep> walkthrough_steps(const DemoReport& report, const Matrix& linear_init,
                                               const TextOptions& options, const Gpt2Vocabulary* vocab = nullptr);

// "Step 3 of 7: looking up ids".
std::string step_heading(std::size_t number, std::size_t count, const WalkthroughStep& step);

// One string per step; the caller may pause between them. `linear_init` is the weight
// nn.Linear(V, d, bias=False) starts with after torch.manual_seed(seed) (d x V).
std::vector<std::string> render_walkthrough(const DemoReport& report, const Matrix& linear_init,
                                            const TextOptions& options, const Gpt2Vocabulary* vocab = nullptr);

}  // namespace embdemo
