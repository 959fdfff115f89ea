// srun_opts.cpp - srun/salloc options.
#include "cli/command_docs.hpp"
#include "cli/srun_opts.hpp"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include "cli/env_options.hpp"
#include "cli/gpu_count.hpp"
#include "cli/options.hpp"
#include "cli/scancel_args.hpp"
#include "cli/text.hpp"
#include "common/cpu_bind.hpp"
#include "common/gpu_bind.hpp"
#include "common/gres.hpp"
#include "common/mem_bind.hpp"
#include "common/rlimits.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

enum Id {
    kNtasks = 1,
    kNodes,
    kCpus,
    kMem,
    kMemPerCpu,
    kExact,
    kOverlap,
    kExclusive,
    kCpuBind,
    kName,
    kTime,
    kSignal,
    kLabel,
    kDist,
    kOut,
    kErr,
    kIn,
    kOpenMode,
    kWait,
    kKillBad,
    kGres,
    kExport,
    kMultiProg,
    kPty,
    kJobId,
    kPartition,
    kAccount,
    kNodeList,
    kExclude,
    kTasksPerNode,
    kQuiet,
    kComment,
    kConstraint,
    kGpus,
    kGpusPerNode,
    kGpusPerTask,
    kGpuBind,
    kUnbuffered,
    kChdir,
    kMpi,
    kHold,
    kImmediate,
    kNoShell,
    kClusters,
    kCpuFreq,
    kQos,
    kHint,
    kThreadsPerCore,
    kTasksPerSocket,
    kBcast,
    kCompress,
    kTasksPerCore,
    kMemBind,
    kCpusPerGpu,
    kMemPerGpu,
    kGpusPerSocket,
    kOvercommit,
    kTestOnly,
    kDependency,
    kMinCpus,
    kTmp,
    kLicenses,
    kReservation,
    kPropagate,
    kTaskProlog,
    kTaskEpilog,
    kHetGroup,
};

const OptSpec kSpecs[] = {
    {kNtasks, 'n', "ntasks", Arg::required},
    {kNodes, 'N', "nodes", Arg::required},
    {kCpus, 'c', "cpus-per-task", Arg::required},
    {kMem, 0, "mem", Arg::required},
    {kMemPerCpu, 0, "mem-per-cpu", Arg::required},
    {kExact, 0, "exact", Arg::none},
    {kOverlap, 0, "overlap", Arg::none},
    {kExclusive, 0, "exclusive", Arg::optional},
    {kCpuBind, 0, "cpu-bind", Arg::required},
    {kHint, 0, "hint", Arg::required},
    {kThreadsPerCore, 0, "threads-per-core", Arg::required},
    {kTasksPerSocket, 0, "ntasks-per-socket", Arg::required},
    {kCpuBind, 0, "cpu_bind", Arg::required},
    {kName, 'J', "job-name", Arg::required},
    {kTime, 't', "time", Arg::required},
    {kSignal, 0, "signal", Arg::required},
    {kLabel, 'l', "label", Arg::none},
    {kDist, 'm', "distribution", Arg::required},
    {kOut, 'o', "output", Arg::required},
    {kErr, 'e', "error", Arg::required},
    {kIn, 'i', "input", Arg::required},
    {kOpenMode, 0, "open-mode", Arg::required},
    {kWait, 'W', "wait", Arg::required},
    {kKillBad, 'K', "kill-on-bad-exit", Arg::optional},
    {kGres, 0, "gres", Arg::required},
    {kExport, 0, "export", Arg::required},
    {kMultiProg, 0, "multi-prog", Arg::none},
    {kPty, 0, "pty", Arg::none},
    {kJobId, 0, "jobid", Arg::required},
    {kPartition, 'p', "partition", Arg::required},
    {kAccount, 'A', "account", Arg::required},
    {kNodeList, 'w', "nodelist", Arg::required},
    {kExclude, 'x', "exclude", Arg::required},
    {kTasksPerNode, 0, "ntasks-per-node", Arg::required},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kQuiet, 'Q', "quiet", Arg::none},
    {kComment, 0, "comment", Arg::required},
    {kConstraint, 'C', "constraint", Arg::required},
    {kGpus, 'G', "gpus", Arg::required},
    {kGpusPerNode, 0, "gpus-per-node", Arg::required},
    {kGpusPerTask, 0, "gpus-per-task", Arg::required},
    {kGpuBind, 0, "gpu-bind", Arg::required},
    {kUnbuffered, 'u', "unbuffered", Arg::none},
    {kChdir, 'D', "chdir", Arg::required},
    {kMpi, 0, "mpi", Arg::required},
    {kHetGroup, 0, "het-group", Arg::required},
    {kHetGroup, 0, "pack-group", Arg::required}, // its name before Slurm 20.02
    {kOptHelp, 'h', "help", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kHold, 'H', "hold", Arg::none},
    {kImmediate, 'I', "immediate", Arg::optional},
    {kNoShell, 0, "no-shell", Arg::none},
    {kClusters, 'M', "clusters", Arg::required},
    {kCpuFreq, 0, "cpu-freq", Arg::required},
    {kQos, 'q', "qos", Arg::required},
    {kBcast, 0, "bcast", Arg::optional},
    {kTasksPerCore, 0, "ntasks-per-core", Arg::required},
    {kMemBind, 0, "mem-bind", Arg::required},
    {kMemBind, 0, "mem_bind", Arg::required},
    {kCpusPerGpu, 0, "cpus-per-gpu", Arg::required},
    {kMemPerGpu, 0, "mem-per-gpu", Arg::required},
    {kGpusPerSocket, 0, "gpus-per-socket", Arg::required},
    {kCompress, 0, "compress", Arg::optional},
    {kOvercommit, 'O', "overcommit", Arg::none},
    {kTestOnly, 0, "test-only", Arg::none},
    {kDependency, 'd', "dependency", Arg::required},
    {kMinCpus, 0, "mincpus", Arg::required},
    {kTmp, 0, "tmp", Arg::required},
    {kLicenses, 'L', "licenses", Arg::required},
    {kReservation, 0, "reservation", Arg::required},
    {kPropagate, 0, "propagate", Arg::optional},
    {kTaskProlog, 0, "task-prolog", Arg::required},
    {kTaskEpilog, 0, "task-epilog", Arg::required},
};

