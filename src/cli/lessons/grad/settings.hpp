// embdemo grad's own settings, shared by its files: its checks (checks.cpp) fill them, its run
// (grad.cpp) reads them, and its memory plan (memory.cpp) sizes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/option_checks.hpp"
#include "cli/options.hpp"
#include "core/kernels/optim.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "core/memory.hpp"

namespace embdemo {

struct GradOptions {
    // The core request as the checks leave it: the ids, --padding-idx (-V <= K < V),
    // --scale-grad-by-freq, --upstream, --max-norm, --sparse and --top (1 to min(10, V)). The run
    // adds the sizes and E's origin, which a --weights file settles only when it is read.
    GradRequest request;
    std::string upstream_file;  // with UpstreamSource::file
    std::optional<OptimizerSettings> optimizer;  // --optimizer: steps instead of one backward
    std::size_t steps = 1;
    bool top_given = false;  // --top was given: a --weights file's V can still refuse it
};

// Its LessonChecks::own: grad's options into a GradOptions in options.own.
std::optional<std::string> check_grad(const option_checks::RawOptions& raw, Options& options);

// --top's default and bound once V is known (a --weights file without --vocab sets it late):
// request.top set, or the problem.
std::optional<std::string> grad_top_for_vocab(const GradOptions& grad, std::uint64_t vocab, GradRequest& request);

// E, G and the two gradients, or with --optimizer every step's E and gradient (the view shows
// them all), plus a machine format's text.
std::vector<Buffer> grad_buffers(const Options& options, std::uint64_t vocab_size, std::uint64_t dim);

}  // namespace embdemo
