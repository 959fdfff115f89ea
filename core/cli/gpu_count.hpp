// gpu_count.hpp - the value of --gpus, --gpus-per-node and --gpus-per-task (sbatch, salloc, srun).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace drover::cli {

// "N", "TYPE:N", or a list of them (counts add up).
struct GpuCount {
    uint32_t count = 0;
    std::string type; // the one type named, "" when none (or several: see mixed)
    bool mixed = false;
};

// Parses v; throws ParseError "invalid WHAT 'V'" for a bad item or a zero total.
GpuCount gpu_count(std::string_view v, const char *what);

} // namespace drover::cli
