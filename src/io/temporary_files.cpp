#include "io/temporary_files.hpp"

#include <climits>
#include <cstring>

#include <pthread.h>
#include <unistd.h>

namespace embdemo {
namespace {

// A signal handler may not allocate: the paths are copied into fixed buffers.
struct Entry {
    char path[PATH_MAX];
    bool is_directory;
};
constexpr std::size_t k_max_entries = 8;  // a projector export: its directory and two files
Entry g_entries[k_max_entries];
volatile std::sig_atomic_t g_count = 0;
struct sigaction g_previous[NSIG];
bool g_caught[NSIG];

extern "C" void remove_and_end(int signal) {
    // Newest first: the files, then the directory they are in.
    for (std::sig_atomic_t i = g_count; i-- > 0;) {
        if (g_entries[i].is_directory) {
            ::rmdir(g_entries[i].path);
        } else {
            ::unlink(g_entries[i].path);
        }
    }
    g_count = 0;  // a second fault while the signal below is delivered finds nothing to do
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    ::sigaction(signal, &fallback, nullptr);
    // Delivered when the handler returns: the process ends as the signal says. A fault's
    // instruction, run again, raises it anew, now with the default action.
    ::raise(signal);
}

// The list changes with every signal blocked, so the handler never sees it half-changed.
sigset_t every_signal() {
    sigset_t all;
    sigfillset(&all);
    return all;
}

// Every signal the handler is for: the outside ones, the real-time ones, the faults'.
template <typename Visit>
void for_each_caught_signal(Visit visit) {
    for (const int signal : k_ending_signals) visit(signal);
    for (int signal = SIGRTMIN; signal <= SIGRTMAX; ++signal) visit(signal);
    for (const int signal : k_fault_signals) visit(signal);
}

void catch_signals() {
    struct sigaction handler {};
    handler.sa_handler = remove_and_end;
    sigfillset(&handler.sa_mask);
    for_each_caught_signal([&handler](int signal) {
        g_caught[signal] = ::sigaction(signal, nullptr, &g_previous[signal]) == 0 &&
                           g_previous[signal].sa_handler == SIG_DFL && !(g_previous[signal].sa_flags & SA_SIGINFO);
        if (g_caught[signal]) ::sigaction(signal, &handler, nullptr);
    });
}

void release_signals() {
    for_each_caught_signal([](int signal) {
        if (g_caught[signal]) ::sigaction(signal, &g_previous[signal], nullptr);
        g_caught[signal] = false;
    });
}

}  // namespace

sigset_t ending_signals() {
    sigset_t held;
    sigemptyset(&held);
    for (const int signal : k_ending_signals) sigaddset(&held, signal);
    for (int signal = SIGRTMIN; signal <= SIGRTMAX; ++signal) sigaddset(&held, signal);
    return held;
}

BlockedSignals::BlockedSignals(const sigset_t& signals) { ::pthread_sigmask(SIG_BLOCK, &signals, &m_previous); }
BlockedSignals::~BlockedSignals() { ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr); }

void remove_on_signal(const std::string& path, bool is_directory) {
    if (path.size() >= PATH_MAX) return;
    const BlockedSignals blocked(every_signal());
    if (static_cast<std::size_t>(g_count) == k_max_entries) return;
    if (g_count == 0) catch_signals();
    Entry& entry = g_entries[g_count];
    std::memcpy(entry.path, path.c_str(), path.size() + 1);
    entry.is_directory = is_directory;
    g_count = g_count + 1;
}

void keep_on_signal(const std::string& path) {
    const BlockedSignals blocked(every_signal());
    for (std::sig_atomic_t i = 0; i < g_count; ++i) {
        if (path != g_entries[i].path) continue;
        for (std::sig_atomic_t j = i + 1; j < g_count; ++j) g_entries[j - 1] = g_entries[j];  // keeps the order
        g_count = g_count - 1;
        if (g_count == 0) release_signals();
        return;
    }
}

}  // namespace embdemo