// What an option's handler gets: the request being built, the option, its value, and whether
// -n or -N was given (srun then does not take the task count from the batch environment).
struct OptCall {
    SrunRequest &r;
    const ParsedOpt &o;
    const std::string &v;
    bool &tasks_given, &nodes_given;
};
using OptHandler = void (*)(const OptCall &);

void set_signal(const OptCall &c) {
    std::string_view s = c.v;
    if (auto colon = s.find(':'); colon != std::string_view::npos) s = s.substr(colon + 1);
    std::size_t at = s.find('@');
    if (!parse_signal(s.substr(0, at)) ||
        (at != std::string_view::npos && !parse_u32(s.substr(at + 1))))
        throw ParseError("Invalid --signal specification: " + c.v);
    c.r.signal = c.v;
}

// --hint: Slurm's shorthands for one thread per core (compute_bound, nomultithread), one task
// per socket as well (memory_bound), or every thread (multithread).
void set_hint(const OptCall &c) {
    std::string h = to_lower(c.v);
    if (h != "compute_bound" && h != "memory_bound" && h != "multithread" && h != "nomultithread")
        throw ParseError("invalid --hint argument " + quoted(c.v));
    c.r.hint = h;
}

// -m NODES[:SOCKETS[:CORES]][,Pack|NoPack]; plane=N for the node level.
void set_distribution(const OptCall &c) {
    std::string v = to_lower(c.v.substr(0, c.v.find(',')));
    std::string d = v.substr(0, v.find_first_of(":="));
    std::string socket = v.find(':') == std::string::npos ? "" : v.substr(v.find(':') + 1);
    socket = socket.substr(0, socket.find(':'));
    bool node_ok = d == "block" || d == "cyclic" || d == "arbitrary" || d == "plane" || d == "*";
    bool socket_ok = socket.empty() || socket == "block" || socket == "cyclic" ||
                     socket == "fcyclic" || socket == "*";
    // plane=N: the plane's size (SLURM_DIST_PLANESIZE when "plane" comes alone).
    std::optional<uint32_t> size;
    if (d == "plane" && v.size() > 6 && v[5] == '=') size = parse_u32(v.substr(6, v.find(':') - 6));
    if (!node_ok || !socket_ok || (d == "plane" && v.size() > 5 && v[5] == '=' && !(size && *size)))
        throw ParseError("invalid --distribution " + quoted(c.v));
    c.r.distribution = d;
    c.r.plane_size = size.value_or(0);
    c.r.distribution_text = c.v;
    c.r.socket_distribution = socket == "*" ? "" : socket;
}

