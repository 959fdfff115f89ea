// params.hpp - the SchedulerParameters sched/backfill reads, with Slurm's names and defaults.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover::backfill {

struct Params {
    uint32_t interval_s = 30;    // bf_interval: seconds between two plans
    uint32_t max_job_test = 500; // bf_max_job_test: pending jobs examined per plan
    uint32_t window_min = 1440;  // bf_window: how far ahead a plan looks, minutes
    uint32_t resolution_s = 60;  // bf_resolution: the plan's time step, seconds
    bool busy_nodes = false;     // bf_busy_nodes: reserve nodes already in use first
    bool continue_ = false;      // bf_continue: accepted; a plan is never interrupted here
};

// Reads the bf_* options of a SchedulerParameters value ("bf_interval=1,bf_continue,defer").
// Options of other features are ignored; a bf_* value that is not a positive number (zero is
// refused for bf_interval, bf_max_job_test, bf_window and bf_resolution alike) keeps its default
// and adds one line to warnings.
Params parse_params(std::string_view text, std::vector<std::string> *warnings);

} // namespace drover::backfill
