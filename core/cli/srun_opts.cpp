// srun_opts.cpp - srun/salloc options.
#include "cli/srun_opts.hpp"

#include <tuple>

#include "cli/options.hpp"
#include "cli/scancel_args.hpp"
#include "cli/text.hpp"
#include "common/gres.hpp"
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
    kVerbose,
    kQuiet,
    kComment,
    kConstraint,
    kGpus,
    kUnbuffered,
    kChdir,
    kMpi,
    kHelp,
    kUsage,
    kVersion,
    kHold,
    kImmediate,
    kNoShell,
    kCpuFreq,
    kQos,
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
    {kVerbose, 'v', "verbose", Arg::none},
    {kQuiet, 'Q', "quiet", Arg::none},
    {kComment, 0, "comment", Arg::required},
    {kConstraint, 'C', "constraint", Arg::required},
    {kGpus, 'G', "gpus", Arg::required},
    {kUnbuffered, 'u', "unbuffered", Arg::none},
    {kChdir, 'D', "chdir", Arg::required},
    {kMpi, 0, "mpi", Arg::required},
    {kHelp, 'h', "help", Arg::none},
    {kUsage, 0, "usage", Arg::none},
    {kVersion, 'V', "version", Arg::none},
    {kHold, 'H', "hold", Arg::none},
    {kImmediate, 'I', "immediate", Arg::optional},
    {kNoShell, 0, "no-shell", Arg::none},
    {kCpuFreq, 0, "cpu-freq", Arg::required},
    {kQos, 'q', "qos", Arg::required},
};

const std::string *find_env(const std::vector<std::pair<std::string, std::string>> &env,
                            std::string_view key) {
    for (const auto &[k, v] : env)
        if (k == key) return &v;
    return nullptr;
}

} // namespace

