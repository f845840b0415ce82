// The whole program behind main(): parse, compute, render, write, and map every outcome to an
// exit status. Errors are caught here once and printed as one "embdemo: error: ..." line.
#pragma once

namespace embdemo {

int run_app(int argc, const char* const argv[]);

}  // namespace embdemo
