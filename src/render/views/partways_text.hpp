// The text sections of where the lookup and the one-hot product part ways (issue #15): what
// max_norm did to E, the sparse gradient next to the dense one with what each costs, and the
// one-hot form's own gradient dL/dX = G @ Eᵀ with the best swaps per position. Shared by the grad
// lesson's view and the lookup lesson's --max-norm view. Every sentence comes from the numbers.
#pragma once

#include <string>
#include <vector>

#include "core/lessons/grad_lesson.hpp"
#include "core/ids.hpp"
#include "core/kernels/max_norm.hpp"
#include "render/views/text.hpp"

namespace embdemo {

// "max_norm=1.0, norm_type=2.0", as nn.Embedding's repr spells them.
std::string max_norm_arguments(const MaxNorm& max_norm);

// "2 of the 3 distinct ids' rows had a norm (p = 2.0) above 1.0 and were multiplied by ...":
// what the renormalisation did, from its rows.
std::string renorm_verdict(std::size_t distinct, std::size_t rescaled, const MaxNorm& max_norm);

// The norms of the distinct ids' rows, which were rescaled and by what factor (a summary past
// a screenful of ids).
std::string render_renorm_rows(const std::vector<RenormRow>& rows, const MaxNorm& max_norm);

// grad --max-norm: the renormalisation, and why the gradient does not change.
std::string render_grad_max_norm(const GradLesson& lesson, const TextOptions& options);

// grad --sparse: the COO gradient uncoalesced and coalesced, memory at this size and at GPT-2's,
// and which optimizers take it.
std::string render_grad_sparse(const GradLesson& lesson, const TextOptions& options);

// dL/dX = G @ Eᵀ and, per position, the `top` tokens with the lowest score next to the token there.
std::string render_onehot_input(const GradLesson& lesson, const TextOptions& options);

}  // namespace embdemo
