// The memory a whole run will hold, listed before anything is allocated: the demo's matrices
// (core/lessons/report.hpp demo_buffers) plus what the chosen view renders. Files are written a piece at
// a time (cli/outputs), so they add only one piece.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "core/memory.hpp"

namespace embdemo {

// The text of a json, csv or tsv output of `values` numbers in `rows` rows, held as it is built
// and written.
Buffer printed_output(OutputFormat format, std::uint64_t values, std::uint64_t rows);

std::vector<Buffer> run_buffers(const Options& options, const DemoRequest& request);

// Everything about the run's size that is known once vocab and dim are: the printed numbers of
// a machine format and the memory budget. A message (without the option prefix) or nullopt.
std::optional<std::string> check_run_size(const Options& options, const DemoRequest& request);


}  // namespace embdemo
