#include "cli/outputs.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <system_error>

#include "core/escape.hpp"
#include "core/file_formats/npy.hpp"
#include "io/text_input.hpp"
#include "render/formats/projector.hpp"

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

using RenderRows = std::function<std::string(std::size_t first, std::size_t end)>;

// `head`, then `rows` rows rendered a piece at a time, as one file of the transaction.
std::string stage_rows(FileTransaction& transaction, const std::string& path, Links links, const std::string& head,
                       std::size_t rows, std::size_t cols, const RenderRows& render) {
    const std::size_t rows_per_piece = std::max<std::size_t>(1, k_values_per_file_piece / std::max<std::size_t>(1, cols));
    std::string problem = transaction.begin_file(path, links);
    if (problem.empty()) problem = transaction.write(head);
    for (std::size_t first = 0; problem.empty() && first < rows; first += rows_per_piece) {
        problem = transaction.write(render(first, std::min(rows, first + rows_per_piece)));
    }
    return problem.empty() ? transaction.end_file() : problem;
}

std::string stage_file(OutputFile::Kind kind, const std::string& path, const Matrix& weight,
                       const ProjectorMetadata& metadata, FileTransaction& transaction) {
    const std::size_t rows = weight.rows;
    switch (kind) {
        case OutputFile::Kind::npy:
            return stage_rows(transaction, path, Links::follow, encode_npy_header(rows, weight.cols), rows, weight.cols,
                              [&](std::size_t first, std::size_t end) {
                                  return encode_npy_data(weight.row(first), (end - first) * weight.cols);
                              });
        case OutputFile::Kind::projector_vectors:
            return stage_rows(transaction, path, Links::refuse, "", rows, weight.cols, [&](std::size_t first, std::size_t end) {
                return render_projector_vectors(weight, first, end);
            });
        case OutputFile::Kind::projector_metadata: break;
    }
    return stage_rows(transaction, path, Links::refuse, render_projector_metadata_header(metadata), rows, 1,
                      [&](std::size_t first, std::size_t end) { return render_projector_metadata(metadata, first, end); });
}

// The tokenizers' vocabularies are embdemo's own data: replaced or appended to, every later
// --text run with that tokenizer fails, so no output, standard output included, may be one.
struct DataFile {
    std::string path;
    const char* what;
};
std::vector<DataFile> vocabulary_files() {
    return {{gpt2_vocabulary_file(), "GPT-2's vocabulary"}, {bert_vocabulary_file(), "BERT's vocabulary"}};
}

}  // namespace

std::vector<OutputFile> requested_output_files(const Options& options) {
    std::vector<OutputFile> files;
    using Kind = OutputFile::Kind;
    if (!options.save_weights.empty()) files.push_back({Kind::npy, "--save-weights", options.save_weights});
    const std::string& dir = options.export_projector;
    if (!dir.empty()) {
        files.push_back({Kind::projector_vectors, "--export-projector", dir + "/vectors.tsv"});
        files.push_back({Kind::projector_metadata, "--export-projector", dir + "/metadata.tsv"});
    }
    return files;
}


