#include "core/tokenizers/wordpiece.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "core/escape.hpp"

namespace embdemo {

namespace {

using CodePoints = std::u32string;

utf8proc_category_t category(char32_t cp) { return utf8proc_category(static_cast<utf8proc_int32_t>(cp)); }

bool is_control(char32_t cp) {
    if (cp == '\t' || cp == '\n' || cp == '\r') return false;  // white space to BERT
    const utf8proc_category_t c = category(cp);
    return c == UTF8PROC_CATEGORY_CC || c == UTF8PROC_CATEGORY_CF;
}

bool is_bert_whitespace(char32_t cp) {
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || category(cp) == UTF8PROC_CATEGORY_ZS;
}

// Python's str.split() splits on its white space; of it, only U+2028 and U+2029 (categories Zl
// and Zp) are left once the text is cleaned: the rest is a space by then, or a control removed.
bool splits_words(char32_t cp) { return cp == ' ' || cp == 0x2028 || cp == 0x2029; }

// BERT counts every ASCII character that is not a letter, digit or space as punctuation ("^",
// "$" and "`" too, which Unicode calls symbols), and Unicode's P* categories.
bool is_punctuation(char32_t cp) {
    if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126)) {
        return true;
    }
    switch (category(cp)) {
        case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
        case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF: case UTF8PROC_CATEGORY_PO: return true;
        default: return false;
    }
}

// The CJK Unified Ideographs blocks BERT spaces out (not Hangul, Hiragana or Katakana, which are
// written with spaces between words).
bool is_cjk_ideograph(char32_t cp) {
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF) ||
           (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

// Python's cased and case-ignorable characters, as str.lower() reads them around a capital sigma.
bool is_cased(char32_t cp) {
    const utf8proc_category_t c = category(cp);
    if (c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LL || c == UTF8PROC_CATEGORY_LT) return true;
    const auto code = static_cast<utf8proc_int32_t>(cp);
    return utf8proc_tolower(code) != code || utf8proc_toupper(code) != code;
}

bool is_case_ignorable(char32_t cp) {
    switch (cp) {
        case '\'': case '.': case ':': case 0xB7: case 0x387: case 0x5F4: case 0x2018: case 0x2019:
        case 0x2024: case 0x2027: case 0xFE13: case 0xFE52: case 0xFE55: case 0xFF07: case 0xFF0E: case 0xFF1A:
            return true;
        default: break;
    }
    const utf8proc_category_t c = category(cp);
    return c == UTF8PROC_CATEGORY_MN || c == UTF8PROC_CATEGORY_ME || c == UTF8PROC_CATEGORY_CF ||
           c == UTF8PROC_CATEGORY_LM || c == UTF8PROC_CATEGORY_SK;
}

// str.lower(): each character's lower case, with Σ as final ς when a cased letter comes before it
// and none after it (case-ignorable characters skipped), as Python's Final_Sigma rule says.
// İ lowers to i + U+0307 in Python and to i here: the accent is stripped next either way.
CodePoints python_lower(const CodePoints& word) {
    CodePoints lower(word.size(), 0);
    for (std::size_t i = 0; i < word.size(); ++i) {
        if (word[i] != 0x3A3) {
            lower[i] = static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(word[i])));
            continue;
        }
        std::size_t before = i;
        while (before > 0 && is_case_ignorable(word[before - 1])) --before;
        std::size_t after = i + 1;
        while (after < word.size() && is_case_ignorable(word[after])) ++after;
        const bool final = before > 0 && is_cased(word[before - 1]) && !(after < word.size() && is_cased(word[after]));
        lower[i] = final ? 0x3C2 : 0x3C3;
    }
    return lower;
}

std::string to_utf8(const CodePoints& text) {
    std::string out;
    utf8proc_uint8_t buffer[4];
    for (const char32_t cp : text) {
        const auto length = utf8proc_encode_char(static_cast<utf8proc_int32_t>(cp), buffer);
        out.append(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(length));
    }
    return out;
}

CodePoints code_points(std::string_view text) {
    CodePoints out;
    for (std::size_t at = 0; at < text.size();) {
        const auto next = decode_utf8(text, at);
        if (!next) {  // the caller passes UTF-8; a stray byte is skipped, as decode("utf-8", "ignore")
            ++at;
            continue;
        }
        out.push_back(next->code_point);
        at += next->length;
    }
    return out;
}

// NFD (canonical decomposition and ordering), then without the nonspacing marks (Mn).
CodePoints strip_accents(const CodePoints& word) {
    const std::string utf8 = to_utf8(word);
    utf8proc_uint8_t* decomposed = nullptr;
    const auto length = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(utf8.data()),
                                     static_cast<utf8proc_ssize_t>(utf8.size()), &decomposed,
                                     static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_DECOMPOSE));
    const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(decomposed, &std::free);
    if (length < 0) return word;
    CodePoints out;
    for (const char32_t cp : code_points(std::string_view(reinterpret_cast<const char*>(decomposed),
                                                          static_cast<std::size_t>(length)))) {
        if (category(cp) != UTF8PROC_CATEGORY_MN) out.push_back(cp);
    }
    return out;
}

