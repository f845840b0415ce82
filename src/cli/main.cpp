#include "cli/app.hpp"

#include <malloc.h>

int main(int argc, char* argv[]) {
    // A buffer of a megabyte or more gets pages of its own, given back whole when it is freed or
    // moves to a larger one. glibc's threshold otherwise rises to 32 MiB as big buffers are
    // freed, and the ones after that come from the heap, which keeps freed space until its top is
    // free: the peak the memory estimate counts (tests/scripts/memory_estimate.sh) would depend on
    // the order of frees.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    return embdemo::run_app(argc, argv);
}
