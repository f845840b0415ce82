// The file system edge: the only place that opens, creates or renames files. Readers hand an
// open stream to the pure parsers in core/; writers take fully rendered bytes and make them
// appear atomically, so that a failure never leaves a half-written file behind. Every function
// returns a message for the user (without the option name) instead of throwing.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/output_paths.hpp"
#include "core/parse_result.hpp"

namespace embdemo {

// A regular file opened for reading, with the stream the parsers read. Movable, not copyable;
// closing it closes the file.
class InputFile {
public:
    InputFile(int fd, std::uint64_t size);
    std::istream& stream() { return *m_stream; }
    std::uint64_t size() const { return m_size; }

private:
    std::unique_ptr<std::streambuf> m_buffer;  // owns the descriptor
    std::unique_ptr<std::istream> m_stream;
    std::uint64_t m_size = 0;
};

// Opens `path` for binary reading; fails for missing and unreadable files, directories, devices,
// pipes and sockets. The path is opened once, without blocking (a named pipe with no writer
// would block open() for ever), and the opened descriptor is checked: a name swapped for a pipe
// between a check and the open cannot make the run hang. Every input file comes through here.
ParseResult<InputFile> open_for_reading(const std::string& path);

// The whole content of a small file, refused when it is larger than `max_bytes`.
ParseResult<std::string> read_small_file(const std::string& path, std::uint64_t max_bytes);


// Output files written in full beside their targets, then renamed into place together by
// commit(); until then nothing the user can see has changed, and the destructor removes the
// temporary files (and any directory it created) of a run that failed, as a signal that ends
// the run does (cli/temporary_files). A symbolic link keeps
// pointing where it did: the file it names (even one that does not exist yet) is replaced. The
// replacement keeps the mode of the file it replaces, and its owner and group where the user
// may set them.
class FileTransaction {
public:
    FileTransaction() = default;
    FileTransaction(const FileTransaction&) = delete;
    FileTransaction& operator=(const FileTransaction&) = delete;
    ~FileTransaction();

    // Creates directory `path` unless it already exists as one. Empty string on success.
    std::string make_directory(const std::string& path);
    // Starts the file that will replace `path` (check_output_file's checks again, as things may
    // have changed since). Empty string on success.
    std::string begin_file(const std::string& path, Links links = Links::follow);
    // Appends to the file begun last.
    std::string write(std::string_view bytes);
    // Flushes the file begun last to the disk and closes it.
    std::string end_file();
    // Renames every file into place, holding a lock on their directories against other embdemo
    // runs and holding back signals that would end the process between two renames. If one
    // rename fails, the files renamed before it are put back as they were, and failed_file()
    // says which file failed (the message does not name it).
    std::string commit();
    // After a failed commit: the file that failed, counted from 0 in the order begun.
    std::size_t failed_file() const { return m_failed; }

private:
    // What keeps the file a commit replaces until every rename has worked.
    enum class Kept {
        nothing,  // no file there
        linked,   // a hard link at `backup`
        to_move,  // no hard links here: to be renamed to `backup` just before it is replaced
        moved,    // renamed to `backup`
    };
    struct Staged {
        std::string target;     // the path the file ends up at (a link's target, resolved)
        std::string temporary;  // beside it, in the same directory, so rename() is atomic
        std::string backup;     // the file it replaces, while committing
        Kept kept = Kept::nothing;
        int fd = -1;
    };
    // Undoes a commit that failed at file `failed` and returns the message naming it.
    std::string fail_commit(std::size_t failed, const char* what);
    std::vector<Staged> m_files;
    std::size_t m_failed = 0;
    std::vector<std::string> m_created_directories;
    bool m_committed = false;
};

// One file written through a FileTransaction. Empty string on success.
std::string write_file_atomically(const std::string& path, const std::string& bytes);


}  // namespace embdemo
