// sreport_usage.hpp - CPU time from job records and node events, as Slurm's hourly rollup counts
// it: a job's allocated CPUs times its run time within the window (Allocated), the CPUs of a node
// times the part of each of its events within the window (Down; Planned Down when the node was
// FUTURE or powered down), requested CPUs times the wait of eligible jobs (Planned), capped hour
// by hour at what the cluster has; Idle is the rest of Reported (all CPUs times the window).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/sreport_args.hpp"

namespace drover::cli {

// What sreport reads of a job record.
struct UsageJob {
    std::string cluster, account, user;
    uint32_t alloc_cpus = 0, req_cpus = 0;
    int64_t eligible = 0, start = 0, end = 0; // 0: not (yet)
};

// What sreport reads of a node event.
struct UsageEvent {
    std::string cluster, node;
    uint32_t state = 0, flags = 0; // drover_node_state and DROVER_NODE_FLAG_* when it began
    int64_t start = 0, end = 0;    // end 0: still going on
};

// CPU seconds of one cluster in the window.
struct ClusterUsage {
    uint64_t alloc = 0, down = 0, planned_down = 0, idle = 0, planned = 0, over = 0;
    uint64_t cpus = 0; // TRES Count
    // Slurm's Reported: every second the cluster's CPUs were accounted for.
    uint64_t reported() const { return alloc + down + planned_down + idle + planned; }
};

// Seconds of [start, end) that fall within [from, to); 0 when none.
int64_t overlap(int64_t start, int64_t end, int64_t from, int64_t to);

// The cluster's usage from its jobs and node events, node_cpus giving each node's CPUs (their sum
// is the cluster's). What has not ended by now (a running job, a pending one, an event going on)
// counts until now.
ClusterUsage cluster_usage(const std::vector<UsageJob> &jobs, const std::vector<UsageEvent> &events,
                           const std::map<std::string, uint32_t> &node_cpus, ReportWindow w,
                           int64_t now);

using AssocKey = std::pair<std::string, std::string>; // account, user

// Allocated CPU seconds within the window by account and user.
std::map<AssocKey, uint64_t> assoc_usage(const std::vector<UsageJob> &jobs, ReportWindow w,
                                         int64_t now);

// A job's run time as sreport's job reports count it: cut to the window, a job not ended (or
// ended after the window) running to its end, one that never started taking none.
int64_t job_elapsed(const UsageJob &j, ReportWindow w);

} // namespace drover::cli
