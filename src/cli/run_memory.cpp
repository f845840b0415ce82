#include "cli/run_memory.hpp"

#include "cli/option_checks.hpp"

#include "cli/outputs.hpp"
#include "core/file_formats/labels.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "core/limits.hpp"

#include <algorithm>

#include <sys/stat.h>

namespace embdemo {
namespace {

// A machine format's text is held once: its room is reserved before it is written, so it never
// moves to a larger buffer, and it is moved, not copied, into the list of steps to write
// (render/kit/delimited.hpp, k_reserved_chars_per_value). JSON takes about 12 bytes a number
// ("-0.17777722, "), CSV and TSV about 11. The Python script is built by appends, and a string
// that doubles its room holds the old buffer and the new at once: up to twice its text.
// Checked against /usr/bin/time -f %M by tests/scripts/memory_estimate.sh.
constexpr std::uint64_t k_held_copies_of_output = 1;
constexpr std::uint64_t k_held_copies_of_script = 2;
constexpr std::uint64_t k_json_bytes_per_value = 12;
constexpr std::uint64_t k_delimited_bytes_per_value = 11;
// A JSON row is a line of its own ("\n    [" and "],"): a one-column table takes about 18 bytes a
// value, not 12. A CSV or TSV row's line break takes the place of a delimiter.
constexpr std::uint64_t k_json_bytes_per_row = 8;

// A piece of an output file as text: at most about 16 bytes a value.
constexpr std::uint64_t k_file_piece_bytes_per_value = 16;

// --labels, whose size is known before it is read: the file's text, one std::string per row,
// and, for lines too long for a string's own 15-byte buffer, their characters on the heap
// (malloc rounds each to 16 bytes, with 8 of its own).
std::vector<Buffer> labels_buffers(const std::string& path, std::uint64_t vocab_size) {
    struct stat info {};
    std::uint64_t file_bytes = ::stat(path.c_str(), &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
    if (file_bytes > k_max_labels_bytes) file_bytes = 0;  // refused by its own cap, in clearer words
    const std::uint64_t mean_line = vocab_size ? file_bytes / vocab_size : 0;  // its newline included
    const std::uint64_t heap_per_line = mean_line > 16 ? (mean_line + 8 + 15) / 16 * 16 : 0;
    return {{"the --labels file", file_bytes, 1},
            {"the --labels lines (vocab strings)", vocab_size, sizeof(std::string) + heap_per_line}};
}

}  // namespace

Buffer printed_output(OutputFormat format, std::uint64_t values, std::uint64_t rows) {
    const bool json = format == OutputFormat::json;
    const std::uint64_t bytes =
        values * (json ? k_json_bytes_per_value : k_delimited_bytes_per_value) + (json ? rows * k_json_bytes_per_row : 0);
    return {"the printed output", bytes, k_held_copies_of_output};
}

std::vector<Buffer> run_buffers(const Options& options, const DemoRequest& request) {
    const std::uint64_t n = request.ids.size();
    std::vector<Buffer> buffers =
        demo_buffers(n, request.vocab_size, request.dim, request.origin);
    switch (options.format) {
        case OutputFormat::json:
        case OutputFormat::csv:
        case OutputFormat::tsv:
            buffers.push_back(printed_output(options.format, printed_values(options.show, n, request.vocab_size, request.dim),
                                             printed_rows(options.show, n, request.vocab_size)));
            break;
        case OutputFormat::ipynb:
        case OutputFormat::python:  // the lookup, X @ E and X @ W.T as bit patterns
            buffers.push_back({"the printed script", 3 * n * request.dim, k_held_copies_of_script * k_json_bytes_per_value});
            break;
        case OutputFormat::text:
        case OutputFormat::markdown:
        case OutputFormat::svg:
        case OutputFormat::html: break;  // summarised: a few kilobytes
    }
    if (options.max_norm) buffers.push_back({"E after max_norm (vocab x dim)", request.vocab_size * request.dim, 4});
    // The walkthrough's step 5 (in the html page too) draws nn.Linear(V, d)'s own initial weight.
    if (options.view == View::walkthrough || options.format == OutputFormat::html) {
        buffers.push_back({"nn.Linear(vocab, dim)'s initial weight (dim x vocab)", request.vocab_size * request.dim, 4});
    }
    if (!options.save_weights.empty() || !options.export_projector.empty()) {
        buffers.push_back({"a piece of an output file", k_values_per_file_piece, k_file_piece_bytes_per_value});
    }
    if (!options.labels.empty()) {
        for (Buffer& buffer : labels_buffers(options.labels, request.vocab_size)) buffers.push_back(std::move(buffer));
    }
    return buffers;
}

std::optional<std::string> check_run_size(const Options& options, const DemoRequest& request) {
    if (auto too_many = check_output_size(options, request)) return too_many;
    return check_memory_budget(run_buffers(options, request), options.max_memory);
}


}  // namespace embdemo
