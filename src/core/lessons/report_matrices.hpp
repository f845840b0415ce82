// The five matrices of a DemoReport by name, so that formats which show one matrix at a time
// (--show) and the JSON field names agree on one list.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/lessons/report.hpp"

namespace embdemo {

enum class ReportMatrix { weight, onehot, lookup, onehot_matmul, linear_output };

// The matrices a format shows (--show), in the order given; empty means every matrix.
using MatrixSelection = std::vector<ReportMatrix>;

inline constexpr std::array<ReportMatrix, 5> k_report_matrices = {
    ReportMatrix::weight, ReportMatrix::onehot, ReportMatrix::lookup, ReportMatrix::onehot_matmul,
    ReportMatrix::linear_output};

// The JSON field name: "weight", "onehot", "lookup", "onehot_matmul", "linear_output".
const char* matrix_name(ReportMatrix which);

// What the matrix is, in the notebook's notation: "E", "X = one_hot(ids)", "E[ids]", ...
const char* matrix_formula(ReportMatrix which);

std::optional<ReportMatrix> find_report_matrix(std::string_view name);

const Matrix& report_matrix(const DemoReport& report, ReportMatrix which);

// How many values `which` holds for n ids, vocab V and dim d (sizes already within the caps).
std::uint64_t report_matrix_values(ReportMatrix which, std::uint64_t ids, std::uint64_t vocab_size,
                                   std::uint64_t dim);

// Machine formats print every value; past this many a run would write hundreds of megabytes
// (about 12 bytes a value), which no diff or spreadsheet wants. The text and markdown views
// summarise and have no such limit.
inline constexpr std::uint64_t k_max_printed_values = std::uint64_t{1} << 24;

// True when `shown` (empty: every matrix) includes `which`.
bool is_shown(const MatrixSelection& shown, ReportMatrix which);

// How many numbers printing `shown` writes.
std::uint64_t printed_values(const MatrixSelection& shown, std::uint64_t ids, std::uint64_t vocab_size,
                             std::uint64_t dim);

// How many rows those numbers make: JSON spends a line on each.
std::uint64_t printed_rows(const MatrixSelection& shown, std::uint64_t ids, std::uint64_t vocab_size);

// nullopt when printing `shown` fits k_max_printed_values; otherwise
// a message with the count, the rough size and what to do instead.
std::optional<std::string> check_printed_values(const MatrixSelection& shown,
                                                std::uint64_t ids, std::uint64_t vocab_size,
                                                std::uint64_t dim);

}  // namespace embdemo
