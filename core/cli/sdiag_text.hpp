// sdiag_text.hpp - sdiag's report in Slurm's layout, from the controller's StatsResponse fields.
#pragma once

#include <map>
#include <string>

namespace drover::cli {

// fields: now, since, dbd_agent_queue_size, jobs_submitted, jobs_started, jobs_completed,
// jobs_canceled, jobs_failed, jobs_pending, jobs_running, schedule_cycles (absent ones print 0).
std::string sdiag_report(const std::map<std::string, std::string> &fields);

}  // namespace drover::cli
