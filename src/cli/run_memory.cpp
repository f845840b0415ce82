#include "cli/run_memory.hpp"

#include "cli/outputs.hpp"

namespace embdemo {
namespace {

// A machine format's text is held twice at its peak: as built, and as copied into the list of
// steps to write. JSON takes about 12 bytes a number ("-0.17777722, "), CSV and TSV about 11.
// Checked against /usr/bin/time -f %M by tests/scripts/memory_estimate.sh; at 16 million
// numbers the estimate is 15-19% above the measured peak, at 4 million within 10%.
constexpr std::uint64_t k_held_copies_of_output = 2;
constexpr std::uint64_t k_json_bytes_per_value = 12;
constexpr std::uint64_t k_delimited_bytes_per_value = 11;

// A piece of an output file as text: at most about 16 bytes a value.
constexpr std::uint64_t k_file_piece_bytes_per_value = 16;

}  // namespace

std::vector<Buffer> run_buffers(const Options& options, const DemoRequest& request) {
    const std::uint64_t n = request.ids.size();
    std::vector<Buffer> buffers = demo_buffers(n, request.vocab_size, request.dim);
    switch (options.format) {
        case OutputFormat::json:
        case OutputFormat::csv:
        case OutputFormat::tsv: {
            const std::uint64_t bytes_per_value =
                options.format == OutputFormat::json ? k_json_bytes_per_value : k_delimited_bytes_per_value;
            buffers.push_back({"the printed output", printed_values(options.show, n, request.vocab_size, request.dim),
                               k_held_copies_of_output * bytes_per_value});
            break;
        }
        case OutputFormat::text:
        case OutputFormat::markdown: break;  // summarised: a few kilobytes
    }
    if (options.view == View::walkthrough) {
        // Step 5 draws nn.Linear(V, d)'s own initial weight to show it differs from E.
        buffers.push_back({"nn.Linear's own weight for the walkthrough", request.vocab_size * request.dim, 4});
    }
    if (!options.save_weights.empty() || !options.export_projector.empty()) {
        buffers.push_back({"a piece of an output file", k_values_per_file_piece, k_file_piece_bytes_per_value});
    }
    return buffers;
}

std::optional<std::string> check_run_size(const Options& options, const DemoRequest& request) {
    if (auto too_many = check_output_size(options, request)) return too_many;
    return check_memory_budget(run_buffers(options, request), options.max_memory);
}

}  // namespace embdemo
