// strict_fifo.hpp - strict priority FIFO as the design paper describes it: sched/builtin's whole
// policy and the first part of every sched/backfill pass. Compiled into both plugins.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <drover/sched.h>

namespace drover::sched_common {

// The pending jobs of the pass in the order they are considered: their partition's PriorityTier
// (highest first, as Slurm schedules higher tiers first), then priority (highest first), then job
// id (oldest first). The views are the core's, valid for the pass.
std::vector<const drover_job_view *> by_priority(const drover_sched_host *host,
                                                 drover_sched_pass *pass);

// Starts jobs in that order; the first job of a partition that is eligible but finds its
// resources busy (DROVER_EBUSY) blocks the partition for the rest of the strict part, so no
// lower-priority job overtakes it there. A job not eligible (EPERM) or that can never run
// (ENOSPC) blocks nothing. Returns try_start's answer for every job it tried.
std::unordered_map<uint32_t, int> run_fifo(const drover_sched_host *host, drover_sched_pass *pass,
                                           const std::vector<const drover_job_view *> &order);

} // namespace drover::sched_common
