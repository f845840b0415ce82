#include "core/tokens_lesson.hpp"

#include <set>

#include "core/escape.hpp"
#include "core/gpt2_pieces.hpp"
#include "core/gpt2_tokenizer.hpp"

namespace embdemo {

namespace {

std::vector<TokenPiece> cut(const Gpt2Vocabulary& vocab, const std::string& text) {
    std::vector<TokenPiece> pieces;
    for (const TextPiece& piece : tokenize_gpt2(vocab, text)) pieces.push_back({std::string(piece.text), piece.ids, piece.special});
    return pieces;
}

// How many merges BPE makes on a piece. Each merge joins two parts into one, so a piece that
// ended as several ids took bytes - ids merges: only a piece that is one token (at most GPT-2's
// longest, 128 bytes) runs BPE again. A megabyte-long piece is not merged a second time here.
std::size_t merge_count(const Gpt2Vocabulary& vocab, const TokenPiece& piece) {
    if (piece.ids.size() > 1) return piece.bytes.size() - piece.ids.size();
    std::vector<BpeMerge> merges;
    vocab.encode_piece(piece.bytes, &merges);
    return merges.size();
}

// The piece with the most merges (the first of equals): the most to show.
std::size_t busiest_piece(const Gpt2Vocabulary& vocab, const std::vector<TokenPiece>& pieces) {
    std::size_t best = 0;
    std::size_t most = 0;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].special) continue;
        const std::size_t merges = merge_count(vocab, pieces[i]);
        if (merges > most) {
            most = merges;
            best = i;
        }
    }
    return best;
}

}  // namespace

std::size_t count_pieces(const Gpt2Vocabulary& vocab, const std::string& text) { return tokenize_gpt2(vocab, text).size(); }

std::vector<std::string> book_word_split(const std::string& text) {
    std::vector<std::string> items;
    std::string word;
    const auto flush = [&] {
        if (!word.empty()) items.push_back(word);
        word.clear();
    };
    for (std::size_t at = 0; at < text.size();) {
        const auto next = decode_utf8(text, at);
        const std::size_t length = next ? next->length : 1;
        const char ch = text[at];
        if (length == 1 && std::string_view(",.:;?_!\"()'").find(ch) != std::string_view::npos) {
            flush();
            items.emplace_back(1, ch);
        } else if (ch == '-' && at + 1 < text.size() && text[at + 1] == '-') {
            flush();
            items.emplace_back("--");
            at += 2;
            continue;
        } else if (next && classify(next->code_point) == CharClass::space) {
            flush();
        } else {
            word.append(text, at, length);
        }
        at += length;
    }
    flush();
    return items;
}

TokensLesson run_tokens_lesson(const Gpt2Vocabulary& vocab, const TokensRequest& request) {
    TokensLesson lesson;
    lesson.request = request;
    lesson.pieces = cut(vocab, request.text);
    lesson.followed = request.piece ? *request.piece : busiest_piece(vocab, lesson.pieces);
    if (!lesson.pieces[lesson.followed].special) vocab.encode_piece(lesson.pieces[lesson.followed].bytes, &lesson.merges);
    for (const TokenPiece& piece : lesson.pieces) lesson.ids.insert(lesson.ids.end(), piece.ids.begin(), piece.ids.end());
    lesson.distinct_tokens = std::set<std::uint64_t>(lesson.ids.begin(), lesson.ids.end()).size();
    const std::vector<std::string> words = book_word_split(request.text);
    lesson.words = words.size();
    lesson.distinct_words = std::set<std::string>(words.begin(), words.end()).size();
    return lesson;
}

}  // namespace embdemo
