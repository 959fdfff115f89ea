// strict_fifo.cpp - strict priority FIFO, partition by partition.
#include "strict_fifo.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include <drover/plugin.hpp>

namespace drover::sched_common {

namespace {

// Calls fn for each partition named in a comma-separated list.
template <class Fn>
void for_each_partition(std::string_view list, Fn &&fn) {
    while (!list.empty()) {
        const auto comma = list.find(',');
        fn(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
}

} // namespace

std::vector<const drover_job_view *> by_priority(const drover_sched_host *host,
                                                 drover_sched_pass *pass) {
    std::vector<const drover_job_view *> jobs;
    const uint32_t n = host->pending_count(pass);
    jobs.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
        if (const drover_job_view *job = host->pending_job(pass, i)) jobs.push_back(job);
    // Higher partition PriorityTier first (a core before ABI 1.9 sends none: all tie), then
    // higher priority, then the older job.
    auto tier = [](const drover_job_view *j) {
        return DROVER_HAS(drover_job_view, j, partition_tier) ? j->partition_tier : 0u;
    };
    std::sort(jobs.begin(), jobs.end(), [&](const drover_job_view *a, const drover_job_view *b) {
        if (tier(a) != tier(b)) return tier(a) > tier(b);
        if (a->priority != b->priority) return a->priority > b->priority;
        return a->job_id < b->job_id;
    });
    return jobs;
}

std::unordered_map<uint32_t, int> run_fifo(const drover_sched_host *host, drover_sched_pass *pass,
                                           const std::vector<const drover_job_view *> &order) {
    std::unordered_map<uint32_t, int> tried;
    // Views borrowed from the pass's job views. As in Slurm, a job in a reservation that waits
    // holds back the later jobs of its reservation only, and a job outside one those of its
    // partitions only: each runs on nodes the other may not use.
    std::set<std::string_view> blocked, blocked_resv;
    for (const drover_job_view *job : order) {
        const std::string_view parts = sdk::to_view(job->partition);
        const std::string_view resv = DROVER_HAS(drover_job_view, job, reservation)
                                          ? sdk::to_view(job->reservation)
                                          : std::string_view();
        bool skip = false;
        if (!resv.empty())
            skip = blocked_resv.count(resv) > 0;
        else
            for_each_partition(parts, [&](std::string_view p) { skip |= blocked.count(p) > 0; });
        if (skip) continue;
        const int rc = host->try_start(pass, job->job_id);
        tried[job->job_id] = rc;
        if (rc != DROVER_EBUSY) continue;
        if (!resv.empty())
            blocked_resv.insert(resv);
        else
            for_each_partition(parts, [&](std::string_view p) { blocked.insert(p); });
    }
    return tried;
}

} // namespace drover::sched_common
