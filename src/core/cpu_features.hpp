// What this CPU and its OS can run, asked with cpuid the first time a kernel needs to know.
// Not libgcc's __builtin_cpu_supports or target_clones: either links libgcc's feature detection,
// a constructor that runs at every start and issues a few dozen cpuid instructions, each a trap
// to the hypervisor on a virtual machine (docs/performance.md, "Start-up").
#pragma once

namespace embdemo {

// Each also asks the OS (XGETBV) whether it saves the YMM registers, as libgcc's answer does.
bool cpu_has_avx();
bool cpu_has_avx2();
bool cpu_has_fma();

}  // namespace embdemo