SrunRequest parse_srun(std::span<const std::string> args,
                       const std::vector<std::pair<std::string, std::string>> &env,
                       const std::string &prog) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/true);
    SrunRequest r;
    bool tasks_given = false, nodes_given = false;
    for (const auto &o : pa.opts) {
        const std::string v = o.value.value_or("");
        switch (static_cast<Id>(o.id)) {
        case kNtasks:
            r.num_tasks = positive(v, "number of tasks");
            tasks_given = true;
            break;
        case kNodes:
            std::tie(r.min_nodes, r.max_nodes) = node_count(v);
            nodes_given = true;
            break;
        case kCpus:
            r.cpus_per_task = positive(v, "number of cpus per task");
            break;
        case kMem:
            r.mem_per_node_mb = size_mb(v, "--mem");
            break;
        case kMemPerCpu:
            r.mem_per_cpu_mb = size_mb(v, "--mem-per-cpu");
            break;
        case kExact:
            r.exact = true;
            break;
        case kOverlap:
            r.overlap = true;
            break;
        case kExclusive:
            r.exclusive = true;
            break;
        case kCpuBind:
            r.cpu_bind = v;
            break;
        case kName:
            r.job_name = v;
            break;
        case kTime:
            try {
                r.time_limit_min = parse_time_limit(trim(v));
            } catch (const ParseError &) {
                throw ParseError("Invalid time limit specification");
            }
            break;
        case kSignal: {
            std::string_view s = v;
            if (auto c = s.find(':'); c != std::string_view::npos) s = s.substr(c + 1);
            std::size_t at = s.find('@');
            if (!parse_signal(s.substr(0, at)) ||
                (at != std::string_view::npos && !parse_u32(s.substr(at + 1))))
                throw ParseError("Invalid --signal specification: " + v);
            r.signal = v;
            break;
        }
        case kLabel:
            r.label = true;
            break;
        case kDist: {
            std::string d = to_lower(v.substr(0, v.find_first_of(":,")));
            if (d != "block" && d != "cyclic" && d != "arbitrary" && d != "plane" && d != "*")
                throw ParseError("invalid --distribution " + quoted(v));
            r.distribution = d;
            break;
        }
        case kOut:
            r.std_out = v;
            break;
        case kErr:
            r.std_err = v;
            break;
        case kIn:
            r.std_in = v;
            break;
        case kOpenMode:
            if (v == "append" || v == "a")
                r.open_append = true;
            else if (v == "truncate" || v == "t")
                r.open_append = false;
            else
                throw ParseError("invalid --open-mode " + quoted(v));
            break;
        case kWait: {
            auto n = parse_u32(trim(v));
            if (!n) throw ParseError("invalid --wait " + quoted(v));
            r.wait_secs = *n;
            break;
        }
        case kKillBad:
            r.kill_on_bad_exit = !o.value || *o.value != "0";
            break;
        case kGres:
            if (!valid_gres_request(v)) throw ParseError(kInvalidGres);
            r.gres = v;
            break;
        case kExport:
            r.export_spec = v;
            break;
        case kMultiProg:
            r.multi_prog = true;
            break;
        case kPty:
            r.pty = true;
            break;
        case kJobId: {
            auto n = parse_u32(trim(v));
            if (!n || *n == 0) throw ParseError("Invalid job id " + v);
            r.job_id = *n;
            break;
        }
        case kPartition:
            r.partition = v;
            break;
        case kAccount:
            r.account = v;
            break;
        case kNodeList:
            r.req_nodes = v;
            break;
        case kExclude:
            r.exc_nodes = v;
            break;
        case kTasksPerNode:
            r.ntasks_per_node = positive(v, "--ntasks-per-node");
            break;
        case kVerbose:
            ++r.verbose;
            break;
        case kQuiet:
            r.quiet = true;
            break;
        case kComment:
            r.comment = v;
            break;
        case kQos:
            r.qos = v;
            break;
        case kConstraint:
            r.constraint = v;
            break;
        case kGpus:
            r.gpus = positive(v.substr(v.rfind(':') == std::string::npos ? 0 : v.rfind(':') + 1),
                              "--gpus");
            break;
        case kUnbuffered:
            r.unbuffered = true;
            break;
        case kChdir:
            r.work_dir = v;
            break;
        case kMpi:
            if (v != "none" && v != "pmi2" && v != "pmix")
                throw ParseError("invalid --mpi type " + quoted(v));
            break;
        case kHelp:
            r.help = true;
            break;
        case kUsage:
            r.usage = true;
            break;
        case kVersion:
            r.version = true;
            break;
        case kHold:
            r.hold = true;
            break;
        case kImmediate:
            r.immediate = true;
            break;
        case kNoShell:
            r.no_shell = true;
            break;
        case kCpuFreq:
            r.warnings.push_back(o.spelled + " is not supported by Drover and was ignored");
            break;
        }
    }
    r.argv = pa.positionals;
    if (r.mem_per_node_mb && r.mem_per_cpu_mb)
        throw ParseError("--mem and --mem-per-cpu are mutually exclusive.");
    if (r.overlap && r.exclusive && prog == "srun")
        throw ParseError("--exclusive and --overlap are mutually exclusive");
    // Inside an allocation srun takes its job and task count from the batch environment.
    if (prog == "srun") {
        if (!r.job_id)
            if (const std::string *id = find_env(env, "SLURM_JOB_ID")) {
                auto n = parse_u32(*id);
                if (n && *n) r.job_id = *n;
            }
        if (r.job_id && !tasks_given && !nodes_given && !r.ntasks_per_node)
            if (const std::string *nt = find_env(env, "SLURM_NTASKS"))
                if (auto n = parse_u32(*nt); n && *n) r.num_tasks = *n;
        if (const std::string *c = find_env(env, "SRUN_CPUS_PER_TASK"); c && !r.cpus_per_task)
            if (auto n = parse_u32(*c); n && *n) r.cpus_per_task = *n;
        if (r.min_nodes && r.num_tasks && r.num_tasks < r.min_nodes) {
            r.warnings.push_back("can't run " + std::to_string(r.num_tasks) + " processes on " +
                                 std::to_string(r.min_nodes) + " nodes, setting nnodes to " +
                                 std::to_string(r.num_tasks));
            r.min_nodes = r.max_nodes = r.num_tasks;
        }
    }
    return r;
}

} // namespace drover::cli
