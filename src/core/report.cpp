#include "core/report.hpp"

#include <utility>

namespace embdemo {

DemoReport build_demo_report(const DemoRequest& request, Matrix weight) {
    DemoReport report;
    report.request = request;
    report.weight = std::move(weight);
    report.onehot = one_hot(request.ids, request.vocab_size);
    report.lookup = lookup(report.weight, request.ids);
    report.onehot_matmul = matmul(report.onehot, report.weight);
    // nn.Linear(V, d) with W = Eᵀ: read from E in place rather than from a copy of Eᵀ.
    report.linear_output = linear_forward_transposed(report.onehot, report.weight);
    report.verdict = compare_exact(report.lookup, report.onehot_matmul);
    report.linear_verdict = compare_exact(report.lookup, report.linear_output);
    report.difference = first_difference(report.weight, request.ids, report.lookup, report.onehot_matmul);
    return report;
}

}  // namespace embdemo
