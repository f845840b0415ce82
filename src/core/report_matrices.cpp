#include "core/report_matrices.hpp"

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

}  // namespace embdemo
