// What this CPU and its OS can run, asked the first time a kernel needs to know: from what glibc's
// loader already found at start (<sys/platform/x86.h>, glibc 2.33 and later), else with cpuid.
// Not libgcc's __builtin_cpu_supports or target_clones: either links libgcc's feature detection,
// a constructor that runs at every start and issues a few dozen cpuid instructions, each a trap
// to the hypervisor on a virtual machine, about 20 us here (docs/performance.md, "Start-up").
#pragma once

namespace embdemo {

// Each also asks whether the OS saves the YMM registers (XGETBV), as libgcc's answer does.
bool cpu_has_avx();
bool cpu_has_avx2();
bool cpu_has_fma();
// AVX-512 as OpenBLAS's SkylakeX kernels use it: F, BW, DQ and VL, with the OS saving the
// ZMM and mask registers.
bool cpu_has_avx512();
// AMD's FMA4 (the four-operand vfmaddss of OpenBLAS's Bulldozer kernels) and 3DNow! (the
// femms of its Opteron kernels): neither is on any Intel CPU nor on AMD's since Zen.
bool cpu_has_fma4();
bool cpu_has_3dnow();

}  // namespace embdemo