void set_open_mode(const OptCall &c) {
    if (c.v == "append" || c.v == "a")
        c.r.open_append = true;
    else if (c.v == "truncate" || c.v == "t")
        c.r.open_append = false;
    else
        throw ParseError("invalid --open-mode " + quoted(c.v));
}

void set_time(const OptCall &c) {
    try {
        c.r.time_limit_min = parse_time_limit(trim(c.v));
    } catch (const ParseError &) {
        throw ParseError("Invalid --time specification");
    }
}

void set_wait(const OptCall &c) {
    auto n = parse_u32(trim(c.v));
    if (!n) throw ParseError("invalid --wait " + quoted(c.v));
    c.r.wait_secs = *n;
}

void set_job_id(const OptCall &c) {
    auto n = parse_u32(trim(c.v));
    if (!n || *n == 0) throw ParseError("Invalid job id " + c.v);
    c.r.job_id = *n;
}

void warn_ignored(const OptCall &c) {
    c.r.warnings.push_back(c.o.spelled + " is not supported by Drover and was ignored");
}

// What each option does to the request.
constexpr std::pair<Id, OptHandler> kHandlers[] = {
    {kNtasks,
     [](const OptCall &c) {
         c.r.num_tasks = positive(c.v, "number of tasks");
         c.tasks_given = true;
     }},
    {kNodes,
     [](const OptCall &c) {
         std::tie(c.r.min_nodes, c.r.max_nodes) = node_count(c.v);
         c.nodes_given = true;
     }},
    {kCpus, [](const OptCall &c) { c.r.cpus_per_task = positive(c.v, "number of cpus per task"); }},
    {kMem, [](const OptCall &c) { c.r.mem_per_node_mb = size_mb(c.v, "--mem"); }},
    {kMemPerCpu, [](const OptCall &c) { c.r.mem_per_cpu_mb = size_mb(c.v, "--mem-per-cpu"); }},
    {kExact, [](const OptCall &c) { c.r.exact = true; }},
    {kOverlap, [](const OptCall &c) { c.r.overlap = true; }},
    {kExclusive, [](const OptCall &c) { c.r.exclusive = true; }},
    {kHint, set_hint},
    {kThreadsPerCore,
     [](const OptCall &c) { c.r.threads_per_core = positive(c.v, "number of threads per core"); }},
    {kTasksPerSocket,
     [](const OptCall &c) { c.r.ntasks_per_socket = positive(c.v, "number of tasks per socket"); }},
    {kCpuBind,
     [](const OptCall &c) {
         (void)parse_cpu_bind(c.v);
         c.r.cpu_bind = c.v;
     }},
    {kName, [](const OptCall &c) { c.r.job_name = c.v; }},
    {kTime, set_time},
    {kSignal, set_signal},
    {kLabel, [](const OptCall &c) { c.r.label = true; }},
    {kDist, set_distribution},
    {kOut, [](const OptCall &c) { c.r.std_out = c.v; }},
    {kErr, [](const OptCall &c) { c.r.std_err = c.v; }},
    {kIn, [](const OptCall &c) { c.r.std_in = c.v; }},
    {kOpenMode, set_open_mode},
    {kWait, set_wait},
    {kKillBad, [](const OptCall &c) { c.r.kill_on_bad_exit = !c.o.value || *c.o.value != "0"; }},
    {kGres,
     [](const OptCall &c) {
         if (!valid_gres_request(c.v)) throw ParseError(kInvalidGres);
         c.r.gres = c.v;
     }},
    {kExport, [](const OptCall &c) { c.r.export_spec = c.v; }},
    {kMultiProg, [](const OptCall &c) { c.r.multi_prog = true; }},
    {kPty, [](const OptCall &c) { c.r.pty = true; }},
    {kJobId, set_job_id},
    {kPartition, [](const OptCall &c) { c.r.partition = c.v; }},
    {kAccount, [](const OptCall &c) { c.r.account = c.v; }},
    {kNodeList, [](const OptCall &c) { c.r.req_nodes = c.v; }},
    {kExclude, [](const OptCall &c) { c.r.exc_nodes = c.v; }},
    {kTasksPerNode,
     [](const OptCall &c) { c.r.ntasks_per_node = positive(c.v, "--ntasks-per-node"); }},
    {kQuiet, [](const OptCall &c) { c.r.quiet = true; }},
    {kComment, [](const OptCall &c) { c.r.comment = c.v; }},
    {kQos, [](const OptCall &c) { c.r.qos = c.v; }},
    {kConstraint, [](const OptCall &c) { c.r.constraint = c.v; }},
    {kGpus, [](const OptCall &c) { c.r.gpus = gpu_count(c.v, "number of gpus").count; }},
    {kGpusPerNode,
     [](const OptCall &c) { c.r.gpus_per_node = gpu_count(c.v, "number of gpus per node").count; }},
    {kGpusPerTask,
     [](const OptCall &c) { c.r.gpus_per_task = gpu_count(c.v, "number of gpus per task").count; }},
    {kGpuBind,
     [](const OptCall &c) {
         (void)parse_gpu_bind(c.v);
         c.r.gpu_bind = c.v;
     }},
    {kUnbuffered, [](const OptCall &c) { c.r.unbuffered = true; }},
    {kChdir, [](const OptCall &c) { c.r.work_dir = c.v; }},
    {kMpi, [](const OptCall &c) { c.r.mpi = checked_mpi_type(c.v); }},
    {kHetGroup,
     [](const OptCall &c) {
         try {
             c.r.het_groups = parse_index_list(c.v); // "0", "0,2", "1-3"
         } catch (const std::exception &) {
             throw ParseError("Invalid --het-group value: " + c.v);
         }
     }},
    {kHold, [](const OptCall &c) { c.r.hold = true; }},
    {kImmediate,
     [](const OptCall &c) {
         c.r.immediate = c.o.value ? positive(*c.o.value, "--immediate") : 1u;
     }},
    {kNoShell, [](const OptCall &c) { c.r.no_shell = true; }},
    {kClusters, [](const OptCall &c) { c.r.clusters = c.v; }},
    {kCpuFreq, warn_ignored},
    {kBcast, [](const OptCall &c) { c.r.bcast = c.o.value.value_or(""); }},
    {kTasksPerCore,
     [](const OptCall &c) { c.r.ntasks_per_core = positive(c.v, "number of tasks per core"); }},
    {kCpusPerGpu,
     [](const OptCall &c) { c.r.cpus_per_gpu = positive(c.v, "number of cpus per gpu"); }},
    {kMemPerGpu, [](const OptCall &c) { c.r.mem_per_gpu_mb = size_mb(c.v, "--mem-per-gpu"); }},
    {kGpusPerSocket, warn_ignored},
    {kMemBind,
     [](const OptCall &c) {
         (void)parse_mem_bind(c.v);
         c.r.mem_bind = c.v;
     }},
    {kCompress, [](const OptCall &c) {}}, // --bcast's compression: the copy is sent as is
    {kOvercommit, [](const OptCall &c) { c.r.overcommit = true; }},
    {kTestOnly, [](const OptCall &c) { c.r.test_only = true; }},
    {kDependency, [](const OptCall &c) { c.r.dependency = std::string(trim(c.v)); }},
    {kMinCpus,
     [](const OptCall
            &c) { c.r.min_cpus_per_node = positive(c.v, "minimum number of cpus per node"); }},
    {kTmp, [](const OptCall &c) { c.r.tmp_disk_mb = size_mb(c.v, "temporary disk size"); }},
    {kLicenses, [](const OptCall &c) { c.r.licenses = c.v; }},
    {kReservation, [](const OptCall &c) { c.r.reservation = c.v; }}, // the controller checks it
    {kPropagate, [](const OptCall &c) { c.r.propagate = check_propagate(c.o.value.value_or("")); }},
    {kTaskProlog, [](const OptCall &c) { c.r.task_prolog = c.v; }},
    {kTaskEpilog, [](const OptCall &c) { c.r.task_epilog = c.v; }},
};

} // namespace

