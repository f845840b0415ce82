// Output paths checked before any work (issue 28): where a write to a name would land, whether
// this user may write there, and the device and inode that tell two names of one file apart.
#include "io/output_paths.hpp"

#include <cerrno>
#include <climits>
#include <cstring>

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
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

// The kernel's file systems where access() may let root write but no file can be made.
struct PseudoFileSystem {
    unsigned long magic;
    const char* name;
};
constexpr PseudoFileSystem k_pseudo_file_systems[] = {
    {PROC_SUPER_MAGIC, "proc"},     {SYSFS_MAGIC, "sysfs"},     {CGROUP2_SUPER_MAGIC, "cgroup2"},
    {0x27e0eb, "cgroup"},           {DEBUGFS_MAGIC, "debugfs"}, {TRACEFS_MAGIC, "tracefs"},
    {SECURITYFS_MAGIC, "securityfs"}, {BPF_FS_MAGIC, "bpf"},    {PSTOREFS_MAGIC, "pstore"},
    {DEVPTS_SUPER_MAGIC, "devpts"}, {EFIVARFS_MAGIC, "efivarfs"}, {SELINUX_MAGIC, "selinuxfs"},
};

// The inode flags of `path` (chattr's), or 0 where the file system has none.
int inode_flags(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return 0;
    int flags = 0;
    if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) flags = 0;
    ::close(fd);
    return flags;
}

// Where access() allows a write that fails only after the work: a pseudo file system (root may
// "write" in /proc, where mkstemp then fails), and an append-only directory (chattr +a: a file
// can be made there but never renamed into place or removed, so the temporary would stay).
std::optional<std::string> check_directory_takes_files(const std::string& directory, const char* what,
                                                       bool is_the_output = false) {
    const std::string subject = is_the_output ? "is a directory" : "is in the directory " + quote_for_message(directory);
    struct statfs fs {};
    if (::statfs(directory.c_str(), &fs) == 0) {
        for (const PseudoFileSystem& pseudo : k_pseudo_file_systems) {
            if (static_cast<unsigned long>(fs.f_type) == pseudo.magic) {
                return subject + " on the kernel's " + pseudo.name +
                       " file system, where no file can be made (allowed: " + what + " on a disk's file system)";
            }
        }
    }
    if (inode_flags(directory) & (FS_APPEND_FL | FS_IMMUTABLE_FL)) {
        return subject + " that is append-only or immutable (chattr +a, +i): no file can be renamed into it or "
                         "removed (allowed: " + what + (is_the_output ? "" : " in a directory") + " without those attributes)";
    }
    return std::nullopt;
}

// Why the hidden names beside a file in `directory` ("" for the current one) would not fit in a
// path: the directory, a slash and the longest of them, ".embdemo-XXXXXX-old".
std::optional<std::string> check_room_for_hidden_names(std::size_t directory_length) {
    const std::size_t hidden = directory_length + 1 + sizeof k_temporary_name - 1 + sizeof k_backup_suffix - 1;
    if (hidden < PATH_MAX) return std::nullopt;
    return "is too long for the hidden file written beside it: its directory's path and \"/" +
           std::string(k_temporary_name) + k_backup_suffix + "\" make " + group_thousands(hidden) +
           " bytes (allowed: a directory path of at most " +
           group_thousands(PATH_MAX - 1 - (hidden - directory_length)) + " bytes)";
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
    return check_directory_takes_files(directory, what);
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
    if (auto problem = check_room_for_hidden_names(slash == std::string::npos ? 0 : slash)) return fail(*problem);
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
        // Writable, but it can never be renamed over or moved aside.
        if (inode_flags(output.path) & (FS_APPEND_FL | FS_IMMUTABLE_FL)) {
            return fail("exists and is append-only (chattr +a), so it cannot be replaced (allowed: a file without "
                        "that attribute, or a new name)");
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
        if (auto problem = check_room_for_hidden_names(path.size())) return problem;
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
    if (auto problem = check_room_for_hidden_names(path.size())) return problem;
    return check_directory_takes_files(path, "a directory", true);
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
