// step_paths.hpp - srun's -o/-e/-i patterns for a step's tasks, and where stdin goes.
#pragma once

#include <cstdint>
#include <string>

namespace drover::noded {

struct PathContext {
    uint32_t job_id = 0, step_id = 0;
    std::string node;
    uint32_t node_index = 0;
    std::string user, job_name;
};

// Expands %j %J %s %t %n %N %u %x %% (with an optional zero-pad width, "%3t") for one task and
// makes the path absolute against work_dir.
std::string expand_step_path(const std::string &pattern, const PathContext &c, uint32_t task,
                             const std::string &work_dir);

// srun -i: "" (task 0), "all", "none", a task number, or a file pattern.
struct StdinTarget {
    bool file = false;
    bool all = false, none = false;
    uint32_t task = 0;
    bool takes(uint32_t t) const { return !none && !file && (all || t == task); }
};
StdinTarget stdin_target(const std::string &spec);

} // namespace drover::noded
