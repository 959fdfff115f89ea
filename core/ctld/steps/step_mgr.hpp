// step_mgr.hpp - the controller's job steps: creation inside a running job's allocation (with a
// signed credential), the CPUs each step holds, requests waiting for busy CPUs, ends reported by
// the nodes, time limits, signals, queries, and srun/salloc waiting for their allocation.
// StepManager is the only owner of steps; a job's steps end with it. Running steps are kept in
// the state store (table steps) with every change, so a restarted controller has them all.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <drover/views.h>

#include "common/status.hpp"
#include "common/usage.hpp"
#include "ctld/context.hpp"
#include "net/routes.hpp"
#include "net/server.hpp"

namespace drover::ctld {

struct Job;
class JobManager;
class NodeManager;

struct Step {
    uint32_t job_id = 0, id = 0;
    uint32_t uid = 0;
    std::string name, command, submit_host;
    std::vector<uint32_t> nodes; // positions in the job's node list
    std::vector<uint32_t> cpus;  // per step node
    std::vector<std::vector<uint32_t>>
        slots; // the job-local CPU slots held per node (none: --overlap)
    std::vector<std::vector<uint32_t>> gpus; // the GPU indexes held per node (none: not asked)
    std::vector<uint32_t> tasks_per_node;
    uint32_t num_tasks = 0, cpus_per_task = 1;
    uint64_t mem_per_node_mb = 0;
    int64_t start_time = 0;
    uint32_t time_limit_min = DROVER_INFINITE;
    std::vector<uint32_t> reporting; // step nodes that have not reported their end
    int32_t exit_status = 0;
    uint32_t end_state = 0; // decided here (TIMEOUT, CANCELLED) or by a node (OOM)
    uint32_t cancelled_by = DROVER_NO_VAL;
    bool kill_sent = false;
    int signal_num = 0; // --signal
    uint32_t signal_secs = 0;
    bool signal_sent = false;
    StepUsageSummary usage;
};

class StepManager {
  public:
    StepManager(Ctx &ctx, const NodeManager &nodes, JobManager &jobs);
    ~StepManager();

    // Loads the running jobs' steps from the store (cold: discards them), after the jobs.
    void recover(bool cold);

    // The step messages this manager serves, and who may send each.
    net::Routes routes();

    void on_create(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_complete(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_info(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_wait(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    // sbcast: a credential for writing a file on the job's (or a step's) nodes as its user.
    void on_bcast_cred(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    // scontrol update StepId=J[.S] TimeLimit=: the job's owner may lower a step's limit, an
    // administrator set it to anything.
    void on_update(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);

    // scancel J.S: signal (or terminate, ending it CANCELLED by uid) one step. OK, or ENOENT when
    // the job has no such step.
    Status signal_step(Job &job, uint32_t step_id, int sig, bool terminate, uint32_t uid);
    // The job started: answer those waiting for the allocation.
    void job_started(const Job &job);
    // The job ended: its steps end CANCELLED, waiting creations are refused.
    void job_ended(const Job &job);
    // Step time limits and --signal, once a second.
    void tick();
    std::size_t running_steps() const;
    std::vector<uint32_t> step_ids(uint32_t job_id) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::ctld
