// builtin.cpp - sched/builtin: strict priority FIFO, as in the Slurm design paper.
//
// Each pass orders the pending jobs by priority (highest first), then job id (oldest first), and
// asks the core to start them in that order. The first job of a partition that cannot start
// because its resources are busy (DROVER_EBUSY) blocks that partition for the rest of the pass,
// so no lower-priority job overtakes it there; other partitions go on. A job that is not eligible
// (EPERM) or can never run (ENOSPC) blocks nothing. A job submitted to several partitions
// ("a,b") is skipped if any of them is blocked, and blocks all of them.
#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

#include <drover/plugin.hpp>
#include <drover/sched.h>

namespace {

using drover::sdk::guard;
using drover::sdk::to_view;

struct State {
    drover::sdk::Host host;
};

// Calls fn for each partition named in a comma-separated list.
template <class Fn>
void for_each_partition(std::string_view list, Fn &&fn)
{
    while (!list.empty()) {
        auto comma = list.find(',');
        fn(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
}

// The pending jobs of this pass in the order they are considered.
std::vector<const drover_job_view *> by_priority(const drover_sched_host *host,
                                                 drover_sched_pass *pass)
{
    std::vector<const drover_job_view *> jobs;
    const uint32_t n = host->pending_count(pass);
    jobs.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
        if (const drover_job_view *job = host->pending_job(pass, i))
            jobs.push_back(job);
    std::sort(jobs.begin(), jobs.end(), [](const drover_job_view *a, const drover_job_view *b) {
        if (a->priority != b->priority)
            return a->priority > b->priority;
        return a->job_id < b->job_id;
    });
    return jobs;
}

int builtin_schedule(void *state, const drover_sched_host *host, drover_sched_pass *pass,
                     drover_error *err)
{
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        std::set<std::string_view> blocked;  // views borrowed from the pass's job views
        uint32_t started = 0;
        for (const drover_job_view *job : by_priority(host, pass)) {
            const std::string_view parts = to_view(job->partition);
            bool skip = false;
            for_each_partition(parts, [&](std::string_view p) { skip |= blocked.count(p) > 0; });
            if (skip)
                continue;
            const int rc = host->try_start(pass, job->job_id);
            if (rc == DROVER_OK)
                ++started;
            else if (rc == DROVER_EBUSY)
                for_each_partition(parts, [&](std::string_view p) { blocked.insert(p); });
        }
        if (started)
            s.host.debug("pass started " + std::to_string(started) + " job(s)");
        return DROVER_OK;
    });
}

int builtin_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                 drover_error *err)
{
    return guard(err, [&] {
        *state_out = new State{drover::sdk::Host(ctx, host)};
        return DROVER_OK;
    });
}

void builtin_fini(void *state) { delete static_cast<State *>(state); }

const drover_sched_ops builtin_ops = {
    .struct_size = sizeof(drover_sched_ops),
    .job_priority = nullptr,  // the core's default: earlier submissions first
    .schedule = builtin_schedule,
};

}  // namespace

DROVER_PLUGIN("sched", "builtin", "0.1.0", builtin_init, builtin_fini, &builtin_ops)
