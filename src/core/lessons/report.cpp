#include "core/lessons/report.hpp"

#include <chrono>
#include <utility>

#include "core/file_formats/weight_file.hpp"
#include "core/kernels/onehot_dense.hpp"
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

std::vector<Buffer> demo_buffers(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim, const WeightOrigin& origin) {
    const auto values = [](std::uint64_t a, std::uint64_t b) { return checked_multiply(a, b).value_or(UINT64_MAX); };
    const std::uint64_t threads = product_threads(ids, vocab_size, dim);
    std::vector<Buffer> buffers{{"E (vocab x dim)", values(vocab_size, dim), 4}};
    const bool x_kept = values(ids, vocab_size) <= k_onehot_kept_values;
    if (x_kept) buffers.push_back({"X (ids x vocab)", values(ids, vocab_size), 4});
    buffers.insert(buffers.end(), {
        {"the lookup E[ids] (ids x dim)", values(ids, dim), 4},
        {"the product X @ E (ids x dim)", values(ids, dim), 4},
        {"the nn.Linear output (ids x dim)", values(ids, dim), 4},
    });
    // The path the products take (onehot_products.hpp): a table with inf or nan goes to the BLAS,
    // a block of X's rows at a time, F.linear with W = E.T made; any other takes the dense
    // kernel, which reads W in place as E.
    if (origin.special_values) {
        buffers.push_back({"nn.Linear's weight W = E.T (dim x vocab)", values(vocab_size, dim), 4});
        const std::uint64_t block_rows = onehot_block_rows(vocab_size, OneHotProductSettings{}.block_values);
        if (!x_kept) {
            buffers.push_back({"blocks of X's rows and their products (one each per thread)",
                               values(threads, block_rows * (vocab_size + dim)), 4});
        }
        buffers.push_back(blas_buffer());
    } else {
        buffers.push_back({"the dense kernel's packed panels (one set per thread)",
                           values(threads, onehot_dense_panel_floats(ids, dim)), 4});
    }
    // A file's values are read before any of the above but E is made: while read they take up
    // to twice E's room (values_read_peak), which the sum above may not cover.
    if (origin.kind == WeightOrigin::Kind::file) {
        std::uint64_t listed = 0;
        for (const Buffer& buffer : buffers) listed += buffer.elements * buffer.element_bytes;
        const std::uint64_t reading = values_read_peak(values(vocab_size, dim)) * 4;
        if (reading > listed) buffers.insert(buffers.begin() + 1, {"E while the file is read", reading - listed, 1});
    }
    return buffers;
}

DemoReport build_demo_report(const DemoRequest& request, Matrix weight, const ProductProgress& progress) {
    DemoReport report;
    report.request = request;
    report.weight = std::move(weight);
    const std::uint64_t n = request.ids.size();
    if (n * request.vocab_size <= k_onehot_kept_values) report.onehot = one_hot(request.ids, request.vocab_size);
    // PyTorch's and the pattern inits draw no inf or nan; a file's table is scanned here (the
    // lookup lesson's loader scanned it too, for the memory budget: 10 ms at GPT-2's size).
    const bool finite = request.origin.kind != WeightOrigin::Kind::file || all_finite(report.weight);
    if (!finite) load_blas();  // opened now, so that the product's time is the product's
    report.timing.lookup_seconds = seconds_taken([&] { report.lookup = lookup(report.weight, request.ids); });
    // Both products have the bits PyTorch's one_hot(ids).float() @ E and F.linear(one_hot, W)
    // have on this machine (onehot_products.hpp: the dense kernel for a finite table, the BLAS
    // otherwise), so the verdict is the one PyTorch would reach.
    OneHotProductSettings settings;
    settings.threads = product_threads(n, request.vocab_size, request.dim);
    settings.progress = progress;
    settings.finite_table = finite;
    OneHotProductRun run;
    report.timing.product_seconds =
        seconds_taken([&] { report.onehot_matmul = onehot_mm(request.ids, report.weight, settings, run); });
    report.timing.product_threads = run.threads;
    report.timing.through_blas = run.through_blas;
    report.linear_output = onehot_linear(request.ids, report.weight, settings);
    report.verdict = compare_exact(report.lookup, report.onehot_matmul);
    report.linear_verdict = compare_exact(report.lookup, report.linear_output);
    report.difference = first_difference(report.weight, request.ids, report.lookup, report.onehot_matmul);
    return report;
}

}  // namespace embdemo
