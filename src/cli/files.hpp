// The file system edge: the only place that opens, creates or renames files. Readers hand an
// open stream to the pure parsers in core/; writers take fully rendered bytes and make them
// appear atomically, so that a failure never leaves a half-written file behind. Every function
// returns a message for the user (without the option name) instead of throwing.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

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

// Writes `bytes` to a temporary file next to `path` and renames it over `path`. Returns an
// empty string on success, otherwise what went wrong (the temporary file is removed).
std::string write_file_atomically(const std::string& path, const std::string& bytes);

// Creates directory `path` unless it already exists as a directory. Empty string on success.
std::string ensure_directory(const std::string& path);

}  // namespace embdemo
