// stats.cpp - sched/backfill's counters.
#include "stats.hpp"

#include <algorithm>
#include <cstring>

#include "planner.hpp"

namespace drover::backfill {

void Counters::cycle(const PlanStats &plan, uint32_t queue_length, uint32_t table_size,
                     int64_t when, uint64_t usec) {
    s_.last_depth = plan.looked;
    s_.last_depth_try = plan.examined;
    s_.last_queue_length = queue_length;
    s_.last_table_size = table_size;
    s_.backfilled_jobs += plan.started;
    s_.backfilled_jobs_since_reset += plan.started;
    ++s_.cycles;
    s_.last_cycle_when = when;
    s_.last_cycle_usec = usec;
    s_.max_cycle_usec = std::max(s_.max_cycle_usec, usec);
    s_.cycle_usec_sum += usec;
    s_.depth_sum += plan.looked;
    s_.depth_try_sum += plan.examined;
    s_.queue_length_sum += queue_length;
    s_.table_size_sum += table_size;
}

void Counters::report(drover_sched_stats *out, bool reset) {
    // The caller's struct may be shorter (an older core) or longer (a newer one) than ours.
    const uint32_t size = out->struct_size;
    drover_sched_stats copy = s_;
    copy.struct_size = static_cast<uint32_t>(std::min<size_t>(size, sizeof copy));
    std::memcpy(out, &copy, copy.struct_size);
    if (!reset) return;
    const uint64_t backfilled = s_.backfilled_jobs;
    s_ = drover_sched_stats{};
    s_.backfilled_jobs = backfilled;
}

} // namespace drover::backfill
