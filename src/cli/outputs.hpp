// The files a run writes besides stdout (--save-weights, --export-projector): where they go, and
// whether they can go there. Checked before any work, so that a run that is going to be refused
// has computed and written nothing.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "io/files.hpp"
#include "cli/option_checks.hpp"
#include "cli/options.hpp"
#include "core/matrix.hpp"

namespace embdemo {

// Large files are rendered and written this many values at a time (about 1 MiB of float32).
inline constexpr std::size_t k_values_per_file_piece = std::size_t{1} << 18;

// One file the run will write, with the option that asked for it (for messages).
struct OutputFile {
    enum class Kind { npy, projector_vectors, projector_metadata };
    Kind kind;
    const char* option;  // "--save-weights" or "--export-projector"
    std::string path;
};

// Every file the options ask for, in the order they are written.
std::vector<OutputFile> requested_output_files(const Options& options);

// A whole message ("--save-weights \"x\": ...") when an output cannot be written where the user
// asked (check_output_file, check_output_directory), two outputs name the same file, or an
// output is one of the run's input files.
std::optional<std::string> check_output_paths(const Options& options);

// Standard output appended or redirected to a file the run reads (`--weights w.npy >> w.npy`,
// `--text-file t >> t`, --labels, --upstream, --hidden, GPT-2's vocab.bpe): refused on every
// lesson, as `cat f >> f` is, by comparing fstat(1)'s device and inode with each input's.
std::optional<std::string> check_stdout_is_no_input(const option_checks::RawOptions& raw, const Options& options);

// Writes every requested file into `transaction`, where it stays invisible until committed;
// large tables a piece at a time, so that no second copy of E is held as text. Returns a whole
// message naming the option and the file that failed, or an empty string.
std::string stage_output_files(const Options& options, const Matrix& weight,
                               const std::vector<std::string>& labels, FileTransaction& transaction);

// Renames the staged files into place (FileTransaction::commit). Returns a whole message naming
// the option and the file that failed, or an empty string.
std::string commit_output_files(const Options& options, FileTransaction& transaction);

}  // namespace embdemo
