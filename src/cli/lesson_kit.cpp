#include "cli/lesson_kit.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <poll.h>
#include <unistd.h>

#include "cli/exit_codes.hpp"
#include "cli/terminal.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

// `text` in runs of at most `rows` lines (all of it when rows is 0), the last run without its
// final newline.
std::vector<std::string> screens_of(const std::string& text, std::size_t rows) {
    std::vector<std::string> screens;
    std::size_t start = 0;
    while (rows > 0) {
        std::size_t end = start;
        std::size_t lines = 0;
        while (lines < rows && end < text.size()) {
            const std::size_t newline = text.find('\n', end);
            end = newline == std::string::npos ? text.size() : newline + 1;
            ++lines;
        }
        if (end >= text.size()) break;
        screens.push_back(text.substr(start, end - 1 - start));
        start = end;
    }
    screens.push_back(text.substr(start));
    return screens;
}

// Waits for Enter on a terminal. Returns false when the learner ends the lesson: "q" (then
// Enter), or Ctrl-D, which closes stdin.
bool wait_for_enter(const char* what = "next step") {
    std::fprintf(stderr, "-- Enter: %s, q: quit --", what);
    std::fflush(stderr);
    std::string line;
    int c = 0;
    while ((c = std::getchar()) != EOF && c != '\n') line += static_cast<char>(c);
    std::fputs("\n", stderr);
    const auto first = line.find_first_not_of(" \t\r");
    const bool quit = first != std::string::npos && (line[first] == 'q' || line[first] == 'Q');
    return c != EOF && !quit;
}

// Writes the steps: all at once, or with --pause on a terminal one at a time, until the last
// one or until the learner quits (then the lesson simply ends there). Steps are separated by
// blank lines and written one by one rather than joined, so a large JSON result is not held twice.
// On a terminal each step starts on a clean screen, in screens that leave a row for the prompt,
// so that neither its heading nor the prompts scroll away; piped, nothing is cleared.
int write_steps(const std::vector<std::string>& steps, bool pause, const std::string& not_written) {
    std::size_t next = 0;
    if (pause && stdin_is_terminal()) {
        const bool screen = stdout_is_terminal();
        const std::size_t rows = screen ? terminal_rows() : 0;
        while (next + 1 < steps.size()) {
            const std::vector<std::string> screens = screens_of(steps[next++], rows > 2 ? rows - 1 : 0);
            for (std::size_t s = 0; s < screens.size(); ++s) {
                const int status = write_stdout((screen ? k_clear_screen : "") + screens[s] + '\n', not_written);
                if (status != k_exit_ok) return status;
                if (!wait_for_enter(s + 1 < screens.size() ? "more of this step" : "next step")) return k_exit_ok;
            }
        }
        if (screen && next < steps.size()) {
            const int status = write_stdout(k_clear_screen, not_written);
            if (status != k_exit_ok) return status;
        }
    }
    for (std::size_t i = next; i < steps.size(); ++i) {
        const int status = i > next ? write_stdout("\n", not_written) : k_exit_ok;
        if (status != k_exit_ok) return status;
        if (const int written = write_stdout(steps[i], not_written); written != k_exit_ok) return written;
    }
    return k_exit_ok;
}

std::vector<std::string> show_names(const MatrixSelection& show) {
    std::vector<std::string> names;
    for (const ReportMatrix which : show) names.emplace_back(matrix_name(which));
    return names;
}

}  // namespace

void print_error(const std::string& message) { std::fprintf(stderr, "embdemo: error: %s\n", message.c_str()); }

