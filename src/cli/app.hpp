// The whole program behind main(): parse, compute, render, write, and map every outcome to an
// exit status. Errors are caught here once and printed as one "embdemo: error: ..." line.
#pragma once

#include "cli/command_line.hpp"

namespace embdemo {

int run_app(int argc, const char* const argv[]);

// run_app after the parse: for a caller that has parsed already (the pipeline fuzz target,
// which checks a command line's sizes before running it).
int run_command_line(const CommandLine& command_line);

}  // namespace embdemo
