#include "core/lessons/tokens_lesson.hpp"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/escape.hpp"
#include "core/gpt2/gpt2_pieces.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"

namespace embdemo {

namespace {

// The lesson's pieces and ids, cut from lesson.request.text into lists reserved to `counts`.
void cut(const Gpt2Vocabulary& vocab, const TokenCounts& counts, TokensLesson& lesson) {
    const std::string_view text = lesson.request.text;
    lesson.ids.reserve(counts.ids);
    lesson.pieces.reserve(counts.pieces);
    for_each_gpt2_piece(vocab, text, [&](TextPiece&& piece) {
        lesson.pieces.push_back({static_cast<std::uint32_t>(piece.text.data() - text.data()),
                                 static_cast<std::uint32_t>(piece.text.size()), static_cast<std::uint32_t>(lesson.ids.size()),
                                 static_cast<std::uint32_t>(piece.ids.size()), piece.special});
        lesson.ids.insert(lesson.ids.end(), piece.ids.begin(), piece.ids.end());
    });
}

// How many merges BPE makes on a piece. Each merge joins two parts into one, so a piece that
// ended as several ids took bytes - ids merges: only a piece that is one token (at most GPT-2's
// longest, 128 bytes) runs BPE again. A megabyte-long piece is not merged a second time here.
std::size_t merge_count(const Gpt2Vocabulary& vocab, std::string_view bytes, std::size_t id_count) {
    if (id_count > 1) return bytes.size() - id_count;
    std::vector<BpeMerge> merges;
    vocab.encode_piece(bytes, &merges);
    return merges.size();
}

// The piece with the most merges (the first of equals): the most to show.
std::size_t busiest_piece(const Gpt2Vocabulary& vocab, const TokensLesson& lesson) {
    const std::vector<TokenPiece>& pieces = lesson.pieces;
    std::size_t best = 0;
    std::size_t most = 0;
    // A text repeats its words: each distinct piece is counted once (a 16 MiB text has millions
    // of pieces and tens of thousands of distinct ones).
    std::unordered_map<std::string_view, std::size_t> counted;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].special) continue;
        const std::string_view bytes = lesson.bytes_of(pieces[i]);
        const auto [at, is_new] = counted.try_emplace(bytes, 0);
        if (is_new) at->second = merge_count(vocab, bytes, pieces[i].id_count);
        const std::size_t merges = at->second;
        if (merges > most) {
            most = merges;
            best = i;
        }
    }
    return best;
}

}  // namespace

namespace {

// Python's white space, which re's \s (for a str pattern) and str.strip() both use: the code
// points str.isspace() is true for (bidirectional class WS, B or S, or category Zs). It is
// Unicode's White_Space and also U+001C..U+001F, the information separators (class B and S),
// which GPT-2's \s (White_Space) does not count.
bool python_isspace(std::uint32_t cp) {
    if ((cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x20) || cp == 0x85 || cp == 0xa0) return true;
    if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029) return true;
    return cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

// The book's chapter-2 split, re.split(r'([,.:;?_!"()\']|--|\s)', text) without the empty items
// and white space: each item, a piece of `text`, to `take`.
template <typename Take>
void for_each_book_word(std::string_view text, Take&& take) {
    std::size_t word_start = 0;  // the word so far is text[word_start, at)
    const auto flush = [&](std::size_t end) {
        if (end > word_start) take(text.substr(word_start, end - word_start));
    };
    for (std::size_t at = 0; at < text.size();) {
        const auto next = decode_utf8(text, at);
        const std::size_t length = next ? next->length : 1;
        const char ch = text[at];
        std::size_t item = 0;  // a punctuation item's bytes; the word ends here if set or white space
        if (length == 1 && std::string_view(",.:;?_!\"()'").find(ch) != std::string_view::npos) {
            item = 1;
        } else if (ch == '-' && at + 1 < text.size() && text[at + 1] == '-') {
            item = 2;
        } else if (!next || !python_isspace(next->code_point)) {
            at += length;  // part of the word
            continue;
        }
        flush(at);
        if (item > 0) take(text.substr(at, item));
        at += item > 0 ? item : length;
        word_start = at;
    }
    flush(text.size());
}

}  // namespace

std::vector<std::string> book_word_split(const std::string& text) {
    std::vector<std::string> items;
    for_each_book_word(text, [&](std::string_view item) { items.emplace_back(item); });
    return items;
}

TokenCounts count_tokens(const Gpt2Vocabulary& vocab, std::string_view text) {
    TokenCounts counts;
    for_each_gpt2_piece(vocab, text, [&](TextPiece&& piece) {
        ++counts.pieces;
        counts.ids += piece.ids.size();
    });
    return counts;
}

TokensLesson run_tokens_lesson(const Gpt2Vocabulary& vocab, const TokensRequest& request, const TokenCounts* counts) {
    TokensLesson lesson;
    lesson.request = request;
    cut(vocab, counts ? *counts : count_tokens(vocab, lesson.request.text), lesson);
    lesson.followed = request.piece ? *request.piece : busiest_piece(vocab, lesson);
    const TokenPiece& followed = lesson.pieces[lesson.followed];
    if (!followed.special) vocab.encode_piece(lesson.bytes_of(followed), &lesson.merges);
    std::vector<bool> used(vocab.size());
    for (const std::uint64_t id : lesson.ids) {
        if (id >= used.size()) used.resize(id + 1);
        lesson.distinct_tokens += used[id] ? 0 : 1;
        used[id] = true;
    }
    std::unordered_set<std::string_view> distinct_words;
    for_each_book_word(lesson.request.text, [&](std::string_view word) {
        ++lesson.words;
        distinct_words.insert(word);
    });
    lesson.distinct_words = distinct_words.size();
    return lesson;
}

}  // namespace embdemo
