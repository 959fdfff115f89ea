// scheduler.hpp - runs scheduling passes through the sched plugin and starts the jobs it picks
// (node choice through the select plugin, allocation through allocation.hpp). It decides, writes
// no job and does no I/O: the job manager records each start as it is made (the policy's next try
// must see it), and after the pass takes what the pass decided for the jobs left (why each waits,
// when a plan expects it to start, which end without running); the launcher (launcher.hpp) sends
// batch scripts once it hears a start is durable.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <drover/plugin.h>
#include <drover/views.h>

#include "common/bitmap.hpp"
#include "ctld/context.hpp"
#include "ctld/resv/reservations.hpp"
#include "ctld/sched/preemptor.hpp"

namespace drover::ctld {

struct Job;
struct Partition;

class JobManager;
class NodeManager;
class Placement;

class Scheduler {
  public:
    Scheduler(Ctx &ctx, const NodeManager &nodes, JobManager &jobs, const Placement &place,
              const Reservations &resv);
    ~Scheduler();

    // Tells the select plugin the node table and replays running jobs (start and reconfigure).
    void init_select();

    // Asks for a pass soon; requests made while one is queued share it (and every
    // Events::queue_changed asks for one).
    void request();
    // Runs a pass now, then has the job manager take its decisions (Decisions).
    void pass();

    // Eligibility, then node selection (within allowed, when given), then start. DROVER_OK,
    // EBUSY, EPERM or ENOSPC.
    int try_start(Job &job, const drover_bitmap_view *allowed = nullptr);

    // The last check before a job whose nodes are found starts (a federation's lock): DROVER_OK,
    // or the code try_start returns, with the reason the job waits. Set once when built.
    using StartGate = std::function<int(Job &, std::string &)>;
    void set_start_gate(StartGate gate) { gate_ = std::move(gate); }

    // What the sched host table (ABI 1.1) reads.
    const std::vector<drover_node_view> &node_views() const;
    std::vector<Job *> running_jobs() const;
    const std::string &parameters() const;
    int job_nodes(uint32_t job_id, drover_bitmap *nodes, uint32_t *cpus);
    int usable_nodes(const Job &job, drover_bitmap *out);
    // When reservations bar job from which nodes (ABI 1.10's blocked windows).
    std::vector<Reservations::Window> blocked(const Job &job) const { return resv_.windows(job); }

    // A job the pass found can never start (past its deadline, or a dependency that can never
    // be satisfied under --kill-on-invalid-dep): it ends in state once the pass is over,
    // cancelled by cancelled_by (DROVER_NO_VAL: by no one).
    struct End {
        uint32_t job_id = 0;
        uint32_t state = 0;
        uint32_t cancelled_by = DROVER_NO_VAL;
    };
    // When and where a planning policy expects to start a job (squeue --start).
    struct Plan {
        int64_t when = 0;
        std::vector<uint32_t> nodes;
    };
    // What a pass decided besides the jobs it started (which the job manager has recorded): how
    // many jobs it had and tried, why each job it left pending waits (Slurm's reason), the
    // planned starts, and the jobs to end.
    struct Decisions {
        uint32_t queue = 0, tried = 0;
        std::unordered_map<uint32_t, std::string> reasons;
        std::unordered_map<uint32_t, Plan> plans;
        std::vector<End> ends;
        // Jobs to preempt once the pass is over, each for the job that needs their nodes.
        std::vector<std::pair<uint32_t, std::vector<uint32_t>>> preempts;
    };
    // A planning policy's expected start of job_id (during a pass).
    void expect(uint32_t job_id, Plan plan) { d_.plans[job_id] = std::move(plan); }

  private:
    Decisions run_pass();
    // The PriorityTier of the job's partition (the highest of several; 0 when it has none).
    uint32_t partition_tier(const Job &job) const;
    // try_start in each partition of a -p a,b job in turn, and in the job's one partition.
    int try_each_partition(Job &job, const drover_bitmap_view *allowed);
    int try_start_in(Job &job, const drover_bitmap_view *allowed);
    // Why job cannot start now (its reason set, or an End decided), or DROVER_OK.
    int check_eligible(Job &job, const Partition &part);
    int check_dependency(Job &job);
    // Every check before node selection (eligibility, dependency, limits, reservation).
    int check_startable(Job &job, const Partition &part);
    // Starts every component of job's heterogeneous job now, or none of them.
    int start_het(Job &job, const drover_bitmap_view *allowed);
    // The select plugin's hold on picked for job (allocation.hpp), and its undoing before the
    // job started.
    Status hold_nodes(Job &job, const std::vector<uint32_t> &picked);
    void drop_nodes(Job &job);
    // Licenses it asks for that are not free now, or (AccountingStorageEnforce=limits) the limit
    // that keeps the job waiting now: its reason.
    int check_limits(Job &job);
    int start_array_tasks(Job &rec, const Partition &part, const drover_bitmap_view *allowed);
    // The job waits for reason (decided now, recorded after the pass).
    void wait(const Job &job, std::string reason);
    // The nodes the select plugin would give job now (within allowed, when given): DROVER_OK
    // with nodes set, or DROVER_EBUSY with the job's reason set.
    int choose(Job &job, const Partition &part, const drover_bitmap_view *allowed,
               std::vector<uint32_t> *nodes);
    // Allocates picked to job and has the job manager record its start; false (the job stays
    // pending, reason set) when the select plugin refuses to record it.
    bool start(Job &job, const std::vector<uint32_t> &picked);

    struct Timer; // the loop's timer for spaced passes (Asio stays in the .cpp)
    Ctx &ctx_;
    const NodeManager &nodes_;
    JobManager &jobs_;
    const Placement &place_;
    const Reservations &resv_;
    std::unique_ptr<Timer> timer_;
    Preemptor preempt_;
    bool queued_ = false;
    Decisions d_; // what the current pass has decided so far
    StartGate gate_;
    std::chrono::steady_clock::time_point last_end_{};
    std::chrono::steady_clock::duration last_cost_{};
};

} // namespace drover::ctld
