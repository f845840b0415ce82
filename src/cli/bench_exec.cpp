#include "cli/bench_exec.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <limits.h>
#include <unistd.h>

#include "core/escape.hpp"

namespace embdemo {

std::string bench_program_path() {
    char path[PATH_MAX];
    const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0) return "";
    std::string self(path, static_cast<std::size_t>(length));
    return self.substr(0, self.rfind('/') + 1) + "embdemo-bench";
}

std::string exec_bench(const std::vector<std::string>& args) {
    const std::string program = bench_program_path();
    if (!program.empty() && access(program.c_str(), F_OK) == 0 && access(program.c_str(), X_OK) != 0) {
        // There, but not runnable (no execute bit, or a directory's permissions): "not found"
        // would send the user to build something that exists.
        return "embdemo bench cannot run " + quote_for_message(program) + ": " + std::strerror(errno) +
               " (allowed: an executable embdemo-bench next to embdemo; chmod +x it, or build again: tools/setup.sh --tests)";
    }
    if (program.empty() || access(program.c_str(), X_OK) != 0) {
        return "embdemo bench needs the program embdemo-bench next to embdemo (not found: " +
               quote_for_message(program.empty() ? std::string("/proc/self/exe unreadable") : program) +
               "); install Debian's libopenblas-dev and build again: tools/setup.sh --tests";
    }
    std::vector<char*> argv;
    std::string name = "embdemo-bench";
    argv.push_back(name.data());
    std::vector<std::string> words = args;  // execv wants char*, not const char*
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    // embdemo-bench links OpenBLAS, which starts a thread per core as it loads, before the bench
    // can check its --threads against the process limits; the bench then sets the count itself.
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    execv(program.c_str(), argv.data());
    return "cannot run " + quote_for_message(program) + ": " + std::strerror(errno);
}

}  // namespace embdemo
