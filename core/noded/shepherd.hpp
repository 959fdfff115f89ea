// shepherd.hpp - the step supervisor: the process that runs one step's tasks on a node, a batch
// script (the job's "batch" step, one task) as well as the tasks of a step srun launched.
//
// droverd forks a shepherd per step and node (supervisor.hpp); the proctrack plugin puts it in the
// step's container before it runs, so every task it forks, and everything those fork, is tracked.
// The shepherd stays root (as slurmstepd does: the user cannot kill what reports their step's
// end), forks the tasks, each of which drops to the user (privileges.hpp) and execs, waits for
// each and writes what happened to status_fd as ShepherdRecord's, and the same records to
// record_fd (a file in droverd's spool). It ignores the signals sent to the container (the tasks
// get them) and exits when its last task has.
//
// Neither dies with droverd: when droverd is killed the shepherd goes on, its records still reach
// the spool, and it drains the tasks' output pipes (which would otherwise fill, or break) until
// the tasks end; a restarted droverd reads the records to learn how the step ended.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/cpu_bind.hpp"
#include "common/mem_bind.hpp"
#include "noded/privileges.hpp"
#include "noded/task_scripts.hpp"

namespace drover::noded {

struct ShepherdRecord {
    // Failed: the task never ran (a failed Prolog or fork); NoStream: a batch script's standard
    // stream could not be opened (an Exited record follows).
    enum Kind : uint32_t { Started = 1, Exited = 2, Failed = 3, NoStream = 4 };
    uint32_t kind = 0;
    uint32_t task = 0;  // global task id
    int32_t value = 0;  // Started: pid; Exited, Failed: raw wait status; NoStream: errno
    int32_t detail = 0; // NoStream: which stream (0 stdin, 1 stdout, 2 stderr)
    int64_t user_usec = 0, sys_usec = 0, max_rss_kb = 0;
};
static_assert(sizeof(ShepherdRecord) == 40);

// A task's (or batch script's) end as a record, and the usage a record carries.
ShepherdRecord exited_record(uint32_t task, int status, const struct rusage &ru);
struct rusage rusage_of(const ShepherdRecord &r);
// Every whole record in a records file (none when it is missing).
std::vector<ShepherdRecord> read_records(const std::string &path);

struct ShepherdTask {
    uint32_t task_id = 0;                     // SLURM_PROCID
    uint32_t local_id = 0;                    // SLURM_LOCALID
    int in_fd = -1, out_fd = -1, err_fd = -1; // pipe ends, or -1 to open the paths below
    std::string in_path, out_path, err_path;  // files (opened as the user); empty = the fd
    std::vector<std::string> argv;            // empty = the step's argv
    std::vector<std::string> env;             // "KEY=value" of its own, over the step's
    std::string note;                         // written on its standard error before it runs
    int pmi_fd = -1; // its end of its PMI channel (srun --mpi=pmi2): fd kPmiFd in the task
    std::vector<uint32_t> cpus; // the CPUs it is bound to (task/affinity); empty: unbound
    std::vector<uint32_t> mems; // its NUMA nodes (--mem-bind); empty: no policy
};

// The descriptor a task's PMI channel has in the task (its PMI_FD).
inline constexpr int kPmiFd = 3;

struct ShepherdSpec {
    uint32_t job_id = 0, step_id = 0;
    RunAs user; // who the tasks run as
    std::string work_dir;
    std::vector<std::string> argv;
    std::vector<std::string> env; // shared by every task; per-task variables are added
    std::vector<ShepherdTask> tasks;
    bool open_append = false;
    int status_fd = -1;         // droverd's pipe
    int record_fd = -1;         // the spool's records file (append)
    std::vector<int> drain_fds; // read ends of the tasks' output, drained once droverd is gone
    std::string prolog;         // run as root first, when set
    std::string job_node_list;
    std::string node; // this node's name (SLURMD_NODENAME for the Prolog)
    int pty_fd = -1;  // --pty: the terminal task 0 runs on (it becomes the session's)
    // The batch step, as sbatch users have always seen it: its streams must all open (one that
    // cannot is a NoStream record, reported as the job's failure to launch, and the script never
    // runs), a script that cannot be executed exits 127 as in a shell, and it has no per-task
    // variables (SLURM_PROCID...). Its process is named drover_keeper.
    bool batch = false;
    CpuBind cpu_bind; // --cpu-bind as applied: its verbose flag and how the verbose line names it
    MemBind mem_bind; // --mem-bind as applied (prefer, verbose)
    TaskScripts task_scripts; // TaskProlog/TaskEpilog and srun's, around each task
};

// Runs in the forked child; never returns. For a batch script it is the script's keeper: the
// script's exit status goes to its parent only, so this process (in the job's container and
// session, ignoring the container's signals) is what lets a restarted droverd learn it.
[[noreturn]] void run_shepherd(const ShepherdSpec &spec);

} // namespace drover::noded
