#include "cli/files.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
    std::string content;
    char buffer[65536];
    while (in.value().read(buffer, sizeof buffer) || in.value().gcount() > 0) {
        content.append(buffer, static_cast<std::size_t>(in.value().gcount()));
        if (content.size() > max_bytes) {
            return ParseResult<std::string>::fail("is larger than " + std::to_string(max_bytes) + " bytes");
        }
    }
    if (in.value().bad()) return ParseResult<std::string>::fail(system_error("cannot read"));
    return ParseResult<std::string>::ok(std::move(content));
}

std::string write_file_atomically(const std::string& requested_path, const std::string& bytes) {
    // Through a symbolic link, replace the file it points to, not the link.
    std::string path = requested_path;
    struct stat existing {};
    const bool exists = ::stat(path.c_str(), &existing) == 0;
    if (auto problem = check_output_file(path)) return *problem;  // checked again: it may have changed
    if (exists) {
        if (char* target = ::realpath(requested_path.c_str(), nullptr)) {
            path = target;
            std::free(target);
        }
    }
    // A short temporary name beside the target, so a long but valid file name still works.
    const std::size_t slash = path.rfind('/');
    std::string temporary = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) +
                            ".embdemo-" + std::string(6, 'X');  // mkstemp's template
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0) return system_error("cannot create a temporary file next to it");
    // mkstemp makes the file private (0600): keep an existing file's permissions, or give a new
    // one the permissions a new file normally gets.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    const mode_t mode = exists ? (existing.st_mode & 07777) : (0666 & ~mask);
    bool ok = ::fchmod(fd, mode) == 0 && write_all(fd, bytes.data(), bytes.size()) && ::fsync(fd) == 0;
    std::string problem = ok ? "" : system_error("cannot write");
    if (::close(fd) != 0 && ok) {
        ok = false;
        problem = system_error("cannot write");
    }
    if (ok && ::rename(temporary.c_str(), path.c_str()) != 0) {
        ok = false;
        problem = system_error("cannot rename the temporary file to it");
    }
    if (!ok) ::unlink(temporary.c_str());
    return problem;
}

std::string ensure_directory(const std::string& path) {
    if (::mkdir(path.c_str(), 0777) == 0) return {};
    if (errno != EEXIST) return system_error("cannot create the directory");
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return "exists and is not a directory";
    return {};
}

}  // namespace embdemo
