// What a signal leaves behind. A run that Ctrl-C, kill or a closed terminal ends while it writes
// an output file would leave the hidden temporary file beside the target: a handler, installed
// while temporaries exist, removes them and then lets the signal end the process as it would
// have (same status). Only signals whose action is the default are caught, so one that the
// caller ignores (nohup's SIGHUP) stays ignored. SIGKILL cannot be caught (docs/usage.md).
#pragma once

#include <csignal>
#include <string>

namespace embdemo {

// The signals that end a process by default and can be caught or held: FileTransaction holds
// them back between two renames, and the cleanup below catches them.
inline constexpr int k_ending_signals[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGPIPE,   SIGALRM,
                                           SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};

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
