// resume_file.hpp - the JSON that ResumeProgram reads from SLURM_RESUME_FILE, as Slurm's Cloud
// Scheduling guide shows it: every node being resumed, and each job they are resumed for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace drover::ctld {

struct ResumeJob {
    uint32_t job_id = 0;
    std::string extra;         // --extra; empty: null
    std::string features;      // -C/--constraint; empty: null
    std::string nodes_alloc;   // all the job's nodes, a hostlist
    std::string nodes_resume;  // those of them resumed now
    std::string oversubscribe; // as squeue's %h: "OK", "NO", "USER", ...
    std::string partition;
    std::string reservation; // empty: null
};

// {"all_nodes_resume": "...", "jobs": [{"extra": ..., "features": ..., "job_id": N, ...}]}
std::string resume_file_json(const std::string &all_nodes, const std::vector<ResumeJob> &jobs);

} // namespace drover::ctld
