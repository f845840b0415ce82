// What a signal leaves behind. A run that Ctrl-C, kill, a closed terminal or its own crash ends
// while it writes an output file would leave the hidden temporary file beside the target: a
// handler, installed for every signal whose default action ends the process while temporaries
// exist, removes them and then lets the signal end the process as it would have (same status).
// Only signals whose action is the default are caught, so one that the caller ignores (nohup's
// SIGHUP) stays ignored. SIGKILL cannot be caught (docs/usage.md).
#pragma once

#include <csignal>
#include <string>

namespace embdemo {

// The signals that end a process by default, come from outside it (kill, a terminal, a timer,
// a limit, a power monitor) and can be caught or held: FileTransaction holds them back between
// two renames, and the cleanup below catches them. The real-time signals SIGRTMIN..SIGRTMAX end
// a process by default too; their numbers are known at run time only (glibc keeps the first
// two, 32 and 33, for itself). ending_signals() has them all.
inline constexpr int k_ending_signals[] = {SIGHUP,  SIGINT,    SIGQUIT, SIGTERM, SIGPIPE, SIGALRM,  SIGUSR1,
                                           SIGUSR2, SIGXCPU,   SIGXFSZ, SIGVTALRM, SIGPROF, SIGPOLL, SIGPWR,
                                           SIGSTKFLT};

// The signals a fault of the process itself raises (abort(), a bad address, a bad instruction,
// a trap, a refused system call), which end it by default too: caught for the cleanup, never
// held, since a fault whose signal is blocked kills at once.
inline constexpr int k_fault_signals[] = {SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGSYS, SIGTRAP};

// k_ending_signals and the real-time signals, as a set to block.
sigset_t ending_signals();

// Blocks `signals` in this thread for its lifetime: one that arrives waits until the end.
class BlockedSignals {
public:
    explicit BlockedSignals(const sigset_t& signals);
    BlockedSignals(const BlockedSignals&) = delete;
    BlockedSignals& operator=(const BlockedSignals&) = delete;
    ~BlockedSignals();

private:
    sigset_t m_previous{};
};

// Paths (a file, or a directory this run created) to remove if a signal ends the run. At most
// a few at once: the rest are not cleaned up, which is only untidy. Removing from the list does
// not touch the path.
void remove_on_signal(const std::string& path, bool is_directory);
void keep_on_signal(const std::string& path);

}  // namespace embdemo
