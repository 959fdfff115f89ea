// job.hpp - a job as the controller holds it in memory.
//
// Kept small: the script, environment and arguments stay in the state store (Table::Scripts)
// until launch, so a pending job costs little memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <drover/views.h>

#include "common/bitmap.hpp"
#include "ctld/jobs/dependency.hpp"

namespace drover::ctld {

enum class Hold : uint8_t { None = 0, User = 1, Admin = 2 };

// The requests most jobs never make. Shared between copies of a Job and never changed in place:
// whoever changes one makes a new JobExtra.
//
// Every member of these structs must survive a controller restart: a new one is stored in the
// job's record (job_record.cpp) or derived there, and listed in job_fields.hpp (the build fails
// until it is; that file says what else to do).
struct JobExtra {
    std::string gres, constraint, req_nodes, exc_nodes, signal;
    uint32_t gpus = 0, gpus_per_node = 0, gpus_per_task = 0;
    Bitmap req_bits, exc_bits; // -w / -x as node bitmaps (empty when not given; derived)
    int64_t deadline = 0;
    int signal_num = 0; // --signal: which signal, how long before the end, to whom (derived)
    uint32_t signal_secs = 0;
    bool signal_batch_only = false;
    bool signal_sent = false;
    std::string orig_dependency; // as submitted
    Dependency dependency;       // what is still unmet
    std::string gpu_bind;        // --gpu-bind, for the script's srun (SLURM_GPU_BIND)
    bool overcommit = false;     // -O: sized for one task per node (alloc_tasks)
    std::string licenses;        // -L, as read: "name:count,..." (license_asks parses it)
    std::string reservation;     // --reservation: the reservation it may only run in
    // Suspension (scontrol suspend, PreemptMode=SUSPEND): the time suspended does not count
    // against the time limit. suspend_time is when it was last suspended or resumed (0: never),
    // pre_suspend_secs the seconds it had run by then (Slurm's SecsPreSuspend).
    int64_t suspend_time = 0;
    int64_t pre_suspend_secs = 0;
    bool suspended_by_preemption = false; // the scheduler resumes it, not an administrator
    // Federation (fed_jobs.hpp): -M and --cluster-constraint as given at the origin; the members
    // it may run on and those holding a sibling of it now (bit n-1: federation id n); at the
    // origin, the member allowed to start it (0: none).
    std::string fed_clusters, cluster_features;
    uint64_t siblings_viable = 0, siblings_active = 0;
    uint32_t cluster_lock = 0;
    // A heterogeneous job's component (het_job.hpp): the leader's id (the component at offset 0,
    // which runs the batch script), this one's offset and the number of components. The
    // components' ids follow the leader's one by one. het_job_id 0: not a heterogeneous job.
    uint32_t het_job_id = 0, het_job_offset = 0xfffffffeu, het_size = 0;
};

// A job array's pending tasks. The array's record carries the tasks that have not started; each
// task that starts becomes a Job of its own (the last one is the record itself).
struct ArrayInfo {
    std::vector<uint32_t> pending; // task ids not started yet, ascending
    uint32_t max_running = 0;      // %N throttle; 0 = none
    uint32_t step = 1;
    uint32_t min_task = 0, max_task = 0, count = 0;
};

// What every task of an array knows about the whole array (SLURM_ARRAY_TASK_COUNT/MIN/MAX/STEP).
struct ArrayMeta {
    uint32_t count = 0, min_task = 0, max_task = 0, step = 1;
};

#define DROVER_JOB_FLAG_REQUEUED 0x400u /* as Slurm numbers JOB_REQUEUE */
/* Requeued held after an exit code in RequeueExitHold, or by scontrol requeuehold
 * State=SpecialExit: shown as SPECIAL_EXIT while pending, until released (Slurm's bit). */
#define DROVER_JOB_FLAG_SPECIAL_EXIT 0x1000u
/* Running, its nodes still powering up (power saving): its script is not launched, nor is its
 * salloc/srun answered, and its time does not count until they have all registered (Slurm's
 * JOB_CONFIGURING bit, shown as CONFIGURING/CF). */
#define DROVER_JOB_FLAG_CONFIGURING 0x4000u
/* A federated job's copy that is not scheduled here: the origin's while a sibling elsewhere runs
 * it (or when it may not run on the origin), a sibling's that the origin revoked (Slurm's bit).
 * The commands hide such copies (sacct -D, squeue --sibling show them). */
#define DROVER_JOB_FLAG_REVOKED 0x00080000u
/* Drover's own: an administrator set the priority (scontrol update Priority=, scontrol top), so
 * the priority plugin leaves it as it is (Slurm keeps this beside the state, not in it). */
#define DROVER_JOB_FLAG_PRIO_SET 0x80000000u
/* Drover's own: the job was preempted to end (PreemptMode=CANCEL): it ends PREEMPTED. */
#define DROVER_JOB_FLAG_PREEMPTED 0x40000000u

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
    int32_t derived_exit_status = 0; // the highest of its srun steps' (exit code, then signal)
    Hold hold = Hold::None;
    bool exclusive = false;
    bool oversubscribe = false;
    bool requeue = true;
    bool open_append = false;
    bool timed_out = false;          // the time limit was reached; the end is TIMEOUT
    bool kill_sent = false;          // a terminate was sent to the batch host
    bool requeue_when_ended = false; // scontrol requeue of a running job: pend again at its end
    bool hold_when_requeued = false;
    bool interactive = false; // salloc/srun: no batch script; ends when its srun/salloc says
    uint64_t mem_per_node_mb = 0;
    int64_t submit_time = 0, eligible_time = 0, start_time = 0, end_time = 0;
    std::string name, user_name, partition, account, reason;
    std::string work_dir, std_out, std_err, std_in, submit_host, comment, command;
    std::string qos;                 // -q/--qos as asked; empty: none (Slurm's "normal")
    std::vector<uint32_t> nodes;     // node indexes held, in order; nodes[0] is the batch host
    std::vector<uint32_t> node_cpus; // CPUs held on each of nodes

