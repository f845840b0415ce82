#include "render/tokens_text.hpp"

#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/escape.hpp"
#include "core/gpt2_tokenizer.hpp"
#include "core/limits.hpp"
#include "render/json_text.hpp"
#include "render/table.hpp"

namespace embdemo {

namespace {

constexpr std::size_t k_listed_pieces = 16;  // a long text lists its first pieces and its last
constexpr std::size_t k_listed_merges = 16;  // and a long piece its first merges and its last

// A token between quotes, cut to about `max_columns`: GPT-2 has tokens of 128 bytes, and a run
// of 32 '=' is one token, so a full label can pass 80 columns on its own.
std::string quoted(const Gpt2Vocabulary& vocab, std::uint64_t id, std::size_t max_columns) {
    return quoted_text(vocab.bytes(id), max_columns);
}

std::vector<std::string> id_items(const Gpt2Vocabulary& vocab, IdRange ids) {
    std::vector<std::string> items;
    for (const std::uint64_t id : ids) items.push_back(fmt::format("{} {}", id, quoted(vocab, id, 24)));
    return items;
}

std::string pieces_section(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    const auto& pieces = lesson.pieces;
    std::string out = fmt::format("1. GPT-2's pattern cuts the text into {} pieces; a space stays with the word\n"
                                  "   after it, and each piece becomes one or more token ids\n",
                                  group_thousands(pieces.size()));
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
                                             "its {} bytes, then join the pair whose joined bytes are the "
                                             "lowest-ranked token, again and again ({} merges)",
                                             lesson.followed, label, bytes.size(), lesson.merges.size()),
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
                    "white space) finds {} words in this text, {} of them distinct; GPT-2 spells the text in {} "
                    "tokens, {} distinct, from a fixed table that no text can outgrow: an unseen word is "
                    "spelled in smaller pieces, down to single bytes, instead of needing a row of its own.",
                    group_thousands(lesson.words), group_thousands(lesson.distinct_words),
                    group_thousands(lesson.ids.size()), group_thousands(lesson.distinct_tokens)),
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
    const std::string note = group_thousands(text.size()) + " bytes";
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

std::string render_tokens_json(const TokensLesson& lesson, const Gpt2Vocabulary& vocab) {
    const auto label = [&](std::uint64_t id) { return json_string(token_label(vocab.bytes(id))); };
    // Written straight into `out`: a 16 MiB text makes hundreds of megabytes of JSON, which a
    // string per piece, joined, held twice over.
    std::string out = "{\n";
    // About 20 bytes of JSON per byte of English text: reserved at once, since each time a string
    // grows it holds its old and its new buffer. Pages never written cost no memory.
    out.reserve(24 * lesson.request.text.size() + 65536);
    const auto sink = std::back_inserter(out);
    fmt::format_to(sink, "  \"schema\": \"{}\",\n", k_tokens_json_schema);
    fmt::format_to(sink, "  \"text\": {},\n", json_string(lesson.request.text));
    out += "  \"pieces\": [\n";
    for (std::size_t i = 0; i < lesson.pieces.size(); ++i) {
        const TokenPiece& piece = lesson.pieces[i];
        const IdRange ids = lesson.ids_of(piece);
        fmt::format_to(sink, "    {{\"text\": {}, \"ids\": [{}], \"tokens\": [", json_string(token_label(lesson.bytes_of(piece))),
               fmt::join(ids, ", "));
        for (const std::uint64_t& id : ids) fmt::format_to(sink, "{}{}", &id == ids.begin() ? "" : ", ", label(id));
        fmt::format_to(sink, "], \"special\": {}}}{}\n", piece.special, i + 1 < lesson.pieces.size() ? "," : "");
    }
    out += "  ],\n";
    std::vector<std::string> merges;
    for (const BpeMerge& m : lesson.merges) {
        merges.push_back(fmt::format("{{\"left\": {}, \"right\": {}, \"merged\": {}, \"rank\": {}}}", m.left, m.right,
                                     m.merged, m.merged - 256));
    }
    fmt::format_to(sink, "  \"followed_piece\": {},\n", lesson.followed);
    fmt::format_to(sink, "  \"merges\": [{}],\n", fmt::join(merges, ", "));
    fmt::format_to(sink, "  \"ids\": [{}],\n", fmt::join(lesson.ids, ", "));
    out += "  \"tokens\": [";
    for (std::size_t i = 0; i < lesson.ids.size(); ++i) fmt::format_to(sink, "{}{}", i == 0 ? "" : ", ", label(lesson.ids[i]));
    out += "],\n";
    out += fmt::format("  \"distinct_tokens\": {},\n", lesson.distinct_tokens);
    out += fmt::format("  \"words\": {},\n", lesson.words);
    out += fmt::format("  \"distinct_words\": {},\n", lesson.distinct_words);
    out += fmt::format("  \"dim\": {},\n", lesson.request.dim);
    out += fmt::format("  \"word_table_rows\": {},\n", k_glove_6b_words);
    out += fmt::format("  \"gpt2_table_rows\": {}\n", k_gpt2_vocab_size);
    out += "}\n";
    return out;
}

}  // namespace embdemo
