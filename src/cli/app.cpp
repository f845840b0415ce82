#include "cli/app.hpp"

#include <csignal>
#include <exception>
#include <new>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli/lesson_kit.hpp"
#include "cli/lessons/lesson.hpp"
#include "core/kernels/torch_matmul.hpp"

namespace embdemo {
namespace {

// A closed pipe (SIGPIPE) and a file size limit (SIGXFSZ, `ulimit -f`) end a process by default,
// before it can remove its temporary files or say which file failed. Ignored, they make write()
// fail with EPIPE or EFBIG, which every write checks.
void ignore_write_signals() {
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
}

// Every failure as an exit status: an exception is caught here and printed as one error line.
template <typename Run>
int guarded(const Run& run) {
    try {
        return run();
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
    } catch (const BlasUnavailable& error) {
        print_error(error.what());
        return error.exit_code();
    } catch (const std::exception& error) {
        print_error(std::string("internal error: ") + error.what());
    }
    return k_exit_failure;
}

int dispatch(const CommandLine& command_line) {
    // embdemo-bench inherits ignored signals across exec: it keeps the caller's.
    if (!command_line.options.lesson->caps.own_parser) ignore_write_signals();
    if (!command_line.run) {
        if (!command_line.error.empty()) {
            print_error(command_line.error);
            return command_line.exit_code;
        }
        const int status = write_stdout(command_line.stdout_text);
        return status != k_exit_ok ? status : command_line.exit_code;
    }
    return command_line.options.lesson->run(command_line.options);
}

}  // namespace

int run_command_line(const CommandLine& command_line) {
    return guarded([&] { return dispatch(command_line); });
}

int run_app(int argc, const char* const argv[]) {
    return guarded([&] { return run_command_line(parse_command_line(argc, argv)); });
}

}  // namespace embdemo
