#include "io/files.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <ext/stdio_filebuf.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/output_paths.hpp"
#include "io/temporary_files.hpp"
#include "core/escape.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

std::string system_error(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// Writes everything, retrying short writes and interrupted calls.
bool write_all(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size);
        if (written < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += written;
        size -= static_cast<std::size_t>(written);
    }
    return true;
}



// Exclusive flock()s on the directories a commit renames into, so that two embdemo runs writing
// into one directory (two --export-projector runs) commit one after the other and never leave
// one run's vectors.tsv beside the other's metadata.tsv. Taken in the order of (device, inode),
// which every process agrees on whatever the spelling, so two runs cannot wait for each other.
// Best effort: a directory that cannot be opened for reading goes unlocked. Closing releases.
class DirectoryLocks {
public:
    explicit DirectoryLocks(const std::vector<std::string>& directories) {
        std::vector<std::pair<std::pair<dev_t, ino_t>, int>> opened;
        for (const std::string& directory : directories) {
            const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            struct stat info {};
            if (fd >= 0 && ::fstat(fd, &info) == 0) {
                opened.push_back({{info.st_dev, info.st_ino}, fd});
            } else if (fd >= 0) {
                ::close(fd);
            }
        }
        std::sort(opened.begin(), opened.end());
        for (std::size_t i = 0; i < opened.size(); ++i) {
            if (i > 0 && opened[i].first == opened[i - 1].first) {
                ::close(opened[i].second);  // the same directory twice
                continue;
            }
            // Never a wait without end: any process may hold a shared directory's lock (`flock
            // dir sleep 600`). Tried without blocking for up to k_lock_wait; another embdemo
            // run holds it for milliseconds.
            const auto start = std::chrono::steady_clock::now();
            auto pause = std::chrono::milliseconds(1);
            while (::flock(opened[i].second, LOCK_EX | LOCK_NB) != 0) {
                if (errno != EWOULDBLOCK && errno != EINTR) break;  // no locks here (some NFS): best effort
                if (std::chrono::steady_clock::now() - start >= k_lock_wait) {
                    m_held = directory_named(directories, opened[i].first);
                    ::close(opened[i].second);
                    for (std::size_t j = i + 1; j < opened.size(); ++j) ::close(opened[j].second);
                    return;
                }
                std::this_thread::sleep_for(pause);
                pause = std::min(pause * 2, std::chrono::milliseconds(100));
            }
            m_fds.push_back(opened[i].second);
        }
    }
    // The directory another process kept locked past k_lock_wait, or "" when every lock was taken.
    const std::string& held() const { return m_held; }
    static constexpr std::chrono::seconds k_lock_wait{10};
    DirectoryLocks(const DirectoryLocks&) = delete;
    DirectoryLocks& operator=(const DirectoryLocks&) = delete;
    ~DirectoryLocks() {
        for (const int fd : m_fds) ::close(fd);
    }

private:
    // The spelling the caller gave of the directory with this device and inode.
    static std::string directory_named(const std::vector<std::string>& directories, std::pair<dev_t, ino_t> id) {
        for (const std::string& directory : directories) {
            struct stat info {};
            if (::stat(directory.c_str(), &info) == 0 && info.st_dev == id.first && info.st_ino == id.second) {
                return directory;
            }
        }
        return directories.empty() ? std::string() : directories.front();
    }

    std::vector<int> m_fds;
    std::string m_held;
};

// ending_signals() (io/temporary_files.hpp): the signals that end a process by default (Ctrl-C,
// kill, a closed terminal or pipe, a file size limit, SIGPWR, the real-time ones), held back
// while a file or directory is created and listed for removal on a signal, and while files are
// renamed: one that arrives then takes effect after the last rename, never between two. SIGKILL
// cannot be held; docs/usage.md says what it can leave.

}  // namespace

InputFile::InputFile(int fd, std::uint64_t size)
    : m_buffer(std::make_unique<__gnu_cxx::stdio_filebuf<char>>(fd, std::ios::in | std::ios::binary)),
      m_stream(std::make_unique<std::istream>(m_buffer.get())),
      m_size(size) {}

