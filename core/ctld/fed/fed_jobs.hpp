// fed_jobs.hpp - sibling jobs of a federation. The origin (the member a job was submitted to)
// sends a copy of the job, a sibling job, to each other member it may run on once the job is
// eligible (not held, no unmet dependency), and exactly one member starts it:
//   - a member (the origin too) starts its copy only with the votes of a majority of the job's
//     voters, its viable members and its origin (Lock; Unlock gives a vote back); each voter
//     votes for one member at a time and persists its vote before it answers (fed_vote.cpp), so
//     the members agree on one even while the origin is down or cut off;
//   - the member that started it tells every voter (Started): a copy that waits elsewhere ends
//     REVOKED, the origin marks its own copy REVOKED and revokes any copy left (Revoke);
//   - that member tells the origin how the job ended (Ended, or requeued: the origin sends the
//     copies again); a job that ends on the origin, or is cancelled there, has its copies
//     revoked, and a revoked copy that runs is cancelled.
// A job held or with an unmet dependency keeps no copies. The origin's record of the job (its
// viable and active members, its vote) is persisted with the job, so a restarted origin goes on
// where it was; what a member still has to tell is sent again until it is heard, and the origin
// asks the members how its waiting jobs stand there every 15 s (fed_sync.cpp), which also
// reconciles what happened while it was down.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "net/server.hpp"

namespace drover::ctld {

struct Ctx;
struct Job;
class JobManager;
class Federation;

class FedJobs {
  public:
    FedJobs(Ctx &ctx, JobManager &jobs, const Federation &fed);
    ~FedJobs();
    // The scheduler's last check before it starts job here, once nodes are found: DROVER_OK when
    // it may (no siblings, or a majority voted for this member); DROVER_EBUSY while the votes are
    // being gathered; DROVER_EPERM when it is not to start here now (revoked here, or this
    // member voted for another). why: the reason it waits (FedJobLock).
    int may_start(Job &job, std::string &why);
    // scontrol on a job of this origin that another member runs (hold, release, requeue, update):
    // the request goes to that member, whose answer is the caller's. False for any other job,
    // which is updated here.
    bool forward_update(Job &job, const std::shared_ptr<net::Request> &req,
                        const net::ResponderPtr &resp);
    // An update applied here to a waiting job of this origin goes to its copies too (resent
    // until each member answers; a member that refuses it keeps its copy as it was).
    void updated(const Job &job, const std::shared_ptr<net::Request> &req);
    // A signal other than cancel for such a job, by its owner or an admin (uid): sent on to the
    // member that runs it. False for any other job.
    bool forward_signal(Job &job, int sig, int scope, uint32_t uid);
    // A job another member gave that a dependency here names: as its origin last said it
    // stands (asked every few seconds while dependencies name it); JobManager::RemoteJob.
    std::optional<const Job *> remote_job(uint32_t job_id);
    // What this cluster does to leave its federation (FedState=DRAIN+REMOVE, once no federated
    // job is left here). Set once when the controller is built.
    void set_leave(std::function<void()> leave);
    // FedJobRequest from a sibling's controller.
    void on_request(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::ctld
