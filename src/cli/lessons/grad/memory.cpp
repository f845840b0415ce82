// embdemo grad's memory plan: what its run holds, listed before anything is allocated.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cli/lessons/grad/settings.hpp"
#include "cli/run_memory.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/limits.hpp"

namespace embdemo {

std::vector<Buffer> grad_buffers(const Options& options, std::uint64_t vocab_size, std::uint64_t dim) {
    const auto values = [](std::uint64_t a, std::uint64_t b) { return checked_multiply(a, b).value_or(UINT64_MAX); };
    const std::uint64_t n = options.request.ids.size();
    const std::uint64_t table = values(vocab_size, dim);
    std::vector<Buffer> buffers{{"E (vocab x dim)", table, 4}, {"G (ids x dim)", values(n, dim), 4}};
    if (own_settings<GradOptions>(options).optimizer) {
        // The run holds E as drawn, E as it trains and E before the current step; the optimizer's
        // state (Adam's two running averages, SGD's momentum buffer); and, for the view, E after
        // each step and its gradient.
        const OptimizerSettings& optimizer = *own_settings<GradOptions>(options).optimizer;
        const std::uint64_t state = optimizer.kind != OptimizerKind::sgd ? 2 : optimizer.momentum != 0.0 ? 1 : 0;
        const std::uint64_t steps = own_settings<GradOptions>(options).steps;
        buffers.push_back({"three copies of E (as drawn, training, before a step)", values(3, table), 4});
        if (state > 0) buffers.push_back({"the optimizer's state", values(state, table), 4});
        buffers.push_back({"E and dE of every step (2 x steps x vocab x dim)", values(2 * steps, table), 4});
    } else {
        buffers.push_back({"dE, the embedding's backward (vocab x dim)", table, 4});
        buffers.push_back({"dE, one_hot(ids).T @ G (vocab x dim)", table, 4});
        // The two n x V x d products a block at a time (core/lessons/grad_lesson.cpp): per
        // thread a block of X's columns and its rows of dE, then a block of G's rows and its
        // scores; dL/dX itself whole up to k_onehot_kept_values, else the rows the views show.
        const OneHotProductSettings blocks;
        const std::uint64_t threads = product_threads(n, vocab_size, dim);
        // Each thread hands its blocks' products to the BLAS (onehot_products.cpp).
        buffers.push_back(blas_buffer(threads));
        const std::uint64_t columns = std::min<std::uint64_t>(vocab_size, aligned_block_rows(n, blocks.block_values));
        const std::uint64_t rows = std::min<std::uint64_t>(n, aligned_block_rows(vocab_size, blocks.block_values));
        const std::uint64_t scores = values(n, vocab_size);
        const std::uint64_t block = std::max(values(columns, n) + values(columns, dim),
                                             values(rows, dim) + values(rows, vocab_size));
        buffers.push_back(scores <= blocks.block_values
                              ? Buffer{"X (ids x vocab)", scores, 4}  // one call: its result is dE itself
                              : Buffer{"blocks of X and of the scores (one each per thread)", values(threads, block), 4});
        buffers.push_back(scores <= k_onehot_kept_values
                              ? Buffer{"dL/dX = G @ E.T (ids x vocab)", scores, 4}
                              : Buffer{"dL/dX's rows the views show (16 x vocab)",
                                       values(std::min<std::uint64_t>(n, 2 * k_kept_score_positions), vocab_size), 4});
        if (options.max_norm) buffers.push_back({"E after max_norm (vocab x dim)", table, 4});
        if (own_settings<GradOptions>(options).request.sparse) buffers.push_back({"the sparse gradient, two forms (2 x ids x dim)", values(2 * n, dim), 4});
    }
    if (options.format == OutputFormat::json || options.format == OutputFormat::csv ||
        options.format == OutputFormat::tsv) {
        // E, dE and the dense gradient (V rows each), G's and dL/dX's rows (n each).
        buffers.push_back(printed_output(options.format, values(3, table) + values(n, dim) + values(n, vocab_size),
                                         3 * vocab_size + 2 * n));
    }
    return buffers;
}

}  // namespace embdemo
