// embdemo's own feature answers against libgcc's, which the test may link (embdemo must not:
// core/cpu_features.hpp says why).
#include <doctest/doctest.h>

#include "core/cpu_features.hpp"

TEST_CASE("cpu_has_avx, cpu_has_avx2 and cpu_has_fma answer as libgcc's __builtin_cpu_supports") {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    CHECK(embdemo::cpu_has_avx() == (__builtin_cpu_supports("avx") != 0));
    CHECK(embdemo::cpu_has_avx2() == (__builtin_cpu_supports("avx2") != 0));
    CHECK(embdemo::cpu_has_fma() == (__builtin_cpu_supports("fma") != 0));
#else
    CHECK_FALSE(embdemo::cpu_has_avx());
#endif
}
