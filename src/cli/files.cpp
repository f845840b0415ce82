#include "cli/files.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/temporary_files.hpp"
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

// "a named pipe": what a file that is not a regular file is, for messages.
const char* describe_file_type(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// "dir/" of "dir/x.npy"; "." for a bare name.
std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
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
            while (::flock(opened[i].second, LOCK_EX) != 0 && errno == EINTR) {
            }
            m_fds.push_back(opened[i].second);
        }
    }
    DirectoryLocks(const DirectoryLocks&) = delete;
    DirectoryLocks& operator=(const DirectoryLocks&) = delete;
    ~DirectoryLocks() {
        for (const int fd : m_fds) ::close(fd);
    }

private:
    std::vector<int> m_fds;
};

// The signals that end a process by default (Ctrl-C, kill, a closed terminal or pipe, a file
// size limit), held back while a file or directory is created and listed for removal on a
// signal, and while files are renamed: one that arrives then takes effect after the last rename,
// never between two. SIGKILL cannot be held; docs/usage.md says what it can leave.
sigset_t ending_signals() {
    sigset_t held;
    sigemptyset(&held);
    for (const int signal : k_ending_signals) sigaddset(&held, signal);
    return held;
}

}  // namespace

std::optional<std::string> check_output_file(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode)) return std::nullopt;
    return std::string("exists and is ") + describe_file_type(info.st_mode) +
           " (allowed: a regular file, which is replaced, or a new name)";
}

std::optional<std::string> check_output_directory(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || S_ISDIR(info.st_mode)) return std::nullopt;
    const std::string what = S_ISREG(info.st_mode) ? "a regular file" : describe_file_type(info.st_mode);
    return "exists and is " + what + " (allowed: a directory, or a new name)";
}

ParseResult<std::ifstream> open_for_reading(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return ParseResult<std::ifstream>::fail(system_error("cannot open"));
    if (S_ISDIR(info.st_mode)) return ParseResult<std::ifstream>::fail("is a directory (allowed: a file)");
    // A device or a pipe could block the open or never end (a link to /dev/zero).
    if (!S_ISREG(info.st_mode)) {
        return ParseResult<std::ifstream>::fail("is not a regular file (allowed: a file)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return ParseResult<std::ifstream>::fail(system_error("cannot open"));
    return ParseResult<std::ifstream>::ok(std::move(in));
}

ParseResult<std::string> read_small_file(const std::string& path, std::uint64_t max_bytes) {
    auto in = open_for_reading(path);
    if (!in) return ParseResult<std::string>::fail(in.error());
    const auto too_large = [max_bytes](const std::string& size) {
        return ParseResult<std::string>::fail("is " + size + " bytes (allowed: at most " + group_thousands(max_bytes) +
                                              " bytes)");
    };
    // The size first, so that a huge file is refused without reading it.
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && static_cast<std::uint64_t>(info.st_size) > max_bytes) {
        return too_large(group_thousands(static_cast<std::uint64_t>(info.st_size)));
    }
    std::string content;
    if (info.st_size > 0) content.reserve(static_cast<std::size_t>(info.st_size));  // not grown twice over
    char buffer[65536];
    while (in.value().read(buffer, sizeof buffer) || in.value().gcount() > 0) {
        content.append(buffer, static_cast<std::size_t>(in.value().gcount()));
        if (content.size() > max_bytes) return too_large("more than " + group_thousands(max_bytes));  // it grew
    }
    if (in.value().bad()) return ParseResult<std::string>::fail(system_error("cannot read"));
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

std::string FileTransaction::begin_file(const std::string& requested_path) {
    if (auto problem = check_output_file(requested_path)) return *problem;  // again: it may have changed
    Staged file;
    file.target = requested_path;
    struct stat existing {};
    const bool exists = ::stat(requested_path.c_str(), &existing) == 0;
    if (exists) {
        if (char* target = ::realpath(requested_path.c_str(), nullptr)) {
            file.target = target;
            std::free(target);
        }
    }
    // A short temporary name beside the target, so a long but valid file name still works.
    const std::size_t slash = file.target.rfind('/');
    file.temporary = (slash == std::string::npos ? std::string() : file.target.substr(0, slash + 1)) +
                     ".embdemo-" + std::string(6, 'X');  // mkstemp's template
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
    const BlockedSignals held(ending_signals());
    // Hard links keep the files being replaced reachable until every rename has worked; on a
    // file system without them, a file is moved aside just before its replacement moves in.
    for (Staged& file : m_files) {
        file.backup = file.temporary + "-old";
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