    // What the select plugin says the job holds on each node (when it tracks more than CPUs).
    struct NodeAlloc {
        uint64_t mem_mb = 0;
        std::string cpu_ids, gres;
    };
    std::vector<NodeAlloc> node_alloc; // parallel to nodes; empty when not tracked

    // Resources beyond nodes and CPUs.
    uint64_t mem_per_cpu_mb = 0, tmp_disk_mb = 0;
    uint32_t ntasks_per_node = 0, min_cpus_per_node = 0;
    uint32_t share = DROVER_SHARE_CORES;
    int32_t nice = 0;
    bool contiguous = false;
    bool kill_on_invalid_dep = false;
    uint32_t state_flags = 0; // DROVER_JOB_FLAG_*
    std::shared_ptr<const JobExtra> extra;

    // Arrays: a task has array_job_id set; the record with pending tasks also has array.
    uint32_t array_job_id = 0;
    uint32_t array_task_id = DROVER_NO_VAL;
    std::shared_ptr<ArrayInfo> array;            // owned by the array's pending record
    std::shared_ptr<const ArrayMeta> array_meta; // shared by the record and its tasks

    // The scheduler's forecast for a pending job.
    int64_t expected_start = 0;
    std::vector<uint32_t> sched_nodes;

    const JobExtra &ext() const; // extra, or an empty one
    JobExtra &mutable_extra();   // a private copy of extra to change
    bool is_array_record() const { return array != nullptr; }

    bool pending() const { return state == DROVER_JOB_PENDING; }
    bool running() const { return state == DROVER_JOB_RUNNING || state == DROVER_JOB_SUSPENDED; }
    bool finished() const { return !pending() && !running(); }
    bool configuring() const { return (state_flags & DROVER_JOB_FLAG_CONFIGURING) != 0; }
};

// The tasks the job's CPUs are counted for: its tasks, or with -O (overcommit) one per node, as
// Slurm sizes such an allocation (its tasks then share those CPUs).
inline uint32_t alloc_tasks(const Job &job) {
    return job.ext().overcommit ? std::max(1u, job.min_nodes) : job.num_tasks;
}

// The seconds the job has run by now, the time it spent suspended left out (Slurm's RunTime).
int64_t job_run_secs(const Job &job, int64_t now);
// When the running job reaches its time limit: its start moved on by the time it spent
// suspended. INT64_MAX without a limit, and while it is suspended (its clock is stopped).
int64_t job_limit_end(const Job &job);

// The name Slurm prints for a base state (PENDING, RUNNING, COMPLETED, ...).
const char *job_state_name(uint32_t state);

// Slurm's SIG_OOM: the raw status it records for an out-of-memory end, shown as ExitCode 0:125.
inline constexpr int32_t kSigOom = 253;

// The job's CPU ids on its node at position pos: what the select plugin allocated, else the
// node's first node_cpus[pos] CPUs. Steps take theirs from these; the batch step has them all.
std::vector<uint32_t> job_cpu_ids(const Job &job, std::size_t pos);
// The job's memory on its node at position pos, in MB (0: none allocated, so no limit).
uint64_t job_mem_on(const Job &job, std::size_t pos);

} // namespace drover::ctld
