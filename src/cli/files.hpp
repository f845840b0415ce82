// The file system edge: the only place that opens, creates or renames files. Readers hand an
// open stream to the pure parsers in core/; writers take fully rendered bytes and make them
// appear atomically, so that a failure never leaves a half-written file behind. Every function
// returns a message for the user (without the option name) instead of throwing.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"

namespace embdemo {

// Opens `path` for binary reading; fails for missing, unreadable files and directories.
ParseResult<std::ifstream> open_for_reading(const std::string& path);

// The whole content of a small file, refused when it is larger than `max_bytes`.
ParseResult<std::string> read_small_file(const std::string& path, std::uint64_t max_bytes);

// Why `path` cannot be written as an output file: it exists (through any symbolic link) and is
// not a regular file, e.g. a device, a named pipe, a socket or a directory. Replacing such a
// thing with a regular file would destroy it (a link to /dev/null), so it is refused up front.
std::optional<std::string> check_output_file(const std::string& path);

// Why `path` cannot be a directory to write into: it exists and is not a directory.
std::optional<std::string> check_output_directory(const std::string& path);

// Output files written in full beside their targets, then renamed into place together by
// commit(); until then nothing the user can see has changed, and the destructor removes the
// temporary files (and any directory it created) of a run that failed. A symbolic link keeps
// pointing where it did: the file it names is replaced.
class FileTransaction {
public:
    FileTransaction() = default;
    FileTransaction(const FileTransaction&) = delete;
    FileTransaction& operator=(const FileTransaction&) = delete;
    ~FileTransaction();

    // Creates directory `path` unless it already exists as one. Empty string on success.
    std::string make_directory(const std::string& path);
    // Starts the file that will replace `path`. Empty string on success.
    std::string begin_file(const std::string& path);
    // Appends to the file begun last.
    std::string write(std::string_view bytes);
    // Flushes the file begun last to the disk and closes it.
    std::string end_file();
    // Renames every file into place. If one rename fails, the files renamed before it are put
    // back as they were (where the file system allows hard links), and the message names the
    // file that failed ("\"PATH\": cannot rename ...").
    std::string commit();

private:
    struct Staged {
        std::string target;     // the path the file ends up at (a link's target, resolved)
        std::string temporary;  // beside it, in the same directory, so rename() is atomic
        std::string backup;     // a hard link to the file it replaces, while committing
        bool existed = false;   // a file was there before
        int fd = -1;
    };
    void roll_back(std::size_t renamed);
    std::vector<Staged> m_files;
    std::vector<std::string> m_created_directories;
    bool m_committed = false;
};

// One file written through a FileTransaction. Empty string on success.
std::string write_file_atomically(const std::string& path, const std::string& bytes);


}  // namespace embdemo
