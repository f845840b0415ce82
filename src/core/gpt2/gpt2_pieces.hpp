// GPT-2's pre-tokeniser: the text cut into the pieces that BPE then encodes one by one, exactly as
// tiktoken's "gpt2" pattern cuts it:
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// Written as a scanner rather than a regex. std::regex has no \p{L}; Debian 12's PCRE2
// (libpcre2-dev) has \p{L}, \p{N} and the lookahead, so a regex was possible. The scanner is kept
// because it makes the alternation order (the first alternative that matches wins) explicit, runs
// in one pass with no backtracking and no match limit to hit on a megabyte-long piece
// (tools/tokenizer_worst_cases.sh), and needs no library beyond the utf8proc that already gives
// the classes, so the pieces' Unicode version is utf8proc's alone.
// Letters, numbers and white space are Unicode's classes as utf8proc (Debian's libutf8proc) knows
// them, so a new Unicode version is a package update, not an edit here.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace embdemo {

enum class CharClass { letter, number, space, other };

// \p{L} (Lu Ll Lt Lm Lo), \p{N} (Nd Nl No), \s (Unicode's White_Space property), or neither.
CharClass classify(std::uint32_t code_point);

// The pieces of `text`, in order, covering every byte. `text` must be valid UTF-8.
std::vector<std::string_view> gpt2_pieces(std::string_view text);

// The same pieces, each to `take` as it is cut, with nothing held per piece or character.
void for_each_gpt2_raw_piece(std::string_view text, const std::function<void(std::string_view)>& take);

}  // namespace embdemo
