// step_runner.hpp - runs job steps on this node: checks the credential, forks the step's shepherd
// into a proctrack container, streams the tasks' output to srun and its input to them, and
// reports the step's end with what it used.
//
// Each step lives in the node's spool (spool.hpp) from its launch until the controller has
// acknowledged its end: a droverd killed and restarted finds its shepherds again (recover()) and
// reports the steps' ends, though not their output (srun lost its connection with the old
// droverd).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/cpu_bind.hpp"
#include "common/status.hpp"
#include "common/usage.hpp"
#include "noded/reaper.hpp"
#include "noded/spool.hpp"
#include "plugin/plugin_set.hpp"
#include "proto/message_generated.h"

namespace boost::asio {
class io_context;
}
namespace drover {
struct Config;
}
namespace drover::net {
class Authenticator;
}

namespace drover::noded {

// How a step ended on this node.
struct StepEnd {
    uint32_t job_id = 0, step_id = 0;
    int32_t exit_status = 0; // the worst task's raw wait status
    uint32_t state = 0;      // drover_job_state the node decided (OOM, TIMEOUT, CANCELLED); 0 none
    StepUsageSummary usage;
};

class StepRunner {
  public:
    // Builds a step's end report for the controller. The report is kept in the spool and sent
    // with tell until the controller acknowledges it; only then does srun learn of the end (so
    // sacct right after srun exits sees the step).
    using Report = std::function<std::vector<uint8_t>(const StepEnd &)>;
    StepRunner(boost::asio::io_context &io, const Config &conf, std::string node,
               plugin::PluginSet &plugins, const net::Authenticator &auth, Reaper &reaper,
               std::function<bool(uint32_t)> is_admin, Report report, Tell tell);
    ~StepRunner();

    // This node's GPU device files by GPU index, given only under ConstrainDevices: a step
    // cannot open those of GPUs it does not hold here.
    void set_gpu_files(std::vector<std::string> files);
    // Each GPU's cores (gres.conf's Cores=, by GPU index), for --gpu-bind=closest.
    void set_gpu_cores(std::vector<std::string> cores);
    // This node's CPUs (sockets, cores) for TaskPlugin=task/affinity.
    void set_topology(std::vector<CpuPlace> cpus);

    // Takes back the steps a previous droverd left in the spool: shepherds still running are
    // watched again (their output is drained by the shepherd, no longer sent to srun), steps that
    // ended meanwhile end now, unacknowledged reports are resent.
    void recover();

    // Starts this node's tasks of a step for requester. Success (and the shepherd's pid; the
    // tasks start after this returns), or why nothing was started: DROVER_EPERM for a credential
    // refused (or replayed, or of a job ended here), DROVER_EINVAL for a request that cannot be
    // run as asked (no command, a bad layout or binding), DROVER_EIO when the node failed (pipes,
    // the spool, the MPI wiring, the supervisor).
    Status launch(const proto::StepLaunchRequest &req, uint32_t requester,
                  std::vector<int32_t> *pids);
    // Signals a step's tasks; terminate: SIGCONT+SIGTERM, SIGKILL after KillWait, and the step
    // ends as end_state. Fails with DROVER_ENOENT when the step is not running here (never
    // started, or over), DROVER_EPERM when it is another user's.
    Status signal(uint32_t job_id, uint32_t step_id, int sig, bool terminate, uint32_t end_state,
                  uint32_t requester);
    // Live usage of a step (sampled now) for requester; fails as signal does.
    Status stat(uint32_t job_id, uint32_t step_id, uint32_t requester, StepUsageSummary *out,
                std::vector<int32_t> *pids);
    // sattach: the step's output goes to host:port as well (Hello with key first; its last
    // output frames, then what follows), and input and signals are taken from there; port 0
    // attaches nothing. Success with this node's tasks of the step, their pids and the step's
    // task count; fails as signal does, or with DROVER_EBUSY when the step has as many sattach
    // connections as it takes.
    struct Attached {
        std::vector<uint32_t> tasks;
        std::vector<int32_t> pids;
        uint32_t num_tasks = 0;
    };
    Status attach(uint32_t job_id, uint32_t step_id, uint32_t requester, const std::string &host,
                  uint16_t port, std::string key, Attached *out);
    // Called with a reason when a step's processes survive SIGKILL (UnkillableStepTimeout).
    void on_unkillable(std::function<void(const std::string &)> drain);
    // The job's batch script runs here (its Prolog has run).
    void job_started_here(uint32_t job_id);
    // The job is over: every step of it here is terminated as CANCELLED. Returns whether the job
    // ran anything here (and so needs its Epilog).
    bool job_ended(uint32_t job_id);
    // Whether the job has ended on this node (within the last hour).
    bool has_ended(uint32_t job_id) const;
    // Steps running here, as (job, step).
    std::vector<std::pair<uint32_t, uint32_t>> running() const;

    struct Step;
    struct IoLink;

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

} // namespace drover::noded
