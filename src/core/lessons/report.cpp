#include "core/lessons/report.hpp"

#include <utility>

#include "core/kernels/torch_matmul.hpp"

namespace embdemo {

DemoReport build_demo_report(const DemoRequest& request, Matrix weight) {
    DemoReport report;
    report.request = request;
    report.weight = std::move(weight);
    report.onehot = one_hot(request.ids, request.vocab_size);
    report.lookup = lookup(report.weight, request.ids);
    // Both products go through the BLAS as PyTorch's one_hot(ids).float() @ E and
    // F.linear(one_hot, W) do, so the verdict is the one PyTorch would reach on this machine.
    report.onehot_matmul = torch_mm(report.onehot, report.weight);
    report.linear_output = torch_linear(report.onehot, transpose(report.weight));
    report.verdict = compare_exact(report.lookup, report.onehot_matmul);
    report.linear_verdict = compare_exact(report.lookup, report.linear_output);
    report.difference = first_difference(report.weight, request.ids, report.lookup, report.onehot_matmul);
    return report;
}

}  // namespace embdemo
