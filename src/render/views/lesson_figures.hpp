// The figures (--format svg and html) of the lessons beyond lookup and grad: each a pure function
// from a lesson's result to a Figure (render/views/figure.hpp), every cell spelled and every row and
// column chosen as the lesson's text view does, every caption sentence computed from the run.
// None of them knows SVG or the command line.
#pragma once

#include "core/lessons/bag_lesson.hpp"
#include "core/lessons/cost.hpp"
#include "core/lessons/factor_lesson.hpp"
#include "core/gpt2/gpt2_vocab.hpp"
#include "core/lessons/max_norm_lesson.hpp"
#include "core/kernels/optim.hpp"
#include "core/lessons/positions_lesson.hpp"
#include "core/lessons/tied_lesson.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "render/kit/figure_model.hpp"

namespace embdemo {

// Each bag's rows of E reduced to one row; for sum and mean also M @ E, M multi-hot (counts,
// counts / bag length, or summed per-sample weights); for max the rows each bag picks, with the
// cells that won each column framed (max has no matrix form).
Figure bag_figure(const BagLesson& lesson, int precision);

// E[ids] + P[0..T) (learned or sinusoidal P), or RoPE(E[ids], t) with its scores; and the data
// loader's inputs and targets when the ids came from one.
Figure positions_figure(const PositionsLesson& lesson, int precision);

// H @ E.T = logits, each row's top-k logits framed.
Figure tied_figure(const TiedLesson& lesson, int precision);

// E1[ids] @ E2, and (one_hot(ids) @ E1) @ E2 with the cells where the routes differ framed.
Figure factor_figure(const FactorLesson& lesson, int precision);

// E as drawn and its rescaled rows after emb(ids), the lookup in E after, and one_hot(ids) @ E
// with E as drawn.
Figure max_norm_figure(const MaxNormLesson& lesson, int precision);

// text -> pieces -> ids, and the followed piece's BPE merges.
Figure tokens_figure(const TokensLesson& lesson, const Gpt2Vocabulary& vocab, int precision);

// The rows of E each optimizer step moved (and by how much), and E before and after.
Figure training_figure(const TrainingArgs& args, const TrainingRun& run, int precision);

// The work of each way to compute the embedding, forward and backward, on a log axis.
Figure cost_figure(const CostLesson& lesson);

}  // namespace embdemo
