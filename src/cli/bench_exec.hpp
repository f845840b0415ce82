// `embdemo bench ARGS`, git-style: replaces this process with the program embdemo-bench from the
// directory embdemo itself was run from, passing ARGS on. The bench is a program of its own
// because it alone links a BLAS, and linking one slows every start of embdemo.
#pragma once

#include <string>
#include <vector>

namespace embdemo {

// The path embdemo-bench would have next to the running embdemo ("" if /proc/self/exe is unreadable).
std::string bench_program_path();

// Does not return when embdemo-bench starts; otherwise returns the message to print (it is
// missing: how to build it, or it could not be run: why).
std::string exec_bench(const std::vector<std::string>& args);

}  // namespace embdemo
