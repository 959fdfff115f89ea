// demand.hpp - what a pending job needs, in the terms the plan counts: nodes and CPUs per node.
#pragma once

#include <cstdint>

#include <drover/views.h>

namespace drover::backfill {

struct Demand {
    bool whole = false; // whole nodes (select/linear, --exclusive): every CPU of each node
    uint32_t nodes = 1; // how many nodes (whole: at least this many)
    uint32_t max_nodes = DROVER_INFINITE;
    uint64_t total_cpus = 1;    // num_tasks * cpus_per_task over the whole job
    uint32_t per_node = 1;      // shared nodes: CPUs it needs free on each of its nodes
    uint32_t most_per_node = 1; // shared nodes: the most CPUs it could take on one node
};

// The demand of job. whole_nodes: the select plugin allocates whole nodes. largest_node: the
// most CPUs any node has (a shared job too wide for one node is spread over more).
Demand demand_of(const drover_job_view &job, bool whole_nodes, uint32_t largest_node);

// The CPUs the job needs free on a node of node_cpus CPUs to use it (whole: all of them).
inline uint32_t need_on(const Demand &d, uint32_t node_cpus) {
    return d.whole ? node_cpus : d.per_node;
}

} // namespace drover::backfill
