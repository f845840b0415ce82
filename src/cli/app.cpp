#include "cli/app.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli/options.hpp"
#include "cli/terminal.hpp"
#include "core/init.hpp"
#include "core/report.hpp"
#include "render/json.hpp"
#include "render/text.hpp"

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

std::string render(const DemoReport& report, const Options& options) {
    switch (options.format) {
        case OutputFormat::json: return render_json(report);
        case OutputFormat::text: break;
    }
    TextOptions text;
    text.precision = options.precision;
    text.color = color_wanted(options.color, stdout_is_terminal(), std::getenv("NO_COLOR"),
                              std::getenv("TERM"));
    return render_text(report, text);
}

// E for the request, from wherever the options say it comes from.
Matrix make_weight(const DemoRequest& request) {
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch: break;
    }
    return torch_embedding_weight(request.vocab_size, request.dim, request.seed);
}

int run_demo(const Options& options) {
    const DemoRequest& request = options.request;
    const DemoReport report = build_demo_report(request, make_weight(request));
    // Render everything before writing anything, so that a failure cannot leave half a result.
    const int status = write_stdout(render(report, options));
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