namespace {

// A descriptor for the regular file `path`, opened once: O_NONBLOCK so that a named pipe (or a
// name swapped for one after any check) cannot block the open, O_NOCTTY so that a terminal
// cannot become ours; then the descriptor itself is checked, and only a regular file is read
// (a device or a pipe could block a read or never end: a link to /dev/zero).
ParseResult<std::pair<int, std::uint64_t>> open_regular_file(const std::string& path) {
    using Result = ParseResult<std::pair<int, std::uint64_t>>;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return Result::fail(system_error("cannot open"));
    struct stat info {};
    const auto refuse = [fd](std::string problem) {
        ::close(fd);
        return Result::fail(std::move(problem));
    };
    if (::fstat(fd, &info) != 0) return refuse(system_error("cannot open"));
    if (S_ISDIR(info.st_mode)) return refuse("is a directory (allowed: a file)");
    if (!S_ISREG(info.st_mode)) return refuse("is not a regular file (allowed: a file)");
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) return refuse(system_error("cannot open"));
    return Result::ok({fd, static_cast<std::uint64_t>(info.st_size)});
}


}  // namespace


ParseResult<InputFile> open_for_reading(const std::string& path) {
    auto opened = open_regular_file(path);
    if (!opened) return ParseResult<InputFile>::fail(opened.error());
    return ParseResult<InputFile>::ok(InputFile(opened.value().first, opened.value().second));
}

ParseResult<std::string> read_small_file(const std::string& path, std::uint64_t max_bytes) {
    auto opened = open_regular_file(path);
    if (!opened) return ParseResult<std::string>::fail(opened.error());
    const int fd = opened.value().first;
    const std::uint64_t size = opened.value().second;
    const auto fail = [fd](std::string problem) {
        ::close(fd);
        return ParseResult<std::string>::fail(std::move(problem));
    };
    const auto too_large = [&](const std::string& bytes) {
        return fail("is " + bytes + " bytes (allowed: at most " + group_thousands(max_bytes) + " bytes)");
    };
    // The size first, so that a huge file is refused without reading it.
    if (size > max_bytes) return too_large(group_thousands(size));
    std::string content;
    content.reserve(static_cast<std::size_t>(size));  // not grown twice over
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return fail(system_error("cannot read"));
        if (got == 0) break;
        content.append(buffer, static_cast<std::size_t>(got));
        if (content.size() > max_bytes) return too_large("more than " + group_thousands(max_bytes));  // it grew
    }
    ::close(fd);
    return ParseResult<std::string>::ok(std::move(content));
}

FileTransaction::~FileTransaction() {
    if (m_committed) return;
    for (const Staged& file : m_files) {
        if (file.fd >= 0) ::close(file.fd);
        ::unlink(file.temporary.c_str());
        keep_on_signal(file.temporary);
    }
    for (auto dir = m_created_directories.rbegin(); dir != m_created_directories.rend(); ++dir) {
        ::rmdir(dir->c_str());
        keep_on_signal(*dir);
    }
}

std::string FileTransaction::make_directory(const std::string& path) {
    const BlockedSignals held(ending_signals());  // until a signal would remove it
    if (::mkdir(path.c_str(), 0777) == 0) {
        m_created_directories.push_back(path);
        remove_on_signal(path, true);
        return {};
    }
    if (errno != EEXIST) return system_error("cannot create the directory");
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return "exists and is not a directory";
    return {};
}

std::string FileTransaction::begin_file(const std::string& requested_path, Links links) {
    auto output = check_output_target(requested_path, links);  // again: it may have changed
    if (!output) return output.error();
    Staged file;
    file.target = output.value().path;
    const bool exists = output.value().exists;
    const struct stat& existing = output.value().existing;
    // A short temporary name beside the target, so a long but valid file name still works.
    const std::size_t slash = file.target.rfind('/');
    file.temporary = (slash == std::string::npos ? std::string() : file.target.substr(0, slash + 1)) +
                     k_temporary_name;  // mkstemp's template
    int error = 0;
    {
        const BlockedSignals held(ending_signals());  // until a signal would remove it
        file.fd = ::mkstemp(file.temporary.data());
        error = errno;
        if (file.fd >= 0) remove_on_signal(file.temporary, false);
    }
    errno = error;
    if (file.fd < 0) return system_error("cannot create a temporary file next to it");
    m_files.push_back(file);
    // An existing file's owner and group where this user may set them (root; a group of the
    // user's), before its mode, since a change of owner clears the set-user-ID bits.
    if (exists && (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid())) {
        // Neither: the replacement stays this user's (only another user's group can be lost, as
        // check_output refuses another user's file).
        const bool kept = ::fchown(file.fd, existing.st_uid, existing.st_gid) == 0 ||
                          ::fchown(file.fd, static_cast<uid_t>(-1), existing.st_gid) == 0;
        static_cast<void>(kept);
    }
    // mkstemp makes the file private (0600): keep an existing file's permissions, or give a new
    // one the permissions a new file normally gets.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    const mode_t mode = exists ? (existing.st_mode & 07777) : (0666 & ~mask);
    return ::fchmod(file.fd, mode) == 0 ? "" : system_error("cannot write");
}

