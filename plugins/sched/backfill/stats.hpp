// stats.hpp - sched/backfill's counters for sdiag ("Backfilling stats"): one cycle per plan, with
// how long it took, how deep it went into the queue and how many jobs it started early.
#pragma once

#include <cstdint>

#include <drover/sched.h>

namespace drover::backfill {

struct PlanStats;

class Counters {
  public:
    // A plan made at `when` (seconds since the epoch) over queue_length pending jobs, in usec
    // microseconds, leaving a timeline of table_size entries.
    void cycle(const PlanStats &plan, uint32_t queue_length, uint32_t table_size, int64_t when,
               uint64_t usec);
    // Fills out up to its struct_size; with reset, then starts the counters since the last reset
    // again (the jobs backfilled since the plugin started stay).
    void report(drover_sched_stats *out, bool reset);

  private:
    drover_sched_stats s_{};
};

} // namespace drover::backfill
