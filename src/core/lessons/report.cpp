#include "core/lessons/report.hpp"

#include <chrono>
#include <utility>

#include "core/kernels/torch_matmul.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

template <typename Work>
double seconds_taken(Work&& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::vector<Buffer> demo_buffers(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim) {
    const auto values = [](std::uint64_t a, std::uint64_t b) { return checked_multiply(a, b).value_or(UINT64_MAX); };
    const std::uint64_t threads = product_threads(ids, vocab_size, dim);
    const std::uint64_t block_rows = onehot_block_rows(vocab_size, OneHotProductSettings{}.block_values);
    return {
        {"E (vocab x dim)", values(vocab_size, dim), 4},
        values(ids, vocab_size) <= k_onehot_kept_values
            ? Buffer{"X (ids x vocab)", values(ids, vocab_size), 4}
            : Buffer{"blocks of X's rows and their products (one each per thread)",
                     values(threads, block_rows * (vocab_size + dim)), 4},
        {"the lookup E[ids] (ids x dim)", values(ids, dim), 4},
        {"the product X @ E (ids x dim)", values(ids, dim), 4},
        {"the nn.Linear output (ids x dim)", values(ids, dim), 4},
        {"nn.Linear's weight W = E.T (dim x vocab)", values(vocab_size, dim), 4},
        {"the BLAS (code and work space)", k_blas_bytes, 1},
    };
}

DemoReport build_demo_report(const DemoRequest& request, Matrix weight, const ProductProgress& progress) {
    DemoReport report;
    report.request = request;
    report.weight = std::move(weight);
    const std::uint64_t n = request.ids.size();
    if (n * request.vocab_size <= k_onehot_kept_values) report.onehot = one_hot(request.ids, request.vocab_size);
    load_blas();
    report.timing.lookup_seconds = seconds_taken([&] { report.lookup = lookup(report.weight, request.ids); });
    // Both products go through the BLAS as PyTorch's one_hot(ids).float() @ E and
    // F.linear(one_hot, W) do, so the verdict is the one PyTorch would reach on this machine.
    OneHotProductSettings settings;
    settings.threads = product_threads(n, request.vocab_size, request.dim);
    settings.progress = progress;
    report.timing.product_threads = onehot_threads_used(n, request.vocab_size, settings);
    report.timing.product_seconds =
        seconds_taken([&] { report.onehot_matmul = onehot_mm(request.ids, report.weight, settings); });
    report.linear_output = onehot_linear(request.ids, transpose(report.weight), settings);
    report.verdict = compare_exact(report.lookup, report.onehot_matmul);
    report.linear_verdict = compare_exact(report.lookup, report.linear_output);
    report.difference = first_difference(report.weight, request.ids, report.lookup, report.onehot_matmul);
    return report;
}

}  // namespace embdemo
