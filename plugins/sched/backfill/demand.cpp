// demand.cpp - a pending job's demand for the plan.
//
// Shared nodes: the tasks are spread evenly over min_nodes nodes (ntasks_per_node tasks each
// when given), each node needing its share of CPUs (at least --mincpus). A job whose share would
// not fit on the largest node is spread over more nodes, up to max_nodes. The most a job can take
// on one node is what is left of its request once every other node of min_nodes has one task.
#include "demand.hpp"

#include <algorithm>

namespace drover::backfill {

namespace {

uint32_t count_or_one(uint32_t v) {
    return v == 0 || v == DROVER_NO_VAL ? 1 : v;
}

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

} // namespace

Demand demand_of(const drover_job_view &job, bool whole_nodes, uint32_t largest_node) {
    Demand d;
    const uint64_t tasks = count_or_one(job.num_tasks);
    const uint64_t cpt = count_or_one(job.cpus_per_task);
    d.whole = whole_nodes || job.exclusive || job.share == DROVER_SHARE_EXCLUSIVE;
    d.nodes = count_or_one(job.min_nodes);
    d.max_nodes =
        job.max_nodes == 0 || job.max_nodes == DROVER_NO_VAL ? DROVER_INFINITE : job.max_nodes;
    d.total_cpus = tasks * cpt;
    if (d.whole) return d;
    uint64_t per_node;
    if (job.ntasks_per_node && job.ntasks_per_node != DROVER_NO_VAL) {
        d.nodes = std::max<uint64_t>(d.nodes, ceil_div(tasks, job.ntasks_per_node));
        per_node = uint64_t{job.ntasks_per_node} * cpt;
        d.most_per_node = static_cast<uint32_t>(per_node);
    } else {
        const uint64_t fit = largest_node >= cpt ? largest_node / cpt : 1; // tasks per node
        uint64_t n = std::max<uint64_t>(d.nodes, ceil_div(tasks, fit));
        if (d.max_nodes != DROVER_INFINITE)
            n = std::max<uint64_t>(d.nodes, std::min<uint64_t>(n, d.max_nodes));
        const uint64_t spread = std::max(tasks, n); // every node runs at least one task
        d.nodes = static_cast<uint32_t>(n);
        per_node = ceil_div(spread, n) * cpt;
        d.most_per_node =
            static_cast<uint32_t>(std::min<uint64_t>((spread - (n - 1)) * cpt, UINT32_MAX));
    }
    if (job.min_cpus_per_node && job.min_cpus_per_node != DROVER_NO_VAL)
        per_node = std::max<uint64_t>(per_node, job.min_cpus_per_node);
    d.per_node = static_cast<uint32_t>(std::min<uint64_t>(per_node, UINT32_MAX));
    d.most_per_node = std::max(d.most_per_node, d.per_node);
    return d;
}

} // namespace drover::backfill
