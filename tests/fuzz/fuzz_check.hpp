// What every fuzz target shares: a check that aborts (so libFuzzer and the replay runner both see
// a crash, with the property that broke), and the rule for messages: one line, printable.
// Deliberately not assert(): the property checks must hold in Release builds too.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace embdemo::fuzz {

[[noreturn]] inline void fail(const char* property) {
    std::fprintf(stderr, "fuzz property broken: %s\n", property);
    std::abort();
}

inline void check(bool holds, const char* property) {
    if (!holds) fail(property);
}

// A message for a human, as every parser returns: not empty, and no raw control byte (a bad
// value is quoted escaped, \x1b, so it cannot garble a terminal or split the error line).
inline void check_message(std::string_view message) {
    check(!message.empty(), "an error message is not empty");
    for (const char ch : message) {
        const auto byte = static_cast<unsigned char>(ch);
        check(byte >= 0x20 && byte != 0x7f, "an error message has no raw control byte");
    }
}

}  // namespace embdemo::fuzz
