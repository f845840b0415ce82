// Reading E from the file --weights names: opening it (cli/files), recognising its format and
// checking its shape against the request before any data is read. The request's vocab and dim
// are taken from the file; when the user also gave --vocab or --dim they must agree.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/matrix.hpp"
#include "core/limits.hpp"
#include "core/parse_result.hpp"
#include "core/lessons/report.hpp"
#include "core/file_formats/weight_file.hpp"

namespace embdemo {

// What else a run must check once a file's shape is known (its output size, its memory): gets
// the request with the file's vocab and dim filled in.
using RunCheck = std::function<std::optional<std::string>(const DemoRequest& sized)>;

// Reads a 2-D float matrix from a .npy, .csv or .tsv file, `check` deciding on its shape before
// the data is read. The error is a whole message: "OPTION \"PATH\": PROBLEM". `expected_shape`
// names the shape wanted when a .npy file holds another rank: "vocab x dim" for E, "3 x 5" for a
// file of one row per id.
ParseResult<Matrix> load_matrix_file(const char* option, const std::string& path, const ShapeCheck& check,
                                     const std::string& expected_shape = "vocab x dim");

// Why a file of rows x cols cannot serve `request` (vocab_size/dim 0 = not given), or nullopt.
std::optional<std::string> check_weight_shape(const DemoRequest& request, std::uint64_t rows, std::uint64_t cols,
                                              const RunCheck& check_run = {}, OneHotHeld held = OneHotHeld::whole);

// Loads E from request.origin.detail and sets request.vocab_size and request.dim from it; the
// shape is checked (with `check_run` too) before any data is read. The error is a whole
// message: "--weights \"PATH\": PROBLEM".
ParseResult<Matrix> load_weight_file(DemoRequest& request, const RunCheck& check_run = {},
                                     OneHotHeld held = OneHotHeld::whole);

}  // namespace embdemo
