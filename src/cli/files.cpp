#include "cli/files.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
    }
    for (auto dir = m_created_directories.rbegin(); dir != m_created_directories.rend(); ++dir) {
        ::rmdir(dir->c_str());
    }
}

std::string FileTransaction::make_directory(const std::string& path) {
    if (::mkdir(path.c_str(), 0777) == 0) {
        m_created_directories.push_back(path);
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
    file.existed = exists;
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
    file.fd = ::mkstemp(file.temporary.data());
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
    // Hard links keep the files being replaced reachable until every rename has worked.
    for (Staged& file : m_files) {
        file.backup = file.temporary + "-old";
        if (::link(file.target.c_str(), file.backup.c_str()) != 0) file.backup.clear();
    }
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        if (::rename(m_files[i].temporary.c_str(), m_files[i].target.c_str()) != 0) {
            const std::string problem =
                quote_for_message(m_files[i].target) + ": " + system_error("cannot rename the temporary file to it");
            roll_back(i);
            return problem;
        }
    }
    for (const Staged& file : m_files) {
        if (!file.backup.empty()) ::unlink(file.backup.c_str());
    }
    m_committed = true;
    return {};
}

void FileTransaction::roll_back(std::size_t renamed) {
    for (std::size_t i = 0; i < renamed; ++i) {
        const Staged& file = m_files[i];
        if (!file.backup.empty()) {
            ::rename(file.backup.c_str(), file.target.c_str());
        } else if (!file.existed) {
            ::unlink(file.target.c_str());
        }  // else: no hard links on this file system, so the new file has to stay
    }
    for (std::size_t i = renamed; i < m_files.size(); ++i) {
        if (!m_files[i].backup.empty()) ::unlink(m_files[i].backup.c_str());
    }
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
