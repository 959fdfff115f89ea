// ctld_stats.hpp - the controller's counters that sdiag shows: since when, how many jobs were
// submitted, started, completed, cancelled and failed (counted as their accounting records are
// made), and the main scheduler's passes. sdiag -r starts them again. A sched plugin that
// backfills keeps its own counters (drover_sched_stats), which the answer adds.
#pragma once

#include <drover/accounting.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace drover::net {
struct Request;
class Responder;
} // namespace drover::net

namespace drover::ctld {

struct Ctx;
class JobManager;

struct CtldStats {
    int64_t server_start = 0; // when the controller started
    int64_t since = 0;        // when the counts began (start, or the last sdiag -r)
    uint64_t submitted = 0, started = 0, completed = 0, canceled = 0, failed = 0;
    // The main scheduler's passes ("Main schedule statistics"), times in microseconds: depth is
    // the jobs a pass tried, queue length the pending jobs it was given.
    uint64_t cycles = 0, cycle_last_usec = 0, cycle_max_usec = 0, cycle_sum_usec = 0, depth_sum = 0;
    uint32_t queue_length = 0;

    void cycle(uint64_t usec, uint32_t depth, uint32_t queue) {
        ++cycles;
        cycle_last_usec = usec;
        if (usec > cycle_max_usec) cycle_max_usec = usec;
        cycle_sum_usec += usec;
        depth_sum += depth;
        queue_length = queue;
    }

    // A job's accounting event with the state it records.
    void count(int event, uint32_t state) {
        if (event == DROVER_ACCT_JOB_SUBMIT)
            ++submitted;
        else if (event == DROVER_ACCT_JOB_START)
            ++started;
        else if (event == DROVER_ACCT_JOB_END) {
            uint32_t base = state & 0xff;
            if (base == DROVER_JOB_COMPLETE)
                ++completed;
            else if (base == DROVER_JOB_CANCELLED)
                ++canceled;
            else
                ++failed;
        }
    }
    void reset(int64_t now) {
        since = now;
        submitted = started = completed = canceled = failed = 0;
        cycles = cycle_last_usec = cycle_max_usec = cycle_sum_usec = depth_sum = 0;
        queue_length = 0;
    }
};

// What sdiag shows, by its key ("jobs_submitted", "schedule_cycle_last" in microseconds,
// "bf_cycles", ... in the answer's order): the counters, the accounting backlog, the jobs pending
// and running, the scheduling passes and the sched plugin's backfill counters (bf_*, when it keeps
// them). reset starts the counters (the plugin's too) again after reading them.
using StatValues = std::vector<std::pair<const char *, uint64_t>>;
StatValues stats_values(Ctx &ctx, JobManager &jobs, bool reset);

// Answers a StatsRequest (sdiag) with the counters, the accounting backlog, the jobs pending and
// running, the scheduling passes and the sched plugin's backfill counters (bf_*, when it keeps
// them); a reset (sdiag -r) needs admin_level Operator or more, and resets the plugin's too.
void stats_reply(Ctx &ctx, JobManager &jobs, const std::shared_ptr<net::Request> &req,
                 const std::shared_ptr<net::Responder> &resp, uint32_t admin_level);

} // namespace drover::ctld
