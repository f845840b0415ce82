// Output paths checked before any work (issue 28): where a write to a name would land, whether
// this user may write there, and the device and inode that tell two names of one file apart.
#include "io/output_paths.hpp"

#include <cerrno>
#include <climits>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

std::string system_error(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// `problem` about an output, preceded by where its symbolic links lead when that is elsewhere.
std::string through_links(const std::string& path, const std::string& target, const std::string& problem) {
    if (target == path) return problem;
    return "is a symbolic link to " + quote_for_message(target) + ", which " + problem;
}

// Why the user may not create files in `directory`, if so.
std::optional<std::string> check_writable_directory(const std::string& directory, const char* what) {
    struct stat info {};
    if (::stat(directory.c_str(), &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            return "is in the directory " + quote_for_message(directory) + ", which does not exist (allowed: " +
                   what + " in an existing directory)";
        }
        return "is in the directory " + quote_for_message(directory) + ", which cannot be looked up: " +
               std::strerror(errno);
    }
    if (!S_ISDIR(info.st_mode)) {
        return "is in " + quote_for_message(directory) + ", which is not a directory (allowed: " + what +
               " in an existing directory)";
    }
    if (::faccessat(AT_FDCWD, directory.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
        return "cannot be created in its directory " + quote_for_message(directory) + ": " + std::strerror(errno) +
               " (allowed: a directory this user may write in)";
    }
    return std::nullopt;
}

std::string name_too_long() {
    return "is too long (allowed: names of at most " + std::to_string(NAME_MAX) + " bytes, paths of at most " +
           group_thousands(PATH_MAX - 1) + " bytes)";
}

// The path a write to `path` ends at: `path` itself, or with Links::follow the name its
// symbolic links lead to (a link's relative target is relative to the link's directory), which
// need not exist yet. Fails for a link that loops, and with Links::refuse for any link.
ParseResult<std::string> output_target(const std::string& path, Links links) {
    using Result = ParseResult<std::string>;
    std::string current = path;
    for (int hops = 0;; ++hops) {
        struct stat info {};
        if (::lstat(current.c_str(), &info) != 0) {
            if (errno == ENOENT || errno == ENOTDIR) return Result::ok(current);  // new: its directory is checked next
            if (errno == ENAMETOOLONG) return Result::fail(through_links(path, current, name_too_long()));
            return Result::fail(through_links(path, current, system_error("cannot be looked up")));
        }
        if (!S_ISLNK(info.st_mode)) return Result::ok(current);
        if (links == Links::refuse) {
            return Result::fail("exists and is a symbolic link (allowed here: a regular file, which is replaced, or a "
                                "new name; a link would let the write land outside the directory)");
        }
        if (hops == 40) {  // the kernel's own limit (ELOOP)
            return Result::fail("is a symbolic link that loops (allowed: a link that ends at a file, or at a new "
                                "name in an existing directory)");
        }
        std::string target(PATH_MAX, '\0');
        const ssize_t length = ::readlink(current.c_str(), target.data(), target.size());
        if (length < 0) return Result::fail(through_links(path, current, system_error("cannot be read")));
        target.resize(static_cast<std::size_t>(length));
        if (target.empty() || target.front() != '/') {
            const std::size_t slash = current.rfind('/');
            if (slash != std::string::npos) target = current.substr(0, slash + 1) + target;
        }
        current = std::move(target);
    }
}

}  // namespace

const char* describe_file_type(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}
ParseResult<OutputTarget> check_output_target(const std::string& path, Links links) {
    using Result = ParseResult<OutputTarget>;
    auto target = output_target(path, links);
    if (!target) return Result::fail(target.error());
    OutputTarget output;
    output.path = target.value();
    const auto fail = [&](const std::string& problem) { return Result::fail(through_links(path, output.path, problem)); };
    const std::size_t slash = output.path.rfind('/');
    const std::string name = slash == std::string::npos ? output.path : output.path.substr(slash + 1);
    if (name.size() > NAME_MAX || output.path.size() >= PATH_MAX) return fail(name_too_long());
    output.exists = ::stat(output.path.c_str(), &output.existing) == 0;
    if (output.exists) {
        if (!S_ISREG(output.existing.st_mode)) {
            return fail(std::string("exists and is ") + describe_file_type(output.existing.st_mode) +
                        " (allowed: a regular file, which is replaced, or a new name)");
        }
        // As `cp` and `>` would refuse: a file of mode 0444, or in a directory it may not read.
        if (::faccessat(AT_FDCWD, output.path.c_str(), W_OK, AT_EACCESS) != 0) {
            return fail("exists and this user may not write it: " + std::string(std::strerror(errno)) +
                        " (allowed: a file this user may write, or a new name)");
        }
        // A replacement is a new file, owned by whoever makes it: only root can give it the old owner.
        const uid_t user = ::geteuid();
        if (user != 0 && output.existing.st_uid != user) {
            return fail("belongs to another user (uid " + std::to_string(output.existing.st_uid) +
                        "), and its replacement would belong to this one (uid " + std::to_string(user) +
                        ") (allowed: a file of this user's, or a new name)");
        }
    }
    if (auto problem = check_writable_directory(directory_of(output.path), "a file")) return fail(*problem);
    return Result::ok(std::move(output));
}
std::optional<std::string> check_output_file(const std::string& path, Links links) {
    auto output = check_output_target(path, links);
    if (!output) return output.error();
    return std::nullopt;
}

std::optional<std::string> check_output_directory(const std::string& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) {
        if (errno == ENAMETOOLONG) return name_too_long();
        if (errno != ENOENT && errno != ENOTDIR) return system_error("cannot be looked up");
        const std::size_t slash = path.find_last_not_of('/') == std::string::npos ? std::string::npos
                                                                                  : path.rfind('/', path.find_last_not_of('/'));
        const std::string parent = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
        if (path.size() - (slash == std::string::npos ? 0 : slash + 1) > NAME_MAX) return name_too_long();
        return check_writable_directory(parent, "a new directory");
    }
    if (S_ISLNK(info.st_mode) && ::stat(path.c_str(), &info) != 0) {
        if (errno == ELOOP) return std::string("is a symbolic link that loops (allowed: a directory, or a new name)");
        return "is a symbolic link to a name that does not exist: " + std::string(std::strerror(errno)) +
               " (allowed: a directory, a link to one, or a new name)";
    }
    if (!S_ISDIR(info.st_mode)) {
        const std::string what = S_ISREG(info.st_mode) ? "a regular file" : describe_file_type(info.st_mode);
        return "exists and is " + what + " (allowed: a directory, or a new name)";
    }
    if (::faccessat(AT_FDCWD, path.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
        return "is a directory this user may not write in: " + std::string(std::strerror(errno)) +
               " (allowed: a directory this user may write in, or a new name)";
    }
    return std::nullopt;
}

std::optional<FileId> descriptor_id(int descriptor) {
    struct stat info {};
    if (::fstat(descriptor, &info) != 0) return std::nullopt;
    return FileId{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino)};
}

std::optional<FileId> file_id(const std::string& path) {
    struct stat info {};
    if (path.empty() || ::stat(path.c_str(), &info) != 0) return std::nullopt;
    return FileId{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino)};
}

}  // namespace embdemo
