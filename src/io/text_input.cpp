#include "io/text_input.hpp"

#include <dlfcn.h>
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

constexpr std::uint64_t k_max_vocab_file_bytes = 4u << 20;  // vocab.bpe is 456 KB, BERT's vocab.txt 232 KB

std::string executable_directory() {
    std::vector<char> path(4096);
    const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
    if (length <= 0) return "";
    const std::string exe(path.data(), static_cast<std::size_t>(length));
    return exe.substr(0, exe.rfind('/'));
}

// Where a tokenizer's data directory `name` ("gpt2", "bert") is looked for, in order.
std::vector<std::string> data_directories(const std::string& name = "gpt2") {
    std::vector<std::string> directories;
    if (const char* dir = std::getenv("EMBDEMO_DATA_DIR"); dir && *dir) directories.push_back(std::string(dir) + "/" + name);
    if (const std::string exe = executable_directory(); !exe.empty()) {
        directories.push_back(exe + "/share/embdemo/" + name);
        directories.push_back(exe + "/../share/embdemo/" + name);
    }
    directories.push_back(EMBDEMO_INSTALL_DATA_DIR "/embdemo/" + name);
    return directories;
}

}  // namespace

namespace {

std::string data_file(const std::string& name, const std::string& file) {
    for (const std::string& directory : data_directories(name)) {
        const std::string path = directory + "/" + file;
        if (::access(path.c_str(), F_OK) == 0) return path;
    }
    return "";
}

}  // namespace

std::string gpt2_vocabulary_file() { return data_file("gpt2", "vocab.bpe"); }

std::string bert_vocabulary_file() { return data_file("bert", "vocab.txt"); }

namespace {

// A tokenizer's data file (`name`/`file`, "GPT-2's" or "BERT's" data to the user), read and
// parsed by Vocabulary::parse from the first data directory that has it.
template <typename Vocabulary>
ParseResult<Vocabulary> load_data(const std::string& name, const std::string& file, const std::string& owner,
                                  const std::string& what) {
    using Result = ParseResult<Vocabulary>;
    std::string tried;
    for (const std::string& directory : data_directories(name)) {
        const std::string path = directory + "/" + file;
        if (::access(path.c_str(), F_OK) != 0) {
            tried += (tried.empty() ? "" : ", ") + escape_for_message(directory);
            continue;
        }
        auto text = read_small_file(path, k_max_vocab_file_bytes);
        if (!text) return Result::fail(owner + " " + file + " at " + escape_for_message(path) + " " + text.error());
        auto parsed = Vocabulary::parse(text.value());
        if (!parsed) {
            return Result::fail(owner + " " + file + " at " + escape_for_message(path) + " is damaged: " + parsed.error() +
                                " (reinstall it: cmake --install, or tools/setup.sh for a build tree)");
        }
        return parsed;
    }
    return Result::fail(owner + " " + what + " (" + name + "/" + file + ") is not in " + tried +
                        " (it comes with embdemo: run tools/setup.sh, or cmake --install, or set EMBDEMO_DATA_DIR)");
}

template <typename Vocabulary>
ParseResult<const Vocabulary*> kept(ParseResult<Vocabulary> loaded) {
    if (!loaded) return ParseResult<const Vocabulary*>::fail(loaded.error());
    static const Vocabulary vocabulary = std::move(loaded.value());
    return ParseResult<const Vocabulary*>::ok(&vocabulary);
}

}  // namespace

ParseResult<const Gpt2Vocabulary*> gpt2_vocabulary() {
    static const ParseResult<const Gpt2Vocabulary*> loaded =
        kept(load_data<Gpt2Vocabulary>("gpt2", "vocab.bpe", "GPT-2's", "tokenizer data"));
    return loaded;
}

ParseResult<const WordPieceVocabulary*> bert_vocabulary() {
    static const ParseResult<const WordPieceVocabulary*> loaded =
        kept(load_data<WordPieceVocabulary>("bert", "vocab.txt", "BERT's", "WordPiece vocabulary"));
    return loaded;
}

ParseResult<const SentencePieceLibrary*> sentencepiece_library() {
    using Result = ParseResult<const SentencePieceLibrary*>;
    static const Result opened = [] {
        std::vector<std::string> places;
        if (const std::string exe = executable_directory(); !exe.empty()) {
            places.push_back(exe);
            places.push_back(exe + "/..");
            places.push_back(exe + "/../" EMBDEMO_INSTALL_LIB_NAME "/embdemo");
        }
        places.push_back(EMBDEMO_INSTALL_LIB_DIR "/embdemo");
        std::string tried;
        for (const std::string& place : places) {
            const std::string path = place + "/" EMBDEMO_SENTENCEPIECE_MODULE;
            void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!module) {
                tried += (tried.empty() ? "" : ", ") + path;
                continue;
            }
            static SentencePieceLibrary library;
            library.train = reinterpret_cast<EmbdemoSentencePieceTrain>(::dlsym(module, EMBDEMO_SENTENCEPIECE_TRAIN));
            library.release = reinterpret_cast<EmbdemoSentencePieceRelease>(::dlsym(module, EMBDEMO_SENTENCEPIECE_RELEASE));
            if (!library.train || !library.release) return Result::fail(path + " is not embdemo's SentencePiece module (reinstall embdemo)");
            return Result::ok(&library);
        }
        return Result::fail(std::string("embdemo's SentencePiece module, which trains --tokenizer unigram and bpe, is "
                                        "missing (looked for ") + tried + "; reinstall embdemo, or build it with tools/setup.sh)");
    }();
    return opened;
}

