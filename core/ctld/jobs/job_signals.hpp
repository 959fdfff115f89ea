// job_signals.hpp - scancel and scontrol's signals (JobSignalRequest): jobs, array tasks and
// steps ("123.4", "123.batch"). Built above both the job and the step manager, since a request
// may name either.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "common/status.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "net/routes.hpp"

namespace drover::ctld {

class StepManager;

class JobSignals {
  public:
    JobSignals(Ctx &ctx, JobManager &jobs, StepManager &steps)
        : ctx_(ctx), jobs_(jobs), steps_(steps) {}

    // Anyone may send it: each named job or step is checked against its owner inside.
    net::Routes routes();
    // A federation's say over a signal other than cancel for one job its owner or an admin
    // signals (fed_jobs.hpp): true when it sent it on (a job another member runs). Set once when
    // the controller is built.
    using SignalForward = std::function<bool(Job &, int sig, JobManager::SignalScope, uint32_t)>;
    void set_signal_forward(SignalForward f) { signal_forward_ = std::move(f); }

  private:
    void on_signal(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    // Signals (SIGKILL: cancels) one step of a named job, as its owner or an admin may.
    Status signal_step_target(const JobManager::Target &t, uint32_t step, int sig, uint32_t uid);
    // scancel --sibling=CLUSTER on the origin: that member may no longer run the job (its copy
    // is revoked; the origin's own, when it names the origin); the job is cancelled when no
    // member is left.
    Status remove_sibling(const JobManager::Target &t, std::string_view cluster, uint32_t uid);
    // One named job: the signal here, or sent on by signal_forward_.
    Status signal_target(const JobManager::Target &t, int sig, uint32_t uid,
                         JobManager::SignalScope scope);

    Ctx &ctx_;
    JobManager &jobs_;
    StepManager &steps_;
    SignalForward signal_forward_;
};

} // namespace drover::ctld
