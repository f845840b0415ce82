#include "render/views/tokens/text.hpp"

#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/escape.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/kit/table.hpp"
#include "render/views/tokens/report.hpp"

namespace embdemo {

namespace {

constexpr std::size_t k_listed_pieces = 16;  // a long text lists its first pieces and its last
constexpr std::size_t k_listed_merges = 16;  // and a long piece its first merges and its last
constexpr std::size_t k_listed_ids = 12;     // and its first ids and its last

// A token between quotes, cut to about `max_columns`: GPT-2 has tokens of 128 bytes, and a run
// of 32 '=' is one token, so a full label can pass 80 columns on its own.
std::string quoted(const Gpt2Vocabulary& vocab, std::uint64_t id, std::size_t max_columns) {
    return quoted_text(vocab.bytes(id), max_columns);
}

// A piece's ids, each with its token: a long piece its first ones and its last two.
std::vector<std::string> id_items(const Gpt2Vocabulary& vocab, IdRange ids) {
    std::vector<std::string> items;
    const std::size_t count = ids.size();
    for (std::size_t k = 0; k < count; ++k) {
        if (count > k_listed_ids + 2 && k == k_listed_ids - 2) {
            // A megabyte of one character that no merge joins is a piece of a million ids.
            items.push_back(fmt::format("... {} more tokens ...", group_thousands(count - k_listed_ids)));
            k = count - 2;
        }
        const std::uint64_t id = ids.begin()[k];
        items.push_back(fmt::format("{} {}", id, quoted(vocab, id, 24)));
    }
    return items;
}

std::string pieces_section(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    const auto& pieces = lesson.pieces;
    const std::string count = count_of(pieces.size(), "piece", "pieces");
    std::string out = fmt::format("1. GPT-2's pattern cuts the text into {}; a space stays with the word\n"
                                  "   after it, and each piece becomes one or more token ids\n", count);
    if (out.find('\n') > k_max_line_width) {  // 100,000 pieces and more
        out = wrap_words(fmt::format("1. GPT-2's pattern cuts the text into {}; a space stays with the word after "
                                     "it, and each piece becomes one or more token ids", count),
                         "", "   ");
    }
    std::size_t width = 0;
    for (std::size_t i = 0; i < pieces.size() && i < k_listed_pieces; ++i) {
        width = std::max(width, display_width(token_label(lesson.bytes_of(pieces[i]))) + 2);
    }
    width = std::min<std::size_t>(width, 24);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces.size() > k_listed_pieces + 4 && i == k_listed_pieces - 3) {
            out += fmt::format("   ... {} more pieces ...\n", group_thousands(pieces.size() - k_listed_pieces));
            i = pieces.size() - 3;
        }
        const std::string label = quoted_text(lesson.bytes_of(pieces[i]), 22);
        const std::string padding(width > display_width(label) ? width - display_width(label) : 0, ' ');
        const std::string lead = fmt::format("{}{:>5}  {}{} -> ", i == lesson.followed ? " >" : "  ", i, label, padding);
        std::vector<std::string> items = id_items(vocab, lesson.ids_of(pieces[i]));
        if (pieces[i].special) items.back() += "  (special)";
        out += fit_items(items, lead, std::string(display_width(lead), ' '), " + ");
    }
    return out;
}

std::string merges_section(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    const TokenPiece& piece = lesson.pieces[lesson.followed];
    const std::string_view bytes = lesson.bytes_of(piece);
    const std::string label = quoted_text(bytes, 40);
    if (piece.special) {
        return fmt::format("2. Piece {} {} is the special token: never split or merged, id {}\n", lesson.followed,
                           label, k_gpt2_end_of_text);
    }
    std::string out = wrap_words(fmt::format("2. BPE on piece {} {} (marked >; --piece K picks another): start from "
                                             "its {}, then join the pair whose joined bytes are the "
                                             "lowest-ranked token, again and again ({})",
                                             lesson.followed, label, count_of(bytes.size(), "byte", "bytes"),
                                             count_of(lesson.merges.size(), "merge", "merges")),
                                 "", "   ");
    const std::size_t count = lesson.merges.size();
    for (std::size_t k = 0; k < count; ++k) {
        if (count > k_listed_merges + 4 && k == k_listed_merges - 3) {
            // A megabyte without a space is a million merges: the first ones, and the last three.
            out += fmt::format("   ... {} more merges ...\n", group_thousands(count - k_listed_merges));
            k = count - 3;
        }
        const BpeMerge& m = lesson.merges[k];
        // Three labels of up to 16 columns fit a line; the rank goes below when it would not.
        const std::vector<std::string> items{
            fmt::format("{} + {} -> {}", quoted(vocab, m.left, 16), quoted(vocab, m.right, 16), quoted(vocab, m.merged, 16)),
            fmt::format("(rank {}, id {})", group_thousands(m.merged - 256), m.merged)};
        out += fit_items(items, fmt::format("   {:>3}. ", k + 1), "        ", "  ");
    }
    const char* which = piece.id_count == 1 ? "result: 1 token: " : "result: no more pair is a token, ";
    return out + fit_items(id_items(vocab, lesson.ids_of(piece)), "   " + std::string(which), "           ", " + ");
}

