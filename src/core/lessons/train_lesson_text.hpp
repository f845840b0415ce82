// The units `embdemo train` learns a table for, cut from a text: GPT-2 tokens (the tokenizer's
// ids), white-space words, or characters (UTF-8 code points), and the table's rows: the distinct
// units sorted by count, most frequent first (ties by first appearance), as word2vec sorts its
// vocabulary. Pure: no printing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embdemo {

enum class TextLevel { gpt2, word, character };

struct TextUnits {
    std::vector<std::string> units;
    std::vector<std::size_t> line_ends;  // exclusive end of each non-empty line's units
};

// Words: runs of characters between ASCII white space. Characters: every code point, spaces and
// line breaks included (makemore's and Karpathy's bigram's alphabet).
TextUnits split_text(std::string_view text, TextLevel level);

// Ids renumbered into rows by count: rows[k] is the original id of row k, ids the renumbered
// sequence.
struct CompactIds {
    std::vector<std::uint64_t> ids;
    std::vector<std::uint64_t> rows;
};
CompactIds compact_by_count(const std::vector<std::uint64_t>& original);

// The units as ids into their distinct values, by first appearance, and those values.
struct FirstSeen {
    std::vector<std::uint64_t> ids;
    std::vector<std::string> values;
};
FirstSeen ids_by_first_appearance(const std::vector<std::string>& units);

// Where skip-gram's sentences end: the given line ends, cut further into pieces of at most
// `longest` (word2vec.c's MAX_SENTENCE_LENGTH is 1000).
std::vector<std::size_t> sentence_ends(const std::vector<std::size_t>& line_ends, std::size_t longest);

}  // namespace embdemo
