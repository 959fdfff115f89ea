// srun_opts.hpp - srun's and salloc's options (and the SLURM_* variables they read) as one
// request; no I/O, so tests and the fuzzer can drive it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.hpp"
#include "common/error.hpp"

namespace drover::cli {

struct SrunRequest : CommonFlags {
    // The allocation (used when srun or salloc makes one).
    std::string partition, account, comment, qos, constraint, req_nodes, exc_nodes, gres;
    uint32_t min_nodes = 0, max_nodes = 0;
    uint32_t num_tasks = 0;     // 0: not given
    uint32_t cpus_per_task = 0; // 0: not given (1)
    uint32_t ntasks_per_node = 0;
    uint64_t mem_per_node_mb = 0, mem_per_cpu_mb = 0;
    uint32_t time_limit_min = 0xfffffffe;
    uint32_t gpus = 0, gpus_per_node = 0, gpus_per_task = 0; // -G, --gpus-per-node/-task
    uint32_t cpus_per_gpu = 0;   // --cpus-per-gpu (becomes -c with --gpus-per-task)
    uint64_t mem_per_gpu_mb = 0; // --mem-per-gpu (becomes --mem or --mem-per-cpu)
    std::string job_name;
    bool exclusive = false, hold = false;
    bool overcommit = false;              // -O (or SLURM_OVERCOMMIT): tasks may outnumber CPUs
    std::string licenses;                 // -L/--licenses, as written
    std::string reservation;              // --reservation, as written
    std::optional<std::string> propagate; // --propagate's limits as written ("": all)
    std::string task_prolog, task_epilog; // --task-prolog/--task-epilog: run around each task
    bool test_only = false;               // --test-only: when it would start; nothing is run
    std::string dependency;               // -d, as written
    uint32_t min_cpus_per_node = 0;       // --mincpus
    uint64_t tmp_disk_mb = 0;             // --tmp
    // The step.
    uint32_t job_id = 0; // --jobid or SLURM_JOB_ID; 0: make an allocation
    bool exact = false, overlap = false;
    std::string cpu_bind, distribution, signal;           // --cpu-bind (checked), -m's node level
    std::string socket_distribution;                      // -m's second level; empty: cyclic
    std::string hint;                                     // --hint (lower case, checked)
    uint32_t threads_per_core = 0, ntasks_per_socket = 0; // 0: not given
    uint32_t ntasks_per_core = 0;                         // 0: not given
    uint32_t plane_size = 0;                              // -m plane=N (or SLURM_DIST_PLANESIZE)
    std::string distribution_text; // -m as given (SLURM_DISTRIBUTION for the tasks)
    std::string mem_bind;          // --mem-bind as given (checked); empty: none
    std::string gpu_bind;          // --gpu-bind as given (checked); empty: none given
    std::string mpi;               // --mpi or SLURM_MPI_TYPE (checked_mpi_type); empty: MpiDefault
    // --het-group: the components of a heterogeneous job's allocation the step runs in (empty:
    // the first, as Slurm's default).
    std::vector<uint32_t> het_groups;
    bool label = false, kill_on_bad_exit = false, pty = false, multi_prog = false;
    bool unbuffered = false, quiet = false;
    std::optional<uint32_t> wait_secs; // -W
    std::string std_out, std_err, std_in;
    bool open_append = false;
    std::string export_spec = "ALL";
    std::string work_dir;
    std::vector<std::string> argv; // the program and its arguments
    std::vector<std::string> warnings;
    // The options given, by long name, with their values ("set" for a flag): what srun -v lists.
    std::vector<std::pair<std::string, std::string>> given;
    std::optional<uint32_t> immediate;   // -I[SECONDS]: give up unless allocated within (1 s)
    bool no_shell = false;               // salloc --no-shell
    std::optional<std::string> clusters; // -M: allocate on the first of these the store knows
    std::string mpmd; // srun A : B: the --multi-prog text for the components (mpmd.hpp)
    // --bcast[=DEST]: the program copied to the step's nodes first, and the copy run ("" : to
    // BcastParameters' DestDir, else the working directory, one file per node).
    std::optional<std::string> bcast;
};

// The MPI types srun serves (--mpi=list), and the versioned name pmix also answers to (the
// OpenPMIx drover-pmix is built with is version 4).
const std::vector<std::string> &mpi_types();
inline constexpr const char *kPmixVersioned = "pmix_v4";
// type as srun takes it ("list", or one of mpi_types(); "openmpi" is "none"); throws ParseError
// with Slurm's message for any other.
std::string checked_mpi_type(const std::string &type);

// Parses srun's (or salloc's: prog "salloc") arguments; env is the caller's environment, read
// for SLURM_JOB_ID, SLURM_NTASKS, SLURM_GPUS_PER_TASK, SLURM_GPUS_PER_NODE, SLURM_GPU_BIND
// (srun inside an allocation) and SLURM_MPI_TYPE. Throws UsageError for an
// unknown option or missing argument, drover::ParseError for a bad value ("invalid ...").
SrunRequest parse_srun(std::span<const std::string> args,
                       const std::vector<std::pair<std::string, std::string>> &env,
                       const std::string &prog = "srun");

} // namespace drover::cli
