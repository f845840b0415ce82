#include "core/cpu_features.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#if __has_include(<sys/platform/x86.h>)
// The header is C: its inline functions return _Bool, which g++ takes as an extension and clang++
// (the fuzz build's compiler) does not know.
#if defined(__clang__)
#define _Bool bool
#include <sys/platform/x86.h>
#undef _Bool
#else
#include <sys/platform/x86.h>
#endif
#define EMBDEMO_GLIBC_CPU_FEATURES 1
#endif
#endif

namespace embdemo {
namespace {

struct Features {
    bool avx = false;
    bool avx2 = false;
    bool fma = false;
    bool avx512 = false;
    bool fma4 = false;
};

Features detect() {
    Features features;
#if defined(EMBDEMO_GLIBC_CPU_FEATURES)
    // "Active": the CPU has it and the OS saves its registers; read from glibc's own table, which
    // its loader filled at start, so no cpuid runs here.
    features.avx = CPU_FEATURE_ACTIVE(AVX);
    features.avx2 = features.avx && CPU_FEATURE_ACTIVE(AVX2);
    features.fma = features.avx && CPU_FEATURE_ACTIVE(FMA);
    features.avx512 = CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(AVX512BW) && CPU_FEATURE_ACTIVE(AVX512DQ) &&
                      CPU_FEATURE_ACTIVE(AVX512VL);
    features.fma4 = features.avx && CPU_FEATURE_ACTIVE(FMA4);
#elif defined(__x86_64__) && defined(__GNUC__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & bit_OSXSAVE)) return features;
    unsigned xcr0_low = 0, xcr0_high = 0;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    const bool os_saves_ymm = (xcr0_low & 0x6) == 0x6;  // XMM and YMM state
    if (!os_saves_ymm) return features;
    features.avx = (ecx & bit_AVX) != 0;
    features.fma = features.avx && (ecx & bit_FMA) != 0;
    unsigned max_leaf = __get_cpuid_max(0, nullptr);
    if (max_leaf >= 7) {
        __cpuid_count(7, 0, eax, ebx, ecx, edx);
        features.avx2 = features.avx && (ebx & bit_AVX2) != 0;
        const bool os_saves_zmm = (xcr0_low & 0xe6) == 0xe6;  // and opmask, ZMM0-15 upper, ZMM16-31
        const unsigned avx512 = bit_AVX512F | bit_AVX512BW | bit_AVX512DQ | bit_AVX512VL;
        features.avx512 = os_saves_zmm && (ebx & avx512) == avx512;
    }
    if (__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx)) features.fma4 = features.avx && (ecx & bit_FMA4) != 0;
#endif
    return features;
}

const Features& features() {
    static const Features detected = detect();
    return detected;
}

}  // namespace

bool cpu_has_avx() { return features().avx; }
bool cpu_has_avx2() { return features().avx2; }
bool cpu_has_fma() { return features().fma; }
bool cpu_has_avx512() { return features().avx512; }
bool cpu_has_fma4() { return features().fma4; }
bool cpu_has_3dnow() {
    // glibc's table has no 3DNow!: one cpuid, asked only when an OPENBLAS_CORETYPE needs it.
    static const bool has = [] {
#if defined(__x86_64__) && defined(__GNUC__)
        unsigned a = 0, b = 0, c = 0, d = 0;
        return __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & bit_3DNOW) != 0;
#else
        return false;
#endif
    }();
    return has;
}

}  // namespace embdemo
