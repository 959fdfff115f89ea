// fed_jobs.hpp - sibling jobs of a federation. The origin (the member a job was submitted to)
// sends a copy of the job, a sibling job, to each other member it may run on once the job is
// eligible (not held, no unmet dependency), and coordinates so that exactly one member starts it:
//   - a member asks the origin for the job's lock before it starts its sibling (Lock); the origin
//     grants it to one member at a time and takes it itself, with no message, when it starts the
//     job; a member that got it and could not start the job gives it back (Unlock);
//   - the member that started it says so (Started): the origin marks its own copy REVOKED and
//     revokes the other siblings (Revoke), which end REVOKED where they wait;
//   - that member says how the job ended (Ended, or requeued: the origin submits the siblings
//     again); a job that ends on the origin, or is cancelled there, has its siblings revoked, and
//     a revoked running sibling is cancelled.
// A job held or with an unmet dependency keeps no siblings. The origin's record of the job (its
// viable and active members, the lock) is persisted with the job, so a restarted origin goes on
// where it was; what a member still has to tell the origin is sent again until the origin answers.
#pragma once

#include <memory>
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
    // it may; DROVER_EBUSY while this member asks the origin for the lock; DROVER_EPERM when it
    // is not to start here now (revoked here, or another member holds the lock). why: the
    // reason it waits (FedJobLock).
    int may_start(Job &job, std::string &why);
    // FedJobRequest from a sibling's controller.
    void on_request(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::ctld
