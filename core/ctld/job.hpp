// job.hpp - a job as the controller holds it in memory.
//
// Kept small: the script, environment and arguments stay in the state store (Table::Scripts)
// until launch, so a pending job costs little memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drover/views.h>

namespace drover::ctld {

enum class Hold : uint8_t { None = 0, User = 1, Admin = 2 };

struct Job {
    uint32_t id = 0;
    uint32_t uid = 0, gid = 0;
    uint32_t state = DROVER_JOB_PENDING;
    uint32_t priority = 0;
    uint32_t min_nodes = 1, max_nodes = DROVER_INFINITE;
    uint32_t num_tasks = 1, cpus_per_task = 1;
    uint32_t time_limit_min = DROVER_INFINITE;
    uint32_t alloc_cpus = 0;
    uint32_t cancelled_by = DROVER_NO_VAL;
    uint32_t restart_count = 0;
    int32_t exit_status = 0;
    Hold hold = Hold::None;
    bool exclusive = false;
    bool requeue = true;
    bool open_append = false;
    bool timed_out = false;     // the time limit was reached; the end is TIMEOUT
    bool kill_sent = false;     // a terminate was sent to the batch host
    uint64_t mem_per_node_mb = 0;
    int64_t submit_time = 0, eligible_time = 0, start_time = 0, end_time = 0;
    std::string name, user_name, partition, account, reason;
    std::string work_dir, std_out, std_err, std_in, submit_host, comment, command;
    std::vector<uint32_t> nodes;        // node indexes held, in order; nodes[0] is the batch host
    std::vector<uint32_t> node_cpus;    // CPUs held on each of nodes

    bool pending() const { return state == DROVER_JOB_PENDING; }
    bool running() const { return state == DROVER_JOB_RUNNING || state == DROVER_JOB_SUSPENDED; }
    bool finished() const { return !pending() && !running(); }
};

// The name Slurm prints for a base state (PENDING, RUNNING, COMPLETED, ...).
const char *job_state_name(uint32_t state);

}  // namespace drover::ctld