std::optional<std::string> check_output_paths(const Options& options) {
    const std::string& dir = options.export_projector;
    bool dir_exists = false;
    if (!dir.empty()) {
        if (!options.save_weights.empty() && comparable_path(dir) == comparable_path(options.save_weights)) {
            return problem_with("--save-weights", options.save_weights,
                                "is also the --export-projector directory (allowed: two different names)");
        }
        if (auto problem = check_output_directory(dir)) return problem_with("--export-projector", dir, *problem);
        dir_exists = file_id(dir).has_value();
    }
    // The files the run reads: none may be replaced by an output, whatever the spelling (device
    // and inode, so hard and symbolic links count). --text-file was read while validating, the
    // others are read after this check; an output that does not exist yet is none of them.
    const bool weights_file = options.request.origin.kind == WeightOrigin::Kind::file;
    std::vector<std::pair<const char*, std::string>> inputs = {
        {"--weights", weights_file ? options.request.origin.detail : std::string()},
        {"--text-file", options.text_file},
        {"--labels", options.labels},
    };
    inputs.insert(inputs.end(), options.lesson_inputs.begin(), options.lesson_inputs.end());
    for (const OutputFile& file : requested_output_files(options)) {
        // The files embdemo names inside the projector's directory: never through a link. In a
        // directory still to be made, there is nothing to check.
        const bool inside_dir = file.kind != OutputFile::Kind::npy;
        if (inside_dir && !dir_exists) continue;
        const auto output = file_id(file.path);
        // Standard output redirected to the output (`> e.npy`, a link to /proc/self/fd/1): the
        // view and the file would overwrite each other, as `cat f > f` refuses. First, since a
        // link to a pipe's /proc/self/fd/1 would otherwise be named a write into /proc.
        if (output && descriptor_id(1) == output) {
            return problem_with(file.option, file.path,
                                "is also standard output, where the view is written (allowed: an output that is "
                                "not the file standard output goes to)");
        }
        if (auto problem = check_output_file(file.path, inside_dir ? Links::refuse : Links::follow)) {
            return problem_with(file.option, file.path, *problem);
        }
        if (!output) continue;
        for (const DataFile& vocabulary : vocabulary_files()) {
            if (vocabulary.path.empty() || !(file_id(vocabulary.path) == output)) continue;
            return problem_with(file.option, file.path,
                                std::string("is ") + vocabulary.what + " " + quote_for_message(vocabulary.path) +
                                    ", which embdemo's tokenizer reads (allowed: an output that is none of embdemo's "
                                    "data files or the run's inputs)");
        }
        for (const auto& [option, path] : inputs) {
            if (file_id(path) == output) {
                return problem_with(file.option, file.path,
                                    std::string("is the same file as ") + option + ' ' + quote_for_message(path) +
                                        ", which the run reads (allowed: an output that is none of the run's inputs)");
            }
        }
    }
    return std::nullopt;
}

std::optional<std::string> check_stdout_is_no_input(const option_checks::RawOptions& raw, const Options& options) {
    const auto out = descriptor_id(1);
    if (!out) return std::nullopt;
    // Every file the run reads, as given; a value that names no file (--upstream ones) has no id.
    std::vector<std::pair<const char*, std::string>> inputs = {
        {"--weights", raw.weights.value_or("")},
        {"--text-file", raw.text_file.value_or("")},
        {"--labels", raw.labels.value_or("")},
    };
    inputs.insert(inputs.end(), options.lesson_inputs.begin(), options.lesson_inputs.end());
    for (const auto& [option, path] : inputs) {
        if (path.empty() || !(file_id(path) == out)) continue;
        return std::string("standard output is the same file as ") + option + ' ' + quote_for_message(path) +
               ", which the run reads (allowed: standard output to a file that is none of the run's inputs)";
    }
    for (const DataFile& vocabulary : vocabulary_files()) {
        if (vocabulary.path.empty() || !(file_id(vocabulary.path) == out)) continue;
        return std::string("standard output is ") + vocabulary.what + " " + quote_for_message(vocabulary.path) +
               ", which embdemo's tokenizer reads (allowed: standard output to a file that is none of embdemo's data "
               "files or the run's inputs)";
    }
    return std::nullopt;
}

std::string stage_output_files(const Options& options, const Matrix& weight,
                               const std::vector<std::string>& labels, FileTransaction& transaction) {
    if (!options.export_projector.empty()) {
        if (auto problem = transaction.make_directory(options.export_projector); !problem.empty()) {
            return problem_with("--export-projector", options.export_projector, problem);
        }
    }
    // With --text, each row's token beside its id or label.
    const ProjectorMetadata metadata{labels, options.request.source.token_of};
    for (const OutputFile& file : requested_output_files(options)) {
        const std::string problem = stage_file(file.kind, file.path, weight, metadata, transaction);
        if (!problem.empty()) return problem_with(file.option, file.path, problem);
    }
    return {};
}

std::string commit_output_files(const Options& options, FileTransaction& transaction) {
    const std::string problem = transaction.commit();
    if (problem.empty()) return problem;
    const OutputFile file = requested_output_files(options).at(transaction.failed_file());  // staged in this order
    return problem_with(file.option, file.path, problem);
}

}  // namespace embdemo
