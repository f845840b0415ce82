// A golden case's recorded stdout (tests/golden/cases/NAME.stdout), for unit tests that hold a
// renderer to the bytes the real binary printed.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

namespace embdemo::testing {

inline std::string golden_stdout(const std::string& name) {
    std::ifstream in(EMBDEMO_TEST_DATA_DIR "/../golden/cases/" + name + ".stdout", std::ios::binary);
    REQUIRE_MESSAGE(in, "no golden case " << name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace embdemo::testing
