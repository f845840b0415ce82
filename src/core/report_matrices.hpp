// The five matrices of a DemoReport by name, so that formats which show one matrix at a time
// (--show) and the JSON field names agree on one list.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "core/report.hpp"

namespace embdemo {

enum class ReportMatrix { weight, onehot, lookup, onehot_matmul, linear_output };

inline constexpr std::array<ReportMatrix, 5> k_report_matrices = {
    ReportMatrix::weight, ReportMatrix::onehot, ReportMatrix::lookup, ReportMatrix::onehot_matmul,
    ReportMatrix::linear_output};

// The JSON field name: "weight", "onehot", "lookup", "onehot_matmul", "linear_output".
const char* matrix_name(ReportMatrix which);

// What the matrix is, in the notebook's notation: "E", "X = one_hot(ids)", "E[ids]", ...
const char* matrix_formula(ReportMatrix which);

std::optional<ReportMatrix> find_report_matrix(std::string_view name);

const Matrix& report_matrix(const DemoReport& report, ReportMatrix which);

}  // namespace embdemo
