#include "core/lessons/report_matrices.hpp"

#include <algorithm>

#include "core/limits.hpp"

namespace embdemo {

const char* matrix_name(ReportMatrix which) {
    switch (which) {
        case ReportMatrix::weight: return "weight";
        case ReportMatrix::onehot: return "onehot";
        case ReportMatrix::lookup: return "lookup";
        case ReportMatrix::onehot_matmul: return "onehot_matmul";
        case ReportMatrix::linear_output: return "linear_output";
    }
    return "";
}

const char* matrix_formula(ReportMatrix which) {
    switch (which) {
        case ReportMatrix::weight: return "E";
        case ReportMatrix::onehot: return "X = one_hot(ids)";
        case ReportMatrix::lookup: return "E[ids]";
        case ReportMatrix::onehot_matmul: return "X @ E";
        case ReportMatrix::linear_output: return "X @ W.T with W = E.T";
    }
    return "";
}

std::optional<ReportMatrix> find_report_matrix(std::string_view name) {
    for (const ReportMatrix which : k_report_matrices) {
        if (name == matrix_name(which)) return which;
    }
    return std::nullopt;
}

const Matrix& report_matrix(const DemoReport& report, ReportMatrix which) {
    switch (which) {
        case ReportMatrix::weight: return report.weight;
        case ReportMatrix::onehot: return report.onehot;
        case ReportMatrix::lookup: return report.lookup;
        case ReportMatrix::onehot_matmul: return report.onehot_matmul;
        case ReportMatrix::linear_output: break;
    }
    return report.linear_output;
}

std::uint64_t report_matrix_values(ReportMatrix which, std::uint64_t ids, std::uint64_t vocab_size,
                                   std::uint64_t dim) {
    switch (which) {
        case ReportMatrix::weight: return vocab_size * dim;
        case ReportMatrix::onehot: return ids * vocab_size;
        case ReportMatrix::lookup:
        case ReportMatrix::onehot_matmul:
        case ReportMatrix::linear_output: break;
    }
    return ids * dim;
}

bool is_shown(const MatrixSelection& shown, ReportMatrix which) {
    return shown.empty() || std::find(shown.begin(), shown.end(), which) != shown.end();
}

std::uint64_t printed_values(const MatrixSelection& shown, std::uint64_t ids, std::uint64_t vocab_size,
                             std::uint64_t dim) {
    std::uint64_t total = 0;
    for (const ReportMatrix which : k_report_matrices) {
        if (is_shown(shown, which)) total += report_matrix_values(which, ids, vocab_size, dim);
    }
    return total;
}

std::uint64_t printed_rows(const MatrixSelection& shown, std::uint64_t ids, std::uint64_t vocab_size) {
    std::uint64_t total = 0;
    for (const ReportMatrix which : k_report_matrices) {
        if (is_shown(shown, which)) total += which == ReportMatrix::weight ? vocab_size : ids;
    }
    return total;
}

std::optional<std::string> check_printed_values(const MatrixSelection& shown,
                                                std::uint64_t ids, std::uint64_t vocab_size,
                                                std::uint64_t dim) {
    const std::uint64_t total = printed_values(shown, ids, vocab_size, dim);
    if (total <= k_max_printed_values) return std::nullopt;
    return "the output would hold " + group_thousands(total) + " numbers (about " +
           group_thousands(total * 12 / 1000000) + " MB); the limit for json, csv and tsv is " +
           group_thousands(k_max_printed_values) +
           " (allowed: --show with fewer or smaller matrices, e.g. --show lookup or --show "
           "lookup,onehot_matmul, a smaller vocab or dim, or the summarised text or markdown views)";
}

}  // namespace embdemo
