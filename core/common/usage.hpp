// usage.hpp - a job step's resource usage as sstat and sacct report it (the figures of proto table
// StepUsage in core/proto/step.fbs), and how two nodes' figures combine into one.
#pragma once

#include <cstdint>
#include <string>

namespace drover {

// Usage of one step on one node, or on several once merged. Sizes in bytes, times in
// microseconds. Each "max" (and the "min" CPU) keeps the node and task where it was seen; each
// "ave" is a mean over the `tasks` tasks the summary covers; user/sys CPU and oom_kills are totals.
struct StepUsageSummary {
    uint64_t max_rss = 0;
    std::string max_rss_node;
    uint32_t max_rss_task = 0;
    uint64_t ave_rss = 0;

    uint64_t max_vsize = 0;
    std::string max_vsize_node;
    uint32_t max_vsize_task = 0;
    uint64_t ave_vsize = 0;

    uint64_t min_cpu_usec = 0; // the task that used the least CPU (user + system)
    std::string min_cpu_node;
    uint32_t min_cpu_task = 0;
    uint64_t ave_cpu_usec = 0;
    uint64_t user_cpu_usec = 0;
    uint64_t sys_cpu_usec = 0;

    uint64_t max_disk_read = 0;
    std::string max_disk_read_node;
    uint32_t max_disk_read_task = 0;
    uint64_t ave_disk_read = 0;

    uint64_t max_disk_write = 0;
    std::string max_disk_write_node;
    uint32_t max_disk_write_task = 0;
    uint64_t ave_disk_write = 0;

    uint32_t tasks = 0;     // how many tasks the figures cover; 0 = nothing measured yet
    uint32_t oom_kills = 0; // processes the kernel killed at a memory limit

    bool operator==(const StepUsageSummary &) const = default;
};

// Folds `from` (another node's summary, or another part of the step) into `into`: each maximum
// keeps the larger figure with its node and task (ties keep into's), the minimum CPU the smaller,
// averages are weighted by task count, and user/sys CPU, tasks and oom_kills add up. A summary
// with tasks == 0 contributes only its totals (user/sys CPU, oom_kills); merged into one with
// tasks == 0, `from` gives every other figure as it is.
void merge(StepUsageSummary &into, const StepUsageSummary &from);

} // namespace drover
