#include "cli/outputs.hpp"

#include <filesystem>
#include <system_error>

#include "cli/files.hpp"
#include "core/escape.hpp"

namespace embdemo {
namespace {

// Two spellings of one file ("a/../x.npy", "./x.npy", a link to it) compare equal; a name that
// cannot be resolved compares as written.
std::string comparable_path(const std::string& path) {
    std::error_code error;
    const auto resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
    return error ? path : resolved.string();
}

std::string problem_with(const char* option, const std::string& path, const std::string& problem) {
    return std::string(option) + ' ' + quote_for_message(path) + ": " + problem;
}

}  // namespace

std::vector<OutputFile> requested_output_files(const Options& options) {
    std::vector<OutputFile> files;
    if (!options.save_weights.empty()) files.push_back({"--save-weights", options.save_weights});
    if (!options.export_projector.empty()) {
        for (const char* name : {"vectors.tsv", "metadata.tsv"}) {
            files.push_back({"--export-projector", options.export_projector + '/' + name});
        }
    }
    return files;
}

std::optional<std::string> check_output_paths(const Options& options) {
    const std::string& dir = options.export_projector;
    if (!dir.empty()) {
        if (auto problem = check_output_directory(dir)) return problem_with("--export-projector", dir, *problem);
        if (!options.save_weights.empty() && comparable_path(dir) == comparable_path(options.save_weights)) {
            return problem_with("--save-weights", options.save_weights,
                                "is also the --export-projector directory (allowed: two different names)");
        }
    }
    for (const OutputFile& file : requested_output_files(options)) {
        if (auto problem = check_output_file(file.path)) return problem_with(file.option, file.path, *problem);
    }
    return std::nullopt;
}

}  // namespace embdemo
