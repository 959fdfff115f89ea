// fixtures.hpp - builds the FlatBuffers records (jobs, nodes, partitions, accounting) the CLI
// formatters read, from plain structs with sensible defaults.
#pragma once

#include <drover/views.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "proto/message_generated.h"

namespace drover::cli::test {

// The text of the ParseError fn throws, or "no error".
std::string error_of(const std::function<void()> &fn);

struct Job {
    uint32_t id = 1;
    std::string name = "job";
    uint32_t uid = 1000, gid = 1000;
    std::string user = "alice";
    std::string partition = "debug";
    std::string account, qos, licenses;
    std::string reservation; // the one it runs in; empty: none
    uint32_t state = DROVER_JOB_PENDING;
    std::string reason;
    uint32_t priority = 100;
    uint32_t min_nodes = 1, max_nodes = 1;
    uint32_t num_tasks = 1, cpus_per_task = 1, num_cpus = 1;
    uint64_t mem_mb = 0;
    uint32_t limit = DROVER_INFINITE;
    int64_t submit = 0, eligible = 0, start = 0, end = 0;
    int64_t suspend_time = 0, pre_suspend_secs = 0; // last suspended or resumed; run before
    std::string nodes, batch_host, work_dir = "/home/alice", out, err, in, submit_host = "login1";
    std::string command, comment;
    int32_t exit_status = 0;
    bool exclusive = false;
    // Arrays, dependencies and the resources beyond nodes and CPUs.
    uint32_t array_job_id = 0, array_task_id = DROVER_NO_VAL, array_max_running = 0;
    std::string array_tasks; // a pending record's waiting tasks, "4-15"
    // A heterogeneous job's component: its leader's id (0: not one), offset and component count.
    uint32_t het_job_id = 0, het_job_offset = DROVER_NO_VAL, het_size = 0;
    std::string dependency, orig_dependency;
    int32_t nice = 0;
    bool requeue = true;
    uint32_t restarts = 0;
    std::string constraint, req_nodes, exc_nodes, gres, sched_nodes;
    uint32_t gpus = 0, gpus_per_node = 0, gpus_per_task = 0;
    uint64_t mem_per_cpu_mb = 0, tmp_disk_mb = 0;
    uint32_t ntasks_per_node = 0, min_cpus_per_node = 0, share = 0;
    bool contiguous = false;
    int64_t deadline = 0;
    struct Alloc {
        std::string node;
        uint32_t cpus = 1;
        std::string cpu_ids;
        uint64_t mem_mb = 0;
        std::string gres;
    };
    std::vector<Alloc> node_alloc;
};

// A pending job of the given id, named "plain", waiting behind higher priority.
inline Job plain_job(uint32_t id) {
    Job j;
    j.id = id;
    j.name = "plain";
    j.reason = "Priority";
    return j;
}

struct Node {
    std::string name;
    uint32_t state = DROVER_NODE_IDLE;
    uint32_t flags = 0;
    uint32_t cpus = 4, alloc_cpus = 0;
    uint64_t memory = 1000, alloc_memory = 0;
    uint32_t port = 0;
    std::string reason;
    int64_t reason_time = 0;
    uint32_t reason_uid = DROVER_NO_VAL;
    std::vector<std::string> partitions = {"debug"};
};

struct Part {
    std::string name = "debug";
    std::string nodes;
    bool is_default = false;
    std::string state = "UP";
    uint32_t max_time = DROVER_INFINITE;
    uint32_t default_time = DROVER_NO_VAL;
    uint32_t max_nodes = DROVER_INFINITE, min_nodes = 0;
    uint32_t total_cpus = 0, total_nodes = 0;
    std::string allow_accounts, preempt_mode; // empty: ALL, OFF
    uint32_t priority_job_factor = 1;
    int64_t suspend_time = -2, suspend_timeout = -2, resume_timeout = -2; // -2: GLOBAL
    bool power_down_on_idle = false;
};

struct AcctStepSpec {
    uint32_t id = 0; // DROVER_STEP_BATCH, DROVER_STEP_EXTERN or a number
    std::string name = "step", nodes = "n1";
    uint32_t nodes_count = 1, tasks = 1, cpus = 1;
    uint32_t state = DROVER_JOB_COMPLETE;
    int32_t exit_status = 0;
    int64_t start = 1010, end = 1070;
    uint32_t cancelled_by = DROVER_NO_VAL;
    uint64_t max_rss = 0, ave_rss = 0, max_vsize = 0, ave_vsize = 0;
    std::string max_rss_node, max_vsize_node, max_disk_read_node, max_disk_write_node;
    uint32_t max_rss_task = 0;
    uint64_t ave_cpu_usec = 0, min_cpu_usec = 0, user_cpu_usec = 0, sys_cpu_usec = 0;
    uint64_t max_disk_read = 0, max_disk_write = 0, ave_disk_read = 0, ave_disk_write = 0;
    std::string tres = "cpu=1,node=1";
};

struct Acct {
    uint32_t id = 1;
    std::string name = "job";
    uint32_t uid = 1000, gid = 1000;
    std::string partition = "debug", account = "", nodes = "n1", work_dir = "/home/alice";
    uint32_t alloc_nodes = 1, alloc_cpus = 1, req_cpus = 1;
    uint64_t req_mem = 0;
    uint32_t state = DROVER_JOB_COMPLETE;
    int32_t exit_status = 0;
    uint32_t limit = 60;
    int64_t submit = 1000, eligible = 1000, start = 1010, end = 1070;
    uint32_t cancelled_by = DROVER_NO_VAL;
    uint32_t array_job_id = 0, array_task_id = DROVER_NO_VAL;
    std::vector<AcctStepSpec> steps;
    uint32_t het_job_id = 0, het_job_offset = DROVER_NO_VAL; // a heterogeneous job's component
};

// A reservation as scontrol show reservation and sinfo -T read it.
struct Resv {
    std::string name = "maint";
    int64_t start = 0, end = 0;
    std::string nodes;
    uint32_t node_count = 0, core_count = 0;
    std::string features, partition;
    uint64_t flags = 0;
    std::string users, accounts, licenses;
    uint32_t max_start_delay_s = 0;
};

// Owns the bytes; the pointers stay valid while it lives.
class Records {
  public:
    const std::vector<const proto::JobInfo *> &jobs(const std::vector<Job> &in);
    const std::vector<const proto::NodeInfo *> &nodes(const std::vector<Node> &in);
    const std::vector<const proto::PartitionInfo *> &parts(const std::vector<Part> &in);
    const std::vector<const proto::AcctJob *> &acct(const std::vector<Acct> &in);
    const std::vector<const proto::ReservationInfo *> &resvs(const std::vector<Resv> &in);

  private:
    std::vector<std::vector<uint8_t>> bufs_;
    std::vector<const proto::JobInfo *> jobs_;
    std::vector<const proto::NodeInfo *> nodes_;
    std::vector<const proto::PartitionInfo *> parts_;
    std::vector<const proto::AcctJob *> acct_;
    std::vector<const proto::ReservationInfo *> resvs_;
};

} // namespace drover::cli::test