std::string FileTransaction::write(std::string_view bytes) {
    return write_all(m_files.back().fd, bytes.data(), bytes.size()) ? "" : system_error("cannot write");
}

std::string FileTransaction::end_file() {
    Staged& file = m_files.back();
    // A full disk may only show at fsync or close (NFS): both are checked.
    const bool synced = ::fsync(file.fd) == 0;
    const int error = errno;
    const bool closed = ::close(file.fd) == 0;
    file.fd = -1;
    if (!synced) errno = error;
    return synced && closed ? "" : system_error("cannot write");
}

std::string FileTransaction::commit() {
    std::vector<std::string> directories;
    for (const Staged& file : m_files) directories.push_back(directory_of(file.target));
    const DirectoryLocks locks(directories);  // first, while a signal can still end a wait
    if (!locks.held().empty()) {
        m_failed = static_cast<std::size_t>(
            std::find(directories.begin(), directories.end(), locks.held()) - directories.begin());
        if (m_failed == directories.size()) m_failed = 0;
        errno = EWOULDBLOCK;
        return "cannot commit: another process has held a lock (flock) on its directory " +
               quote_for_message(locks.held()) + " for " + std::to_string(DirectoryLocks::k_lock_wait.count()) +
               " s; nothing was replaced (allowed: a directory no other process keeps locked, or retry when it "
               "is free)";
    }
    const BlockedSignals held(ending_signals());
    // Hard links keep the files being replaced reachable until every rename has worked; on a
    // file system without them, a file is moved aside just before its replacement moves in.
    for (Staged& file : m_files) {
        file.backup = file.temporary + k_backup_suffix;
        if (::link(file.target.c_str(), file.backup.c_str()) == 0) {
            file.kept = Kept::linked;
            continue;
        }
        // Only a regular file is moved aside: anything else appeared since begin_file, and the
        // rename over it decides.
        struct stat info {};
        file.kept = ::stat(file.target.c_str(), &info) == 0 && S_ISREG(info.st_mode) ? Kept::to_move : Kept::nothing;
    }
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        Staged& file = m_files[i];
        if (file.kept == Kept::to_move) {
            if (::rename(file.target.c_str(), file.backup.c_str()) == 0) {
                file.kept = Kept::moved;
            } else if (errno == ENOENT) {
                file.kept = Kept::nothing;
            } else {
                return fail_commit(i, "cannot move the file it replaces aside");
            }
        }
        if (::rename(file.temporary.c_str(), file.target.c_str()) != 0) {
            return fail_commit(i, "cannot rename the temporary file to it");
        }
    }
    for (const Staged& file : m_files) {
        if (file.kept == Kept::linked || file.kept == Kept::moved) ::unlink(file.backup.c_str());
        keep_on_signal(file.temporary);  // the target's name now: before the held signals arrive
    }
    for (const std::string& directory : m_created_directories) keep_on_signal(directory);
    m_committed = true;
    return {};
}

std::string FileTransaction::fail_commit(std::size_t failed, const char* what) {
    const std::string problem = system_error(what);
    m_failed = failed;
    // The files before `failed` were replaced: each gets its old file back, or goes if it is new.
    // From `failed` on nothing was replaced: backups go, or (moved aside) come back.
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        const Staged& file = m_files[i];
        const bool replaced = i < failed;
        if (file.kept == Kept::moved || (replaced && file.kept == Kept::linked)) {
            ::rename(file.backup.c_str(), file.target.c_str());
        } else if (file.kept == Kept::linked) {
            ::unlink(file.backup.c_str());
        } else if (replaced && file.kept == Kept::nothing) {
            ::unlink(file.target.c_str());
        }
    }
    return problem;
}

std::string write_file_atomically(const std::string& path, const std::string& bytes) {
    FileTransaction transaction;
    std::string problem = transaction.begin_file(path);
    if (problem.empty()) problem = transaction.write(bytes);
    if (problem.empty()) problem = transaction.end_file();
    if (problem.empty()) problem = transaction.commit();
    return problem;
}

}  // namespace embdemo
