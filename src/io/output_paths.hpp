// Output paths checked before any work (issue 28): where a write to a name would land, whether
// this user may write there, and which inputs it would overwrite. cli/files writes through them.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/parse_result.hpp"

namespace embdemo {

// The hidden names a write makes beside its target (io/files.cpp): the temporary file (mkstemp's
// template), and while it commits, the link that keeps the file it replaces. The checks below
// make sure both fit in a path.
inline constexpr char k_temporary_name[] = ".embdemo-XXXXXX";
inline constexpr char k_backup_suffix[] = "-old";

// Whether an output name that is a symbolic link is written through (--save-weights: the file
// the link names is replaced, the link stays) or refused (the files embdemo itself names inside
// an --export-projector directory, where a planted link could redirect a write outside it).
enum class Links { follow, refuse };

// Why `path` cannot be written as an output file, checked before any work: a name too long; a
// symbolic link that loops, or (with Links::refuse) any link; something that is not a regular
// file in the way (a device, a named pipe, a socket, a directory: replacing a link to /dev/null
// with a regular file would destroy it); an existing file this user may not write, or one of
// another user's that a replacement would take over, or one that is append-only or immutable
// (chattr +a, +i); a directory that does not exist, that this user may not create files in, that
// is append-only, or that is on a kernel's pseudo file system (/proc, /sys); a directory whose
// path leaves no room for the hidden names beside the file.
std::optional<std::string> check_output_file(const std::string& path, Links links = Links::follow);

// Why `path` cannot be a directory to write into: it exists and is not a directory (or is a
// symbolic link to nothing), this user may not create files in it, or, when it is new, its
// parent does not exist or is not writable; the same file system and room checks as above.
std::optional<std::string> check_output_directory(const std::string& path);

// Device and inode of what `path` names (through symbolic links), when it exists: two names of
// one file (a hard link, a symbolic link, another spelling) have the same.
struct FileId {
    std::uint64_t device = 0, inode = 0;
    bool operator==(const FileId& other) const { return device == other.device && inode == other.inode; }
};
std::optional<FileId> file_id(const std::string& path);

// The same for an open descriptor (fstat): standard output is 1.
std::optional<FileId> descriptor_id(int descriptor);

// What begin_file needs to know about an output: where it ends up and what it replaces.
struct OutputTarget {
    std::string path;
    bool exists = false;
    struct stat existing {};
};

// check_output_file's checks, and where the write lands: the file's path after its links, and
// the file it replaces, if any. FileTransaction::begin_file checks again just before it writes.
ParseResult<OutputTarget> check_output_target(const std::string& path, Links links);

// "a named pipe": what a file that is not a regular file is, for messages.
const char* describe_file_type(mode_t mode);

// "dir" of "dir/x.npy"; "." for a bare name.
std::string directory_of(const std::string& path);

}  // namespace embdemo
