// preemptor.hpp - PreemptType: which running jobs a pending job that does not fit may preempt,
// and the preemption itself. preempt/partition_prio: jobs of partitions with a lower
// PriorityTier; preempt/qos: jobs whose QOS is in the pending job's QOS's Preempt= list. Jobs run
// at least PreemptExemptTime (the QOS's, else slurm.conf's) before they may be. A job is preempted
// as its PreemptMode says (the QOS's under preempt/qos, the partition's under partition_prio,
// else slurm.conf's): REQUEUE puts it back in the queue (CANCEL when it was submitted with
// --no-requeue), CANCEL ends it PREEMPTED, SUSPEND suspends it (its CPUs go to the preemptor)
// until the jobs that took them have ended; OFF never. With a GraceTime (its QOS's) a job
// requeued or cancelled gets SIGTERM first and is ended that many seconds later.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/bitmap.hpp"
#include "ctld/context.hpp"

namespace drover::ctld {

struct Job;
struct Partition;
class JobManager;
class NodeManager;

class Preemptor {
  public:
    Preemptor(Ctx &ctx, const NodeManager &nodes, JobManager &jobs);
    ~Preemptor();

    bool active() const { return !ctx_.conf.preempt_type.empty(); }
    // At the start of each scheduling pass: the running jobs as they are now.
    void begin_pass();
    // The fewest running jobs (lowest priority first, then the youngest) whose nodes, once
    // free, would let job start within usable; empty when none would, or when jobs preempted
    // for it earlier still run. Jobs chosen in this pass are not chosen again.
    std::vector<uint32_t> victims_for(const Job &job, const Partition &part, const Bitmap &usable);
    // Preempts victims (after the pass) for the job by.
    void preempt(uint32_t by, const std::vector<uint32_t> &victims);

  private:
    // How victim would be preempted ("requeue", "cancel"; "off": it is not preemptable).
    std::string mode_of(const Job &victim) const;
    bool may_preempt(const Job &job, const Partition &part, const Job &victim) const;
    // Whether job fits on free_nodes (nodes of usable where nothing but chosen victims runs).
    bool fits_on(const Job &job, const Bitmap &free_nodes) const;
    // Ends a victim marked preempted: SIGTERM and KillWait now, or after its QOS's GraceTime.
    void end(Job &victim);
    // Resumes the jobs suspended by preemption whose CPUs are no longer taken.
    void resume_suspended(const std::vector<Job *> &suspended);

    struct Grace; // timers of jobs in their GraceTime (Asio stays in the .cpp)
    Ctx &ctx_;
    const NodeManager &nodes_;
    JobManager &jobs_;
    std::unique_ptr<Grace> grace_;
    std::vector<Job *> running_;          // this pass's running jobs
    std::vector<uint32_t> jobs_on_node_;  // how many of them hold each node
    std::unordered_set<uint32_t> chosen_; // victims chosen in this pass
    // The most candidates tried for one pending job in a pass (each try asks the select plugin):
    // a queue of jobs that cannot preempt their way in costs a bounded amount per pass.
    static constexpr std::size_t kMaxTries = 64;
    // Jobs that preempted others, and the victims they wait for.
    std::unordered_map<uint32_t, std::vector<uint32_t>> waiting_;
    // Jobs suspended by preemption and the job they were suspended for (in memory only: after a
    // restart they are resumed once no job started since runs on their nodes).
    std::unordered_map<uint32_t, uint32_t> suspended_for_;
};

} // namespace drover::ctld
