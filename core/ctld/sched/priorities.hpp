// priorities.hpp - PriorityType's controller side. With a priority plugin loaded
// (priority/multifactor), Priorities owns the usage ledger and the fair-share tree: every
// PriorityCalcPeriod it charges running jobs their billing-seconds (times their QOS's
// UsageFactor), decays and resets usage, has the plugin rank the tree, and sets each pending
// job's priority; it charges a job's last slice when the job ends, and answers sprio and sshare.
// Without one (priority/basic) it does nothing and jobs keep the basic order.
//
// Usage is durable: one state-store record per association and one for the clock, written in
// the batch of the change that made them (a job's end, a tick), so a restart or a takeover
// continues from the last committed tick without losing or repeating a charge.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "ctld/context.hpp"
#include "net/routes.hpp"

namespace drover::ctld {

class JobManager;
class NodeManager;
struct Job;

class Priorities {
  public:
    Priorities(Ctx &ctx, NodeManager &nodes, JobManager &jobs);
    ~Priorities();

    // Loads the usage, ranks the tree and sets every pending job's priority, then again every
    // PriorityCalcPeriod. Nothing without a priority plugin.
    void start();
    // A pending job's priority now, from the last ranking (the job manager asks at submission
    // and release); nullopt without a priority plugin.
    std::optional<uint32_t> priority_of(const Job &job);

    // sprio (PriorityFactorsRequest) and sshare (ShareRequest).
    net::Routes routes();

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::ctld
