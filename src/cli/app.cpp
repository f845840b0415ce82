#include "cli/app.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/options.hpp"
#include "cli/terminal.hpp"
#include "core/init.hpp"
#include "core/report.hpp"
#include "render/json.hpp"
#include "render/text.hpp"
#include "render/trace.hpp"
#include "render/walkthrough.hpp"

namespace embdemo {
namespace {

void print_error(const std::string& message) {
    std::fprintf(stderr, "embdemo: error: %s\n", message.c_str());
}

// Writes the whole result and makes sure it reached the file: a full disk or a closed pipe must
// not end in exit status 0.
int write_stdout(const std::string& text) {
    errno = 0;
    const std::size_t written = std::fwrite(text.data(), 1, text.size(), stdout);
    if (written != text.size() || std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const int error = errno;
        print_error(std::string("cannot write to standard output: ") +
                    (error ? std::strerror(error) : "write failed"));
        return k_exit_failure;
    }
    return k_exit_ok;
}

// E for the request, from wherever the options say it comes from.
Matrix make_weight(const DemoRequest& request) {
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch: break;
        case WeightOrigin::Kind::torch_randint:
            return torch_randint_weight(request.vocab_size, request.dim, request.seed,
                                        k_randint_low, k_randint_high);
        case WeightOrigin::Kind::index_pattern:
            return index_pattern_weight(request.vocab_size, request.dim);
    }
    return torch_embedding_weight(request.vocab_size, request.dim, request.seed);
}

// The output as steps: one for the plain view and the machine formats, several for the
// teaching views, so that --pause can stop between them.
std::vector<std::string> render_steps(const DemoReport& report, const Options& options) {
    switch (options.format) {
        case OutputFormat::json: return {render_json(report)};
        case OutputFormat::text: break;
    }
    TextOptions text;
    text.precision = options.precision;
    text.color = color_wanted(options.color, stdout_is_terminal(), std::getenv("NO_COLOR"),
                              std::getenv("TERM"));
    const DemoRequest& request = report.request;
    switch (options.view) {
        case View::plain: break;
        case View::trace: return render_trace(report, options.trace_positions, text);
        case View::walkthrough:
            return render_walkthrough(
                report, torch_linear_weight(request.vocab_size, request.dim, request.seed), text);
    }
    return {render_text(report, text)};
}

// Waits for Enter on a terminal; returns false once stdin is closed, so we stop asking.
bool wait_for_enter() {
    std::fputs("-- press Enter for the next step --", stderr);
    std::fflush(stderr);
    const int ch = [] {
        int c = 0;
        while ((c = std::getchar()) != EOF && c != '\n') {
        }
        return c;
    }();
    std::fputs("\n", stderr);
    return ch != EOF;
}

// Steps from `first` on, separated by blank lines.
std::string join_steps(const std::vector<std::string>& steps, std::size_t first) {
    std::string text;
    for (std::size_t i = first; i < steps.size(); ++i) text += (i > first ? "\n" : "") + steps[i];
    return text;
}

int run_demo(const Options& options) {
    const DemoRequest& request = options.request;
    const DemoReport report = build_demo_report(request, make_weight(request));
    // Render everything before writing anything, so that a failure cannot leave half a result.
    const std::vector<std::string> steps = render_steps(report, options);
    std::size_t next = 0;
    if (options.pause && stdin_is_terminal()) {
        // One step at a time, until the last one or until stdin is closed.
        while (next + 1 < steps.size()) {
            const int status = write_stdout(steps[next++] + '\n');
            if (status != k_exit_ok) return status;
            if (!wait_for_enter()) break;
        }
    }
    const int status = write_stdout(join_steps(steps, next));
    if (status != k_exit_ok) return status;
    return report.verdict.identical ? k_exit_ok : k_exit_differ;
}

}  // namespace

int run_app(int argc, const char* const argv[]) {
    try {
        const CommandLine command_line = parse_command_line(argc, argv);
        if (!command_line.run) {
            if (!command_line.error.empty()) {
                print_error(command_line.error);
                return command_line.exit_code;
            }
            const int status = write_stdout(command_line.stdout_text);
            return status != k_exit_ok ? status : command_line.exit_code;
        }
        return run_demo(command_line.options);
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
    } catch (const std::exception& error) {
        print_error(std::string("internal error: ") + error.what());
    }
    return k_exit_failure;
}

}  // namespace embdemo