// One write() for the whole text where the kernel takes it: stdio would cut it into 4 KiB calls, and
// a reader that leaves after the first line (`| head -1`) could close the pipe between two of them
// although all of it fit in the pipe.
int write_stdout(const std::string& text, const std::string& not_written) {
    errno = 0;
    int error = std::fflush(stdout) == 0 ? 0 : errno;
    const char* next = text.data();
    std::size_t left = text.size();
    while (error == 0 && left > 0) {
        const ssize_t written = ::write(STDOUT_FILENO, next, left);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            // A non-blocking stdout (a shell or a program that set O_NONBLOCK on a shared pipe or
            // terminal) is full for now, not broken: wait until it takes more.
            pollfd ready{STDOUT_FILENO, POLLOUT, 0};
            if (::poll(&ready, 1, -1) >= 0 || errno == EINTR) continue;
            error = errno;
            break;
        }
        if (written <= 0) {
            error = written < 0 ? errno : EIO;
            break;
        }
        next += written;
        left -= static_cast<std::size_t>(written);
    }
    if (error == 0) return k_exit_ok;
    if (error != EPIPE || !not_written.empty()) {
        print_error(std::string("cannot write to standard output: ") + (error ? std::strerror(error) : "write failed") +
                    (not_written.empty() ? "" : ", so " + not_written + " not written"));
    }
    return k_exit_failure;
}

ProductProgress terminal_progress(const char* what, const char* unit) {
    if (!stderr_is_terminal()) return {};
    using Clock = std::chrono::steady_clock;
    struct Shown {
        Clock::time_point start = Clock::now();
        Clock::time_point last;
        bool drawn = false;
    };
    auto shown = std::make_shared<Shown>();
    return [shown, what, unit](std::size_t done, std::size_t total) {
        const auto now = Clock::now();
        if (done == total) {
            if (shown->drawn) std::fputs("\r\033[K", stderr);
            return;
        }
        if (now - shown->start < std::chrono::seconds(1) || now - shown->last < std::chrono::milliseconds(200)) return;
        shown->last = now;
        shown->drawn = true;
        std::fprintf(stderr, "\r%s: %s of %s %s (%d%%)", what, group_thousands(done).c_str(),
                     group_thousands(total).c_str(), unit, static_cast<int>(100 * done / total));
        std::fflush(stderr);
    };
}

TextOptions text_options(const Options& options) {
    TextOptions text;
    text.precision = options.precision;
    text.width = output_width(stdout_is_terminal(), std::getenv("COLUMNS"));
    text.timing = options.timing;
    if (color_wanted(options.color, stdout_is_terminal(), std::getenv("NO_COLOR"), std::getenv("TERM"))) {
        text.palette = terminal_is_light(options.palette, std::getenv("COLORFGBG")) ? Palette::light
                                                                                    : Palette::dark;
    }
    return text;
}

int write_view(const Options& options, const LessonView& view, const StagedFiles& files) {
    RenderSettings settings;
    settings.format = options.notebook ? OutputFormat::ipynb : options.format;
    settings.view = options.view;
    settings.precision = options.precision;
    settings.show = show_names(options.show);
    if (options.format == OutputFormat::text) settings.text = text_options(options);
    // Render everything before writing anything, so that a failure cannot leave half a result.
    const auto steps = render_view(view, settings);
    if (!steps) {
        print_error(steps.error());
        return k_exit_usage;
    }
    // Files are written in full first but appear only once stdout has been written: a run that
    // fails anywhere (a full disk, a closed pipe) leaves no file behind.
    const int status = write_steps(steps.value(), options.pause, files.not_written);
    if (status != k_exit_ok || !files.commit) return status;
    if (const std::string problem = files.commit(); !problem.empty()) {
        print_error(problem);
        return k_exit_failure;
    }
    return k_exit_ok;
}

int lesson_status(const Options& options, int written, bool identical, const std::string& why) {
    if (written != k_exit_ok) return written;
    if (identical) return k_exit_ok;
    const bool data_only = options.format == OutputFormat::csv || options.format == OutputFormat::tsv;
    if (data_only && !why.empty()) std::fprintf(stderr, "embdemo: note: %s\n", why.c_str());
    return k_exit_differ;
}

}  // namespace embdemo
