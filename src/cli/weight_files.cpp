#include "cli/weight_files.hpp"

#include "io/files.hpp"
#include "core/file_formats/delimited_weights.hpp"
#include "core/escape.hpp"
#include "core/limits.hpp"
#include "core/file_formats/npy.hpp"
#include "core/file_formats/weight_file.hpp"

namespace embdemo {

std::optional<std::string> check_weight_shape(const DemoRequest& request, std::uint64_t rows, std::uint64_t cols,
                                              const RunCheck& check_run, OneHotHeld held) {
    const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
    if (request.vocab_size != 0 && request.vocab_size != rows) {
        return "holds " + shape + " but --vocab is " + std::to_string(request.vocab_size) +
               " (allowed: leave --vocab out, or --vocab " + std::to_string(rows) + ")";
    }
    if (request.dim != 0 && request.dim != cols) {
        return "holds " + shape + " but --dim is " + std::to_string(request.dim) +
               " (allowed: leave --dim out, or --dim " + std::to_string(cols) + ")";
    }
    for (std::size_t i = 0; i < request.ids.size(); ++i) {
        if (request.ids[i] >= rows && request.source.from_text()) {
            // The ids are the tokenizer's tokens of --text or --text-file: there is no "--ids" to blame.
            const TokenizerKind kind = request.source.tokenizer;
            std::string unit = tokenizer_tokens(kind);  // "GPT-2 tokens": one of them
            unit.pop_back();
            const std::string model = kind == TokenizerKind::gpt2 ? "GPT-2's" : kind == TokenizerKind::wordpiece ? "BERT's" : "a";
            return "holds " + shape + ", so the text's token ids[" + torch_index(request.shape, i) + "] = " +
                   std::to_string(request.ids[i]) + ' ' + quote_for_message(request.source.token_of(request.ids[i])) +
                   " has no row (allowed: a table with a row for every " + unit +
                   " id of the text, such as " + model + " " + std::to_string(request.source.vocab_size) + " x d)";
        }
        if (request.ids[i] >= rows) {
            return "holds " + shape + ", so id " + std::to_string(request.ids[i]) + " (item " +
                   std::to_string(i + 1) + " of --ids) has no row (allowed: ids 0 to " +
                   std::to_string(rows - 1) + ")";
        }
    }
    if (auto too_big = check_demo_sizes(request.ids.size(), rows, cols, held)) return "holds " + shape + ": " + *too_big;
    if (!check_run) return std::nullopt;
    DemoRequest sized = request;
    sized.vocab_size = rows;
    sized.dim = cols;
    if (auto problem = check_run(sized)) return "holds " + shape + ": " + *problem;
    return std::nullopt;
}

ParseResult<Matrix> load_matrix_file(const char* option, const std::string& path, const ShapeCheck& check,
                                     const std::string& expected_shape) {
    const auto fail = [&](const std::string& problem) {
        return ParseResult<Matrix>::fail(std::string(option) + ' ' + quote_for_message(path) + ": " + problem);
    };
    auto in = open_for_reading(path);
    if (!in) return fail(in.error());
    std::istream& stream = in.value().stream();
    char first_bytes[6] = {};
    stream.read(first_bytes, sizeof first_bytes);
    const auto format = detect_weight_format(path, std::string_view(first_bytes, static_cast<std::size_t>(stream.gcount())));
    if (!format) return fail(format.error());
    stream.clear();
    stream.seekg(0);
    if (!stream) return fail("cannot read it from the start again (allowed: a regular file)");

    auto matrix = format.value() == WeightFormat::npy
                      ? read_npy(stream, check, expected_shape)
                      : read_delimited_weights(stream, format.value() == WeightFormat::csv ? ',' : '\t', check);
    if (!matrix && stream.bad()) return fail("cannot read: input/output error");
    if (!matrix) return fail(matrix.error());
    return matrix;
}

ParseResult<Matrix> load_weight_file(DemoRequest& request, const RunCheck& check_run, OneHotHeld held) {
    const ShapeCheck check = [&request, &check_run, held](std::uint64_t rows, std::uint64_t cols) {
        return check_weight_shape(request, rows, cols, check_run, held);
    };
    auto weight = load_matrix_file("--weights", request.origin.detail, check);
    if (!weight) return weight;
    request.vocab_size = weight.value().rows;
    request.dim = weight.value().cols;
    return weight;
}

}  // namespace embdemo