std::string ids_section(const TokensLesson& lesson) {
    const auto& ids = lesson.ids;
    std::string list;
    if (ids.size() <= 24) {
        list = fmt::format("[{}]", fmt::join(ids, ", "));
    } else {
        list = fmt::format("[{}, ... {} more ..., {}]", fmt::join(ids.begin(), ids.begin() + 20, ", "),
                           group_thousands(ids.size() - 23), fmt::join(ids.end() - 3, ids.end(), ", "));
    }
    return wrap_words(fmt::format("3. The ids, the rows of the 50,257-row table this text looks up: {} (n = {})", list,
                                  group_thousands(ids.size())),
                      "", "   ");
}

std::string words_section(const TokensLesson& lesson) {
    const std::uint64_t d = lesson.request.dim;
    const std::uint64_t gpt2 = k_gpt2_vocab_size * d;
    const std::uint64_t glove = k_glove_6b_words * d;
    std::string out = wrap_words(
        fmt::format("4. Words against tokens: the book's word split (chapter 2, re.split on punctuation and "
                    "white space) finds {} in this text, {} of them distinct; GPT-2 spells the text in {}, "
                    "{} distinct, from a fixed table that no text can outgrow: an unseen word is "
                    "spelled in smaller pieces, down to single bytes, instead of needing a row of its own.",
                    count_of(lesson.words, "word", "words"), group_thousands(lesson.distinct_words),
                    count_of(lesson.ids.size(), "token", "tokens"), group_thousands(lesson.distinct_tokens)),
        "", "   ");
    out += wrap_words(
        fmt::format("   A word-level table needs a row for every word it will ever meet: GloVe's 6B vectors "
                    "(Pennington et al., 2014, Wikipedia + Gigaword) have {} words. At d = {} that is {} "
                    "parameters ({}), next to GPT-2's {} rows: {} parameters ({}), {:.1f}x fewer.",
                    group_thousands(k_glove_6b_words), group_thousands(d), group_thousands(glove),
                    describe_float32_bytes(glove), group_thousands(k_gpt2_vocab_size), group_thousands(gpt2),
                    describe_float32_bytes(gpt2), static_cast<double>(k_glove_6b_words) / k_gpt2_vocab_size),
        "", "   ");
    return out;
}

}  // namespace

std::string render_tokens_text(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    const std::string& text = lesson.request.text;
    std::string out = "GPT-2's tokenizer: text -> pieces -> BPE merges -> ids (tiktoken's \"gpt2\")\n";
    // The quoted text shares the row with its byte count: 80 columns less "  text   ", the
    // quotes and "...", and "  (16,777,216 bytes)" at the most.
    const std::string note = count_of(text.size(), "byte", "bytes");
    const std::size_t room = k_max_line_width - 9 - 5 - (note.size() + 4);
    out += fmt::format("  text   {}  ({})\n", quoted_text(text, room), note);
    out += fmt::format("  vocab  {} tokens: 256 single bytes, {} merges, <|endoftext|>\n\n",
                       group_thousands(vocab.size()), group_thousands(vocab.size() - 257));
    out += pieces_section(lesson, vocab) + '\n';
    out += merges_section(lesson, vocab) + '\n';
    out += ids_section(lesson) + '\n';
    out += words_section(lesson);
    return out;
}

ParseResult<std::string> render_tokens_json(const TokensLesson& lesson, const Gpt2Vocabulary& vocab,
                                            std::uint64_t max_bytes) {
    const auto report = tokens_report(lesson, vocab, max_bytes);
    if (!report) return ParseResult<std::string>::fail(report.error());
    return ParseResult<std::string>::ok(render_lesson_json(report.value(), {}));
}

}  // namespace embdemo
