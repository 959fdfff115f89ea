// planner.hpp - one backfill plan: reservations for the jobs at the head of the queue, and the
// lower-priority jobs that can start now without delaying any of them.
//
// The model (what the plan knows and what it does not):
//   - Resources are CPUs per node only. Memory, generic resources (GPUs), features, contiguity
//     and licences are not planned; the select plugin still checks them whenever a job is started,
//     so a job the plan thought would fit and that does not is simply planned later.
//   - Each node's free CPUs over time come from the node table and the running jobs: a running
//     job holds the CPUs it was given on each of its nodes until its end time (start plus time
//     limit, rounded up to bf_resolution); a job without a time limit holds them for ever.
//   - Jobs are planned in priority order. For each, the plan looks for the earliest time, now or
//     at a bucket boundary within bf_window, at which enough of the nodes it may use
//     (usable_nodes) keep enough CPUs free for its whole time limit, counting the reservations
//     already made for higher-priority jobs. With whole nodes (select/linear, --exclusive) a node
//     counts when all its CPUs are free and the job needs min_nodes of them with num_tasks *
//     cpus_per_task CPUs in all; on shared nodes it needs its tasks spread over its nodes
//     (see demand.hpp).
//   - Advance reservations bar a job from nodes for stretches of time (the core's blocked
//     windows): a job is only planned where it meets none for its whole time limit.
//   - If that time is now, the job is offered the nodes whose free CPUs no reservation touches
//     while it would run (try_start_on); if it starts, what it took is entered in the timeline.
//   - Otherwise the job is first asked whether it is eligible at all (try_start_on with no node
//     allowed: the core checks holds, partition state and limits, begin time and dependencies
//     before it looks at nodes). An ineligible job is skipped and reserves nothing; an eligible
//     one gets a reservation of the chosen nodes from its start for its time limit, and its
//     expected start (set_expected_start). A job that cannot start within bf_window reserves
//     nothing and has no forecast.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <drover/sched.h>

#include "blocked.hpp"
#include "demand.hpp"
#include "params.hpp"
#include "timeline.hpp"

namespace drover::backfill {

struct PlanStats {
    uint32_t looked = 0;     // pending jobs gone through, those the strict part settled included
    uint32_t examined = 0;   // jobs planned (bf_max_job_test bounds this)
    uint32_t started = 0;    // started now, out of priority order
    uint32_t reserved = 0;   // given a future start
    uint32_t ineligible = 0; // skipped: held, dependency, begin time, partition down...
    uint32_t unplanned = 0;  // no start within bf_window
    bool hit_max_job_test = false;
};

class Planner {
  public:
    Planner(const drover_sched_host *host, drover_sched_pass *pass, const Params &params,
            bool whole_nodes);

    // The timeline from the node table and the running jobs.
    void build();

    // Plans the jobs in order. known: what try_start answered in the strict part of this pass
    // (started jobs and ineligible ones are skipped; a busy one is known to be eligible).
    PlanStats run(const std::vector<const drover_job_view *> &order,
                  const std::unordered_map<uint32_t, int> &known);

    const Timeline &timeline() const { return tl_; }

  private:
    using Words = std::vector<uint64_t>;
    static constexpr int32_t kNone = -1;

    // The nodes job may use (cached per partition and reservation for jobs that exclude none).
    const Words &usable(const drover_job_view &job);
    // Where and when reservations bar job (cached per reservation, user and account).
    const Blocked &blocked(const drover_job_view &job);
    // The earliest bucket >= from (and <= the window) at which the job fits, or kNone. With from
    // 0 it also fills now_ok_ with the nodes it may be offered now.
    int32_t earliest(const drover_job_view &job, const Demand &d, int32_t len, const Words &nodes,
                     int32_t from);
    // Nodes for the job from bucket b; sets *real_start to when they are all free.
    Words choose(const drover_job_view &job, const Demand &d, int32_t len, const Words &nodes,
                 int32_t b, int64_t *real_start);
    // Enters a job that has just started in the timeline.
    void record_start(const drover_job_view &job, int32_t len);
    void reserve(const Demand &d, int32_t b, int32_t len, const Words &nodes);

    const drover_sched_host *host_;
    drover_sched_pass *pass_;
    Params params_;
    bool whole_nodes_;
    uint32_t node_count_ = 0;
    int32_t window_ = 0; // the last bucket a job may start in
    Timeline tl_;
    std::vector<uint32_t> weight_;
    std::vector<int32_t> running_free_; // CPUs free now, reservations aside
    uint32_t largest_node_ = 0;
    std::unordered_map<std::string, Words> usable_cache_;
    std::unordered_map<std::string, Blocked> blocked_cache_;
    const Blocked *blocked_ = nullptr; // the current job's
    // Scratch space reused from job to job.
    std::vector<int32_t> count_, required_;
    std::vector<int64_t> cpus_;
    Words now_ok_, scratch_, empty_, job_usable_;
    std::vector<uint32_t> job_cpus_;
};

} // namespace drover::backfill