const std::vector<std::string> &mpi_types() {
    static const std::vector<std::string> types{"none", "pmi2", "pmix"};
    return types;
}

std::string checked_mpi_type(const std::string &type) {
    if (type == "list") return type;
    if (type == "openmpi") return "none"; // an old name Slurm still takes for none
    if (type == kPmixVersioned) return "pmix";
    for (const auto &t : mpi_types())
        if (t == type) return type;
    throw ParseError("Invalid MPI type '" + type + "', --mpi=list for acceptable types");
}

namespace {

// --cpu-bind=verbose (or v) alone: the one binding --hint leaves to the user.
bool verbose_only(const std::string &bind) {
    CpuBind b = parse_cpu_bind(bind);
    return b.kind == CpuBind::unset && b.level == CpuBind::any;
}

// The GPU options the batch environment carries (what sbatch or salloc was given), unless srun
// was given its own.
void inherit_gpus(SrunRequest &r, const std::vector<std::pair<std::string, std::string>> &env) {
    if (!r.job_id || r.gpus || r.gpus_per_node || r.gpus_per_task || !r.gres.empty()) {
    } else if (const std::string *g = env_value(env, "SLURM_GPUS_PER_TASK")) {
        r.gpus_per_task = gpu_count(*g, "number of gpus per task").count;
    } else if (const std::string *n = env_value(env, "SLURM_GPUS_PER_NODE")) {
        r.gpus_per_node = gpu_count(*n, "number of gpus per node").count;
    }
    if (const std::string *b = env_value(env, "SLURM_GPU_BIND"); b && r.gpu_bind.empty()) {
        (void)parse_gpu_bind(*b);
        r.gpu_bind = *b;
    }
}

// srun's input variables (its man page's list) as the options they stand for, unless the command
// line gives them. SLURM_JOB_NAME only outside an allocation, so that steps are not all named
// after their batch job.
constexpr EnvOption kEnvOptions[] = {
    {"SLURM_ACCOUNT", kAccount},
    {"SLURM_PARTITION", kPartition},
    {"SLURM_QOS", kQos},
    {"SLURM_RESERVATION", kReservation},
    {"SLURM_TASK_PROLOG", kTaskProlog},
    {"SLURM_TASK_EPILOG", kTaskEpilog},
    {"SLURM_TIMELIMIT", kTime},
    {"SLURM_JOB_NAME", kName},
    {"SLURM_LABELIO", kLabel, EnvValue::yes_no},
    {"SLURM_UNBUFFEREDIO", kUnbuffered, EnvValue::yes_no},
    {"SLURM_KILL_BAD_EXIT", kKillBad},
    {"SLURM_OPEN_MODE", kOpenMode},
    {"SLURM_WAIT", kWait},
    {"SLURM_WORKING_DIR", kChdir},
    {"SLURM_STDOUTMODE", kOut},
    {"SLURM_STDERRMODE", kErr},
    {"SLURM_STDINMODE", kIn},
    {"SLURM_CONSTRAINT", kConstraint},
    {"SLURM_DEPENDENCY", kDependency},
    {"SLURM_OVERCOMMIT", kOvercommit, EnvValue::yes_no},
    {"SLURM_EXPORT_ENV", kExport},
    {"SLURM_EXACT", kExact, EnvValue::yes_no},
    {"SLURM_OVERLAP", kOverlap, EnvValue::yes_no},
};

// The options to apply in order: the variables', then the command line's.
std::vector<ParsedOpt> with_input_variables(const EnvVars &env, std::vector<ParsedOpt> given) {
    std::vector<ParsedOpt> all = with_env_options(env, kEnvOptions, std::move(given));
    if (env_value(env, "SLURM_JOB_ID"))
        std::erase_if(all, [](const ParsedOpt &o) { return o.spelled == "SLURM_JOB_NAME"; });
    return all;
}

// --het-group=K in a heterogeneous job's allocation: the variables of component K (its job id,
// its task count) stand for the job's (suffix "_HET_GROUP_K"); "" outside one, or for K = 0
// when the allocation is not heterogeneous. Slurm's refusal for a component it does not have.
std::string het_group_suffix(const SrunRequest &r, const EnvVars &env) {
    if (r.het_groups.empty()) return {};
    if (r.het_groups.size() > 1)
        throw ParseError("--het-group with more than one component is not supported yet");
    const uint32_t k = r.het_groups.front();
    const std::string *size = env_value(env, "SLURM_HET_SIZE");
    const uint32_t count = size ? parse_u32(*size).value_or(1) : 1;
    if (k >= count)
        throw ParseError("Attempt to run a job step with het group value of " + str_u(k) +
                         ", but the job allocation has maximum value of " + str_u(count - 1));
    return size ? "_HET_GROUP_" + str_u(k) : std::string();
}

// The environment as component suffix's own: each VAR_HET_GROUP_K of that component becomes VAR,
// and a variable that any component has its own of (the leader's) is dropped; the CPUs per task
// srun reads are the component's.
EnvVars het_scoped(const EnvVars &env, const std::string &suffix) {
    EnvVars out;
    std::set<std::string> per_component;
    for (const auto &[k, v] : env)
        if (auto at = k.find("_HET_GROUP_"); at != std::string::npos)
            per_component.insert(k.substr(0, at));
    for (const auto &[k, v] : env)
        if (!per_component.count(k) && k != "SRUN_CPUS_PER_TASK" &&
            k.find("_HET_GROUP_") == std::string::npos)
            out.emplace_back(k, v);
    for (const auto &[k, v] : env)
        if (k.ends_with(suffix)) out.emplace_back(k.substr(0, k.size() - suffix.size()), v);
    if (const std::string *c = env_value(out, "SLURM_CPUS_PER_TASK"))
        out.emplace_back("SRUN_CPUS_PER_TASK", *c);
    return out;
}

// Inside an allocation srun takes its job and task count from the batch environment (in a
// heterogeneous job's, --het-group's component's).
void inherit_allocation(SrunRequest &r, const std::vector<std::pair<std::string, std::string>> &all,
                        bool tasks_given, bool nodes_given) {
    const std::string het = r.job_id ? std::string() : het_group_suffix(r, all);
    const EnvVars scoped = het.empty() ? EnvVars() : het_scoped(all, het);
    const EnvVars &env = het.empty() ? all : scoped;
    if (!r.job_id)
        if (const std::string *id = env_value(env, "SLURM_JOB_ID")) {
            auto n = parse_u32(*id);
            if (n && *n) r.job_id = *n;
        }
    // (-m arbitrary: a task for each name of its host list unless -n says otherwise)
    const std::string *ntasks = env_value(env, "SLURM_NTASKS");
    if (!ntasks) ntasks = env_value(env, "SLURM_NPROCS"); // its older name
    if (r.job_id && !tasks_given && !nodes_given && !r.ntasks_per_node &&
        r.distribution != "arbitrary" && ntasks)
        if (auto n = parse_u32(*ntasks); n && *n) r.num_tasks = *n;
    if (const std::string *c = env_value(env, "SRUN_CPUS_PER_TASK"); c && !r.cpus_per_task)
        if (auto n = parse_u32(*c); n && *n) r.cpus_per_task = *n;
    inherit_gpus(r, env);
    if (const std::string *m = env_value(env, "SLURM_MPI_TYPE"); m && r.mpi.empty())
        r.mpi = checked_mpi_type(*m);
    if (const std::string *b = env_value(env, "SLURM_CPU_BIND"); b && r.cpu_bind.empty()) {
        (void)parse_cpu_bind(*b);
        r.cpu_bind = *b;
    }
    if (const std::string *b = env_value(env, "SLURM_BCAST"); b && !r.bcast) r.bcast = *b;
    if (const std::string *m = env_value(env, "SLURM_MEM_BIND"); m && r.mem_bind.empty()) {
        (void)parse_mem_bind(*m);
        r.mem_bind = *m;
    }
    if (r.distribution == "plane" && !r.plane_size) {
        const std::string *p = env_value(env, "SLURM_DIST_PLANESIZE");
        auto n = p ? parse_u32(*p) : std::nullopt;
        if (!n || !*n) throw ParseError("invalid --distribution 'plane': no plane size");
        r.plane_size = *n;
    }
    if (r.min_nodes && r.num_tasks && r.num_tasks < r.min_nodes) {
        r.warnings.push_back("can't run " + std::to_string(r.num_tasks) + " processes on " +
                             std::to_string(r.min_nodes) + " nodes, setting nnodes to " +
                             std::to_string(r.num_tasks));
        r.min_nodes = r.max_nodes = r.num_tasks;
    }
}

// --cpus-per-gpu and --mem-per-gpu as the step's own sizes: with --gpus-per-task a task's CPUs
// and each CPU's memory; with --gpus-per-node (or --gres=gpu:N) the memory of each node. Other
// combinations are warned of and ignored (the controller sizes steps by tasks and nodes).
void per_gpu_resources(SrunRequest &r) {
    constexpr uint64_t kMaxCpus = 0xfffffffe, kMaxMb = uint64_t(1) << 40;
    if (r.cpus_per_gpu && r.gpus_per_task) {
        uint64_t cpus = uint64_t(r.cpus_per_gpu) * r.gpus_per_task;
        if (cpus > kMaxCpus) throw ParseError("invalid number of cpus per gpu: too many CPUs");
        r.cpus_per_task = uint32_t(cpus);
        r.exact = true; // only the CPUs so asked for, as Slurm's --cpus-per-gpu
    } else if (r.cpus_per_gpu) {
        r.warnings.push_back("--cpus-per-gpu applies with --gpus-per-task only and was ignored");
    }
    if (!r.mem_per_gpu_mb) return;
    if (r.mem_per_gpu_mb > kMaxMb) throw ParseError("invalid --mem-per-gpu: too large");
    uint64_t cpus = r.cpus_per_task ? r.cpus_per_task : 1;
    // --gres=gpu:N asks for N GPUs on each node, as --gpus-per-node=N does.
    uint64_t per_node =
        r.gpus_per_node ? r.gpus_per_node : gres_total(parse_gres_request(r.gres), "gpu");
    if (per_node) {
        r.mem_per_node_mb = r.mem_per_gpu_mb * std::min<uint64_t>(per_node, 1u << 20);
    } else if (r.gpus_per_task) {
        r.mem_per_cpu_mb = (r.mem_per_gpu_mb * r.gpus_per_task + cpus - 1) / cpus;
        r.exact = true; // memory per CPU of the tasks' CPUs, not of every CPU of the node
    } else {
        r.warnings.push_back(
            "--mem-per-gpu applies with --gpus-per-node or --gpus-per-task only and was ignored");
    }
}

} // namespace

