// GPT-2's pre-tokeniser: the text cut into the pieces that BPE then encodes one by one, exactly as
// tiktoken's "gpt2" pattern cuts it:
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// Written as a scanner rather than a regex because no Debian regex engine of C++ has \p{L}, and a
// scanner makes the alternation order (the first alternative that matches wins) explicit.
// Letters, numbers and white space are Unicode's classes as utf8proc (Debian's libutf8proc) knows
// them, so a new Unicode version is a package update, not an edit here.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace embdemo {

enum class CharClass { letter, number, space, other };

// \p{L} (Lu Ll Lt Lm Lo), \p{N} (Nd Nl No), \s (Unicode's White_Space property), or neither.
CharClass classify(std::uint32_t code_point);

// The pieces of `text`, in order, covering every byte. `text` must be valid UTF-8.
std::vector<std::string_view> gpt2_pieces(std::string_view text);

}  // namespace embdemo