std::optional<std::string> check_text(const GivenText& given, TokenizerKind kind) {
    if (!is_valid_utf8(given.text)) {
        return given.option + " " + quote_for_message(given.text) + " is not UTF-8 text (allowed: UTF-8)";
    }
    if (kind == TokenizerKind::gpt2) {
        if (const auto vocabulary = gpt2_vocabulary(); !vocabulary) return vocabulary.error();
    } else if (kind == TokenizerKind::wordpiece) {
        if (const auto vocabulary = bert_vocabulary(); !vocabulary) return vocabulary.error();
    } else if (const auto library = sentencepiece_library(); !library) {
        return library.error();
    }
    // Every character of UTF-8 text is part of some GPT-2 token; the other tokenizers may drop
    // white space, which their own checks below name.
    if (given.text.empty()) {
        return given.option + " " + quote_for_message(given.text) + " has no tokens (allowed: a text of at least one character)";
    }
    return std::nullopt;
}

namespace {

// WordPiece's or SentencePiece's pieces and ids as a batch. SentencePiece's pieces are known
// for the ids the text used: another id (a predicted next token) has no label ("").
IdBatch batch_of(Tokenized tokenized, std::string text, const WordPieceVocabulary* bert) {
    IdBatch batch;
    batch.values = std::move(tokenized.ids);
    batch.seq = batch.values.size();
    batch.source.text = std::move(text);
    batch.source.tokenizer = tokenized.kind;
    batch.source.vocab_size = tokenized.vocab_size;
    if (bert) {
        batch.source.token_of = [bert](std::uint64_t id) { return id < bert->size() ? token_label(bert->token(id)) : std::string(); };
        return batch;
    }
    std::vector<std::string> labels(tokenized.vocab_size);
    for (std::size_t i = 0; i < batch.values.size(); ++i) labels[batch.values[i]] = token_label(tokenized.pieces[i]);
    batch.source.token_of = [labels = std::move(labels)](std::uint64_t id) {
        return id < labels.size() ? labels[id] : std::string();
    };
    return batch;
}

}  // namespace

ParseResult<IdBatch> ids_from_text(GivenText given, const TextTokenizer& tokenizer) {
    using Result = ParseResult<IdBatch>;
    if (auto problem = check_text(given, tokenizer.kind)) return Result::fail(*problem);
    if (tokenizer.kind == TokenizerKind::wordpiece) {
        const WordPieceVocabulary* bert = bert_vocabulary().value();
        Tokenized tokenized = wordpiece_tokenize(*bert, given.text);
        if (tokenized.ids.empty()) {
            return Result::fail(given.option + " " + quote_for_message(given.text) +
                                " has no WordPiece tokens: BERT's basic tokenizer drops white space and control "
                                "characters (allowed: a text with a letter, digit or punctuation)");
        }
        tokenized.vocab_size = bert->size();
        return Result::ok(batch_of(std::move(tokenized), std::move(given.text), bert));
    }
    if (tokenizer.kind != TokenizerKind::gpt2) {
        const SentencePieceLibrary& library = *sentencepiece_library().value();
        std::uint64_t most = 0;
        auto trained = train_and_tokenize(library, tokenizer.kind, tokenizer.vocab_size, given.text, &most);
        if (!trained && most > 0 && !tokenizer.vocab_size_given) {
            trained = train_and_tokenize(library, tokenizer.kind, most, given.text);
        }
        if (!trained) return Result::fail(trained.error());
        if (trained.value().ids.empty()) {
            return Result::fail(given.option + " " + quote_for_message(given.text) + " has no " +
                                tokenizer_tokens(tokenizer.kind) + " (allowed: a text with a letter, digit or punctuation)");
        }
        return Result::ok(batch_of(std::move(trained.value()), std::move(given.text), nullptr));
    }
    const auto vocabulary = gpt2_vocabulary();
    IdBatch batch;
    batch.values = encode_gpt2(*vocabulary.value(), given.text);
    batch.seq = batch.values.size();
    batch.source.text = std::move(given.text);
    batch.source.vocab_size = k_gpt2_vocab_size;
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