SrunRequest parse_srun(std::span<const std::string> args,
                       const std::vector<std::pair<std::string, std::string>> &env,
                       const std::string &prog) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/true);
    SrunRequest r;
    bool tasks_given = false, nodes_given = false;
    if (prog == "srun") pa.opts = with_input_variables(env, std::move(pa.opts));
    for (const auto &o : pa.opts) {
        if (take_common(r, o)) continue;
        const std::string v = o.value.value_or("");
        bool from_env = o.spelled.starts_with("SLURM_");
        try {
            for (const auto &[id, handler] : kHandlers)
                if (id == o.id) handler({r, o, v, tasks_given, nodes_given});
        } catch (const ParseError &e) {
            if (!from_env) throw;
            throw ParseError(o.spelled + ": " + e.what());
        }
        if (from_env) continue; // srun -v lists what the command line gave
        for (const auto &spec : kSpecs)
            if (spec.id == o.id) {
                r.given.emplace_back(spec.long_name, o.value.value_or("set"));
                break;
            }
    }
    r.argv = pa.positionals;
    if ((r.mem_per_node_mb != 0) + (r.mem_per_cpu_mb != 0) + (r.mem_per_gpu_mb != 0) > 1)
        throw ParseError(r.mem_per_gpu_mb ? "--mem, --mem-per-cpu, and --mem-per-gpu are mutually "
                                            "exclusive."
                                          : "--mem and --mem-per-cpu are mutually exclusive.");
    if (r.cpus_per_gpu && r.cpus_per_task)
        throw ParseError("--cpus-per-gpu is mutually exclusive with --cpus-per-task");
    if (!r.hint.empty() && (r.threads_per_core || r.ntasks_per_core ||
                            (!r.cpu_bind.empty() && !verbose_only(r.cpu_bind))))
        throw ParseError("Following options are mutually exclusive with --hint: --ntasks-per-core, "
                         "--threads-per-core, -B and --cpu-bind (other then --cpu-bind=verbose)");
    if (r.overlap && r.exclusive && prog == "srun")
        throw ParseError("--exclusive and --overlap are mutually exclusive");
    if (prog == "srun") inherit_allocation(r, env, tasks_given, nodes_given);
    per_gpu_resources(r); // after the GPUs a batch job's environment gives
    return r;
}

std::span<const OptSpec> srun_options() {
    return kSpecs;
}

} // namespace drover::cli
