// sdiag_text.hpp - sdiag's report in Slurm's layout, from the controller's StatsResponse fields.
#pragma once

#include <map>
#include <string>

namespace drover::cli {

// fields: now, since, dbd_agent_queue_size, jobs_submitted, jobs_started, jobs_completed,
// jobs_canceled, jobs_failed, jobs_pending, jobs_running, schedule_cycles, schedule_cycle_last,
// _max, _sum, _depth, schedule_queue_length (absent ones print 0), and the backfill section's
// bf_* (drover_sched_stats's members), printed only when bf_cycles is there.
std::string sdiag_report(const std::map<std::string, std::string> &fields);

} // namespace drover::cli
