// embdemo bench: handed over to the separate program embdemo-bench, which alone links a BLAS.
#include <cstdio>

#include "cli/bench_exec.hpp"
#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"

namespace embdemo {

// Returns only when embdemo-bench could not be started.
int run_bench(const Options& options) {
    std::fflush(stdout);
    print_error(exec_bench(options.bench_args));
    return k_exit_failure;
}

// Listed for --help; `embdemo bench ...` itself is handed over before parsing.
extern const LessonSpec k_bench_lesson = [] {
    LessonSpec spec{"bench", "time both forms on this machine (embdemo bench --help)"};
    spec.caps.own_parser = true;
    spec.formats = fixed_formats<0>;
    spec.run = run_bench;
    return spec;
}();

}  // namespace embdemo
