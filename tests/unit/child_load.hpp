// child_load.hpp - work a forked test child does so that usage figures have something to show:
// resident memory and user CPU time. Shared by the sampler and proctrack/cgroup tests.
#pragma once

#include <time.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace drover::test {

// Touches every page of `bytes` of fresh memory, so all of it is resident, and keeps it.
inline void hold_memory(size_t bytes) {
    auto *p = static_cast<volatile char *>(std::malloc(bytes));
    for (size_t i = 0; p && i < bytes; i += 4096) p[i] = 1;
}

// Spins in user space until this process has used `ms` milliseconds of CPU.
inline void burn_user_cpu(long ms) {
    volatile uint64_t x = 0;
    timespec t{};
    do {
        for (int i = 0; i < 1000000; ++i) x = x * 6364136223846793005u + 1;
        ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    } while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
}

} // namespace drover::test
