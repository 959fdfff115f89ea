// exit_status.hpp - comparing raw wait statuses (exit code << 8 | signal) as Slurm's
// DerivedExitCode does: the higher exit code, then the higher signal.
#pragma once

#include <cstdint>
#include <utility>

namespace drover {

// The higher of two wait statuses by (exit code, signal).
inline int32_t higher_exit_status(int32_t a, int32_t b) {
    auto rank = [](int32_t s) { return std::pair((s >> 8) & 0xff, s & 0x7f); };
    return rank(b) > rank(a) ? b : a;
}

} // namespace drover
