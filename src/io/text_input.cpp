#include "io/text_input.hpp"

#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "io/files.hpp"
#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"

namespace embdemo {

namespace {

constexpr std::uint64_t k_max_vocab_file_bytes = 4u << 20;  // vocab.bpe is 456 KB

std::string executable_directory() {
    std::vector<char> path(4096);
    const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
    if (length <= 0) return "";
    const std::string exe(path.data(), static_cast<std::size_t>(length));
    return exe.substr(0, exe.rfind('/'));
}

std::vector<std::string> data_directories() {
    std::vector<std::string> directories;
    if (const char* dir = std::getenv("EMBDEMO_DATA_DIR"); dir && *dir) directories.push_back(std::string(dir) + "/gpt2");
    if (const std::string exe = executable_directory(); !exe.empty()) {
        directories.push_back(exe + "/share/embdemo/gpt2");
        directories.push_back(exe + "/../share/embdemo/gpt2");
    }
    directories.push_back(EMBDEMO_INSTALL_DATA_DIR "/embdemo/gpt2");
    return directories;
}

}  // namespace

std::string gpt2_vocabulary_file() {
    for (const std::string& directory : data_directories()) {
        const std::string path = directory + "/vocab.bpe";
        if (::access(path.c_str(), F_OK) == 0) return path;
    }
    return "";
}

namespace {

ParseResult<const Gpt2Vocabulary*> load() {
    using Result = ParseResult<const Gpt2Vocabulary*>;
    std::string tried;
    for (const std::string& directory : data_directories()) {
        const std::string path = directory + "/vocab.bpe";
        if (::access(path.c_str(), F_OK) != 0) {
            tried += (tried.empty() ? "" : ", ") + escape_for_message(directory);
            continue;
        }
        auto text = read_small_file(path, k_max_vocab_file_bytes);
        if (!text) return Result::fail("GPT-2's vocab.bpe at " + escape_for_message(path) + " " + text.error());
        auto parsed = Gpt2Vocabulary::parse(text.value());
        if (!parsed) {
            return Result::fail("GPT-2's vocab.bpe at " + escape_for_message(path) + " is damaged: " + parsed.error() +
                                " (reinstall it: cmake --install, or tools/setup.sh for a build tree)");
        }
        static const Gpt2Vocabulary vocabulary = std::move(parsed.value());
        return Result::ok(&vocabulary);
    }
    return Result::fail("GPT-2's tokenizer data (gpt2/vocab.bpe) is not in " + tried +
                        " (it comes with embdemo: run tools/setup.sh, or cmake --install, or set EMBDEMO_DATA_DIR)");
}

}  // namespace

ParseResult<const Gpt2Vocabulary*> gpt2_vocabulary() {
    static const ParseResult<const Gpt2Vocabulary*> loaded = load();
    return loaded;
}

std::optional<std::string> check_text(const GivenText& given) {
    if (!is_valid_utf8(given.text)) {
        return given.option + " " + quote_for_message(given.text) + " is not UTF-8 text (allowed: UTF-8)";
    }
    const auto vocabulary = gpt2_vocabulary();
    if (!vocabulary) return vocabulary.error();
    // Every character of UTF-8 text is part of some token.
    if (given.text.empty()) {
        return given.option + " " + quote_for_message(given.text) + " has no tokens (allowed: a text of at least one character)";
    }
    return std::nullopt;
}

ParseResult<IdBatch> ids_from_text(GivenText given) {
    using Result = ParseResult<IdBatch>;
    if (auto problem = check_text(given)) return Result::fail(*problem);
    const auto vocabulary = gpt2_vocabulary();
    IdBatch batch;
    batch.values = encode_gpt2(*vocabulary.value(), given.text);
    batch.seq = batch.values.size();
    batch.source.text = std::move(given.text);
    batch.source.token_of = [vocab = vocabulary.value()](std::uint64_t id) {
        return id < vocab->size() ? token_label(vocab->bytes(id)) : std::string();
    };
    return Result::ok(std::move(batch));
}

ParseResult<std::string> read_text_file(const std::string& path, const char* option) {
    auto text = read_small_file(path, k_max_text_file_bytes);
    if (!text) return ParseResult<std::string>::fail(std::string(option) + ' ' + quote_for_message(path) + " " + text.error());
    return text;
}

}  // namespace embdemo
