// bcast_path.hpp - where a broadcast file lands on a node: the destination itself, or, for a
// destination that names a directory (ends in '/'), the file slurm_bcast_<job>.<step>_<node> in
// it, as srun --bcast names its copies (one per node, so nodes sharing a file system do not write
// over each other).
#pragma once

#include <cstdint>
#include <string>

namespace drover {

inline std::string bcast_path(const std::string &dest, uint32_t job_id, uint32_t step_id,
                              const std::string &node) {
    if (dest.empty() || dest.back() != '/') return dest;
    return dest + "slurm_bcast_" + std::to_string(job_id) + "." + std::to_string(step_id) + "_" +
           node;
}

} // namespace drover
