// GPT-2's vocabulary from the repository's vocab.bpe, parsed once for every test that needs it.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "core/gpt2/gpt2_vocab.hpp"

namespace embdemo::testing {

inline const Gpt2Vocabulary& gpt2_vocabulary() {
    static const auto parsed = [] {
        std::ifstream in(EMBDEMO_GPT2_DATA_DIR "/vocab.bpe", std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return Gpt2Vocabulary::parse(text.str());
    }();
    REQUIRE_MESSAGE(parsed, parsed.error());
    return parsed.value();
}

}  // namespace embdemo::testing