// The basic tokenizer, word by word to `take` (each word a run of code points).
template <typename Take>
void for_each_basic_word(std::string_view text, Take&& take) {
    // Clean (drop NUL, U+FFFD and controls; white space becomes a space) and space out ideographs.
    CodePoints cleaned;
    for (const char32_t cp : code_points(text)) {
        if (cp == 0 || cp == 0xFFFD || is_control(cp)) continue;
        if (is_bert_whitespace(cp)) {
            cleaned.push_back(' ');
        } else if (is_cjk_ideograph(cp)) {
            cleaned += {U' ', cp, U' '};
        } else {
            cleaned.push_back(cp);
        }
    }
    std::size_t start = 0;
    while (start < cleaned.size()) {
        if (splits_words(cleaned[start])) {
            ++start;
            continue;
        }
        std::size_t end = start;
        while (end < cleaned.size() && !splits_words(cleaned[end])) ++end;
        CodePoints word = cleaned.substr(start, end - start);
        if (std::all_of(word.begin(), word.end(), [](char32_t cp) { return cp < 0x80; })) {
            // ASCII: lower case is A-Z to a-z, and nothing decomposes (most of an English text).
            for (char32_t& cp : word) cp = (cp >= 'A' && cp <= 'Z') ? cp + ('a' - 'A') : cp;
        } else {
            word = strip_accents(python_lower(word));
        }
        // Punctuation marks are words of their own; the runs between them are words.
        CodePoints run;
        for (const char32_t cp : word) {
            if (!is_punctuation(cp)) {
                run.push_back(cp);
                continue;
            }
            if (!run.empty()) take(run);
            run.clear();
            take(CodePoints(1, cp));
        }
        if (!run.empty()) take(run);
        start = end;
    }
}

}  // namespace

ParseResult<WordPieceVocabulary> WordPieceVocabulary::parse(std::string_view text) {
    using Result = ParseResult<WordPieceVocabulary>;
    WordPieceVocabulary vocab;
    std::size_t line_start = 0;
    while (line_start < text.size()) {
        std::size_t line_end = text.find('\n', line_start);
        if (line_end == std::string_view::npos) line_end = text.size();
        std::string_view token = text.substr(line_start, line_end - line_start);
        if (!token.empty() && token.back() == '\r') token.remove_suffix(1);
        const std::uint64_t id = vocab.m_tokens.size();
        if (token.empty()) return Result::fail("line " + std::to_string(id + 1) + " is empty (allowed: one token a line)");
        if (!vocab.m_ids.emplace(std::string(token), id).second) {
            return Result::fail("line " + std::to_string(id + 1) + " repeats " + quote_for_message(token));
        }
        vocab.m_tokens.emplace_back(token);
        line_start = line_end + 1;
    }
    const std::uint64_t* unknown = vocab.find("[UNK]");
    if (!unknown) return Result::fail("it has no [UNK] token");
    vocab.m_unknown = *unknown;
    return Result::ok(std::move(vocab));
}

const std::uint64_t* WordPieceVocabulary::find(const std::string& token) const {
    const auto found = m_ids.find(token);
    return found == m_ids.end() ? nullptr : &found->second;
}

std::vector<std::string> bert_basic_words(std::string_view text) {
    std::vector<std::string> words;
    for_each_basic_word(text, [&](const CodePoints& word) { words.push_back(to_utf8(word)); });
    return words;
}

Tokenized wordpiece_tokenize(const WordPieceVocabulary& vocab, std::string_view text, std::vector<std::size_t>* word_of) {
    Tokenized out;
    out.kind = TokenizerKind::wordpiece;
    out.vocab_size = vocab.size();
    out.unknown_id = vocab.unknown_id();
    out.has_unknown = true;
    std::size_t word_index = 0;
    const auto add = [&](const std::string& piece, std::uint64_t id) {
        out.pieces.push_back(piece);
        out.ids.push_back(id);
        if (word_of) word_of->push_back(word_index);
    };
    for_each_basic_word(text, [&](const CodePoints& word) {
        const std::size_t first_piece = out.ids.size();
        bool spelled = word.size() <= k_wordpiece_max_word_chars;
        // The word's UTF-8 once, and where each character starts in it.
        std::string utf8;
        std::vector<std::size_t> starts;
        if (spelled) {
            for (const char32_t cp : word) {
                starts.push_back(utf8.size());
                utf8 += to_utf8(CodePoints(1, cp));
            }
            starts.push_back(utf8.size());
        }
        // Greedy longest match first: the longest vocabulary entry that starts the rest of the word.
        for (std::size_t start = 0; spelled && start < word.size();) {
            std::size_t end = word.size();
            const std::uint64_t* id = nullptr;
            std::string piece;
            for (; end > start; --end) {
                piece.assign(start > 0 ? "##" : "");
                piece.append(utf8, starts[start], starts[end] - starts[start]);
                if ((id = vocab.find(piece))) break;
            }
            if (!id) {
                spelled = false;
                break;
            }
            add(piece, *id);
            start = end;
        }
        if (!spelled) {
            out.pieces.resize(first_piece);
            out.ids.resize(first_piece);
            if (word_of) word_of->resize(first_piece);
            add(vocab.token(vocab.unknown_id()), vocab.unknown_id());
        }
        ++word_index;
    });
    count_tokenized(out);
    return out;
}

}  // namespace embdemo
