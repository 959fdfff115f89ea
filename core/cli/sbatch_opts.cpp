// sbatch_opts.cpp - sbatch's option table and how each option, from any source, sets the request.
#include "cli/command_docs.hpp"
#include "cli/sbatch_opts.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <utility>

#include "cli/gpu_count.hpp"
#include "cli/scancel_args.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/gpu_bind.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "common/rlimits.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kJobName,
    kOutput,
    kError,
    kInput,
    kPartition,
    kNodes,
    kNtasks,
    kCpusPerTask,
    kTime,
    kMem,
    kMemPerCpu,
    kChdir,
    kAccount,
    kExport,
    kHold,
    kTestOnly,
    kWait,
    kWrap,
    kParsable,
    kComment,
    kQos,
    kExclusive,
    kOpenMode,
    kQuiet,
    kClusters,
    kClusterConstraint,
    kBegin,
    kArray,
    kDependency,
    kNtasksPerNode,
    kKillOnInvalidDep,
    kNice,
    kRequeue,
    kNoRequeue,
    kSignal,
    kDeadline,
    kMinCpus,
    kTmp,
    kGres,
    kGpus,
    kGpusPerNode,
    kGpusPerTask,
    kGpuBind,
    kConstraint,
    kNodelist,
    kExclude,
    kContiguous,
    kOversubscribe,
    kOvercommit,
    kLicenses,
    kReservation,
    kPropagate,
    kIgnoredBase = 1000, // + index into kIgnored
};

constexpr OptSpec kMain[] = {
    {kJobName, 'J', "job-name", Arg::required},
    {kOutput, 'o', "output", Arg::required},
    {kError, 'e', "error", Arg::required},
    {kInput, 'i', "input", Arg::required},
    {kPartition, 'p', "partition", Arg::required},
    {kNodes, 'N', "nodes", Arg::required},
    {kNtasks, 'n', "ntasks", Arg::required},
    {kNtasksPerNode, 0, "ntasks-per-node", Arg::required},
    {kCpusPerTask, 'c', "cpus-per-task", Arg::required},
    {kTime, 't', "time", Arg::required},
    {kMem, 0, "mem", Arg::required},
    {kMemPerCpu, 0, "mem-per-cpu", Arg::required},
    {kChdir, 'D', "chdir", Arg::required},
    {kChdir, 0, "workdir", Arg::required},
    {kAccount, 'A', "account", Arg::required},
    {kExport, 0, "export", Arg::required},
    {kHold, 'H', "hold", Arg::none},
    {kTestOnly, 0, "test-only", Arg::none},
    {kWait, 'W', "wait", Arg::none},
    {kWrap, 0, "wrap", Arg::required},
    {kParsable, 0, "parsable", Arg::none},
    {kComment, 0, "comment", Arg::required},
    {kQos, 'q', "qos", Arg::required},
    {kExclusive, 0, "exclusive", Arg::optional},
    {kOpenMode, 0, "open-mode", Arg::required},
    {kQuiet, 'Q', "quiet", Arg::none},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kOptHelp, 'h', "help", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
    {kClusters, 'M', "clusters", Arg::required},
    {kClusters, 0, "cluster", Arg::required},
    {kClusterConstraint, 0, "cluster-constraint", Arg::required},
    {kBegin, 'b', "begin", Arg::required},
    {kArray, 'a', "array", Arg::required},
    {kDependency, 'd', "dependency", Arg::required},
    {kKillOnInvalidDep, 0, "kill-on-invalid-dep", Arg::required},
    {kNice, 0, "nice", Arg::optional},
    {kRequeue, 0, "requeue", Arg::none},
    {kNoRequeue, 0, "no-requeue", Arg::none},
    {kSignal, 0, "signal", Arg::required},
    {kDeadline, 0, "deadline", Arg::required},
    {kMinCpus, 0, "mincpus", Arg::required},
    {kTmp, 0, "tmp", Arg::required},
    {kGres, 0, "gres", Arg::required},
    {kGpus, 'G', "gpus", Arg::required},
    {kGpusPerNode, 0, "gpus-per-node", Arg::required},
    {kGpusPerTask, 0, "gpus-per-task", Arg::required},
    {kGpuBind, 0, "gpu-bind", Arg::required},
    {kConstraint, 'C', "constraint", Arg::required},
    {kNodelist, 'w', "nodelist", Arg::required},
    {kExclude, 'x', "exclude", Arg::required},
    {kContiguous, 0, "contiguous", Arg::none},
    {kOversubscribe, 's', "oversubscribe", Arg::none},
    {kOvercommit, 'O', "overcommit", Arg::none},
    {kLicenses, 'L', "licenses", Arg::required},
    {kReservation, 0, "reservation", Arg::required},
    {kPropagate, 0, "propagate", Arg::optional},
};

// Options Slurm has and Drover accepts without acting on them. warn: say so on stderr (they
// change what a job gets); otherwise they are bookkeeping and ignored quietly.
struct Ignored {
    char short_name;
    const char *long_name;
    Arg arg;
    bool warn;
};

constexpr Ignored kIgnored[] = {
    {0, "mail-type", Arg::required, false},
    {0, "mail-user", Arg::required, false},
    {0, "get-user-env", Arg::optional, false},
    {0, "profile", Arg::required, false},
    {0, "acctg-freq", Arg::required, false},
    {0, "export-file", Arg::required, false},
    {0, "ignore-pbs", Arg::none, false},
    {'k', "no-kill", Arg::optional, false},
    {0, "wckey", Arg::required, false},
    {0, "uid", Arg::required, true},
    {0, "gid", Arg::required, true},
    {0, "gpus-per-socket", Arg::required, true},
    {0, "cpus-per-gpu", Arg::required, true},
    {0, "mem-per-gpu", Arg::required, true},
    {0, "gpu-freq", Arg::required, true},
    {'F', "nodefile", Arg::required, true},
    {0, "ntasks-per-socket", Arg::required, true},
    {0, "ntasks-per-core", Arg::required, true},
    {0, "ntasks-per-gpu", Arg::required, true},
    {0, "priority", Arg::required, true},
    {0, "switches", Arg::required, true},
    {'m', "distribution", Arg::required, true},
    {0, "hint", Arg::required, true},
    {0, "cpu-freq", Arg::required, true},
    {'S', "core-spec", Arg::required, true},
    {0, "thread-spec", Arg::required, true},
    {0, "sockets-per-node", Arg::required, true},
    {0, "cores-per-socket", Arg::required, true},
    {0, "threads-per-core", Arg::required, true},
    {'B', "extra-node-info", Arg::required, true},
    {0, "spread-job", Arg::none, true},
    {0, "use-min-nodes", Arg::none, true},
    {0, "delay-boot", Arg::required, true},
    {0, "time-min", Arg::required, true},
    {0, "reboot", Arg::none, true},
    {0, "container", Arg::required, true},
    {0, "network", Arg::required, true},
    {0, "power", Arg::required, true},
    {0, "mcs-label", Arg::required, true},
    {0, "bb", Arg::required, true},
    {0, "bbf", Arg::required, true},
    {0, "burst-buffer", Arg::required, true},
    {0, "tres-per-task", Arg::required, true},
    {0, "tres-bind", Arg::required, true},
};

const std::vector<OptSpec> &all_specs() {
    static const std::vector<OptSpec> specs = [] {
        std::vector<OptSpec> v(std::begin(kMain), std::end(kMain));
        int i = 0;
        for (const auto &ig : kIgnored)
            v.push_back({kIgnoredBase + i++, ig.short_name, ig.long_name, ig.arg});
        return v;
    }();
    return specs;
}

// Which memory options a group of sources set: the script and command line together, or the
// SBATCH_* variables (Slurm checks each group on its own, then lets the first win).
struct MemSeen {
    bool mem = false, per_cpu = false, per_gpu = false;
    int count() const { return int(mem) + int(per_cpu) + int(per_gpu); }
};

// Request plus what is only resolved at the end.
struct Pending {
    SbatchRequest req;
    std::optional<std::string> export_spec;
    std::optional<uint64_t> mem_mb, mem_per_cpu_mb; // the last value each was given
    std::optional<uint32_t> tasks_per_node;
    std::string gpus_per_node_type; // --gpus-per-node=TYPE:N
    bool name_set = false;
};

// --array: "0-15", "1,3,5", "0-15:4", each with an optional "%N" throttle. The controller decides
// the limits (MaxArraySize); this checks the form, so a bad directive names its line.
void check_array(std::string_view v) {
    auto bad = [&] { return ParseError("invalid job array specification " + quoted(v)); };
    std::string_view body = trim(v);
    if (auto pct = body.find('%'); pct != std::string_view::npos) {
        if (!parse_u32(body.substr(pct + 1))) throw bad();
        body = body.substr(0, pct);
    }
    if (body.empty()) throw bad();
    for (const auto &part : split(body, ',', /*keep_empty=*/true)) {
        std::string_view range = part;
        if (auto colon = range.find(':'); colon != std::string_view::npos) {
            auto step = parse_u32(range.substr(colon + 1));
            if (!step || *step == 0) throw bad();
            range = range.substr(0, colon);
        }
        std::size_t dash = range.find('-');
        auto lo = parse_u32(range.substr(0, dash));
        auto hi = dash == std::string_view::npos ? lo : parse_u32(range.substr(dash + 1));
        if (!lo || !hi || *hi < *lo) throw bad();
    }
}

// --signal=[{R|B}:]SIG[@TIME]: a known signal, a time in seconds up to 65535.
void check_signal(std::string_view v) {
    auto bad = [&] { return ParseError("invalid --signal specification " + quoted(v)); };
    std::string_view s = v;
    if (auto colon = s.find(':'); colon != std::string_view::npos) {
        std::string_view flags = s.substr(0, colon);
        if (flags.empty()) throw bad();
        for (char c : flags)
            if (c != 'R' && c != 'B' && c != 'r' && c != 'b') throw bad();
        s = s.substr(colon + 1);
    }
    std::size_t at = s.find('@');
    if (!parse_signal(s.substr(0, at))) throw bad();
    if (at != std::string_view::npos) {
        auto secs = parse_u32(s.substr(at + 1));
        if (!secs || *secs > 0xffff) throw bad();
    }
}

void warn_once(SbatchRequest &r, std::string w) {
    for (const auto &x : r.warnings)
        if (x == w) return;
    r.warnings.push_back(std::move(w));
}

// What an option's handler gets: the request being built, the option and its value.
struct OptCall {
    Pending &p;
    SbatchRequest &r;
    const ParsedOpt &o;
    const std::string &v;
    const SbatchContext &ctx;
    MemSeen &seen;
    bool from_script;
};
using OptHandler = void (*)(const OptCall &);

void set_exclusive(const OptCall &c) {
    if (!c.o.value || c.o.value->empty()) {
        c.r.exclusive = true;
        c.r.oversubscribe = false; // the later of the two wins, as in Slurm
    } else if (iequals(c.v, "user") || iequals(c.v, "mcs") || iequals(c.v, "topo")) {
        warn_once(c.r, "--exclusive=" + c.v + " is not supported by Drover yet and was ignored");
    } else {
        throw ParseError("invalid --exclusive value " + quoted(c.v));
    }
}

void set_open_mode(const OptCall &c) {
    if (iequals(c.v, "append") || iequals(c.v, "a"))
        c.r.open_mode_append = true;
    else if (iequals(c.v, "truncate") || iequals(c.v, "t"))
        c.r.open_mode_append = false;
    else
        throw ParseError("invalid open mode " + quoted(c.v) + " (expected append or truncate)");
}

void set_time(const OptCall &c) {
    try {
        c.r.time_limit_min = parse_time_limit(c.v);
    } catch (const ParseError &) {
        throw ParseError("Invalid --time specification");
    }
}

void set_begin(const OptCall &c) {
    try {
        int64_t t = parse_timestamp(c.v, c.ctx.now);
        c.r.begin_time = t > c.ctx.now ? t : 0;
    } catch (const ParseError &) {
        throw ParseError("invalid begin time " + quoted(c.v));
    }
}

void set_deadline(const OptCall &c) {
    try {
        c.r.deadline = parse_timestamp(c.v, c.ctx.now);
    } catch (const ParseError &) {
        throw ParseError("invalid deadline " + quoted(c.v));
    }
}

void set_kill_on_invalid_dep(const OptCall &c) {
    if (iequals(c.v, "yes"))
        c.r.kill_on_invalid_dep = 1;
    else if (iequals(c.v, "no"))
        c.r.kill_on_invalid_dep = 0;
    else
        throw ParseError("invalid --kill-on-invalid-dep value " + quoted(c.v) +
                         " (expected yes or no)");
}

void set_nice(const OptCall &c) {
    if (!c.o.value || c.o.value->empty()) {
        c.r.nice = 100; // Slurm's adjustment when none is given
        return;
    }
    std::string_view n = trim(c.v);
    bool neg = n.starts_with('-');
    if (neg || n.starts_with('+')) n.remove_prefix(1);
    auto mag = parse_u32(n);
    if (!mag || *mag > 2147483645u) throw ParseError("invalid nice value " + quoted(c.v));
    c.r.nice = neg ? -int32_t(*mag) : int32_t(*mag);
}

void set_gres(const OptCall &c) {
    // Slurm's words, whatever is wrong with it (the controller answers the same).
    if (!valid_gres_request(c.v)) throw ParseError(kInvalidGres);
    c.r.gres = format_gres(parse_gres_request(c.v)); // "none" gives none
}

void warn_gpu_types(const OptCall &c, const char *option) {
    warn_once(c.r, std::string(option) + "=" + c.v +
                       ": GPU types are not supported by Drover yet; any GPU may be given");
}

void set_gpus(const OptCall &c) {
    GpuCount g = gpu_count(c.v, "number of gpus");
    if (!g.type.empty()) warn_gpu_types(c, "--gpus");
    c.r.gpus = g.count;
}

void set_gpus_per_node(const OptCall &c) {
    GpuCount g = gpu_count(c.v, "number of gpus per node");
    c.r.gpus_per_node = g.count;
    // One type per node is what --gres=gpu:TYPE:N asks; resolved at the end.
    c.p.gpus_per_node_type = g.mixed ? std::string() : g.type;
    if (g.mixed) warn_gpu_types(c, "--gpus-per-node");
}

void set_gpus_per_task(const OptCall &c) {
    GpuCount g = gpu_count(c.v, "number of gpus per task");
    if (!g.type.empty()) warn_gpu_types(c, "--gpus-per-task");
    c.r.gpus_per_task = g.count;
}

// -w and -x: a node list that expands to at least one name.
void set_node_list(const OptCall &c) {
    const char *what = c.o.id == kNodelist ? "node list" : "excluded node list";
    try {
        if (hostlist_expand(trim(c.v), 1u << 20).empty()) throw ParseError("empty");
    } catch (const ParseError &) {
        throw ParseError(std::string("invalid ") + what + " " + quoted(c.v));
    }
    (c.o.id == kNodelist ? c.r.req_nodes : c.r.exc_nodes) = std::string(trim(c.v));
}

// -o, -e or -i: "none" is no file at all (/dev/null), as in Slurm, not a file named none.
std::string stream_file(const std::string &v) {
    return iequals(v, "none") ? "/dev/null" : v;
}

// What each option of kMain does to the request; apply hands the shared ones (--help, --usage,
// --version, --verbose) to take_common, and options not listed do nothing here.
constexpr std::pair<Id, OptHandler> kHandlers[] = {
    {kJobName,
     [](const OptCall &c) {
         c.r.name = c.v;
         c.p.name_set = true;
     }},
    {kOutput, [](const OptCall &c) { c.r.std_out = stream_file(c.v); }},
    {kError, [](const OptCall &c) { c.r.std_err = stream_file(c.v); }},
    {kInput, [](const OptCall &c) { c.r.std_in = stream_file(c.v); }},
    {kPartition, [](const OptCall &c) { c.r.partition = c.v; }},
    {kAccount, [](const OptCall &c) { c.r.account = c.v; }},
    {kComment, [](const OptCall &c) { c.r.comment = c.v; }},
    {kQos, [](const OptCall &c) { c.r.qos = c.v; }},
    {kChdir,
     [](const OptCall &c) {
         if (c.v.empty()) throw ParseError("invalid working directory ''");
         c.r.work_dir = c.v;
     }},
    {kNodes, [](const OptCall &c) { std::tie(c.r.min_nodes, c.r.max_nodes) = node_count(c.v); }},
    {kNtasks, [](const OptCall &c) { c.r.num_tasks = positive(c.v, "number of tasks"); }},
    {kNtasksPerNode,
     [](const OptCall &c) { c.p.tasks_per_node = positive(c.v, "number of tasks per node"); }},
    {kCpusPerTask,
     [](const OptCall &c) { c.r.cpus_per_task = positive(c.v, "number of cpus per task"); }},
    {kMinCpus,
     [](const OptCall &c) {
         c.r.min_cpus_per_node = positive(c.v, "minimum number of cpus per node");
     }},
    {kTime, set_time},
    {kMem,
     [](const OptCall &c) {
         c.p.mem_mb = size_mb(c.v, "memory size");
         c.seen.mem = true;
     }},
    {kMemPerCpu,
     [](const OptCall &c) {
         c.p.mem_per_cpu_mb = size_mb(c.v, "memory size");
         c.seen.per_cpu = true;
     }},
    {kTmp, [](const OptCall &c) { c.r.tmp_disk_mb = size_mb(c.v, "temporary disk size"); }},
    {kExport,
     [](const OptCall &c) {
         export_environment(c.v, {}); // validates
         c.p.export_spec = c.v;
     }},
    {kHold, [](const OptCall &c) { c.r.hold = true; }},
    {kTestOnly, [](const OptCall &c) { c.r.test_only = true; }},
    {kWait, [](const OptCall &c) { c.r.wait = true; }},
    {kParsable, [](const OptCall &c) { c.r.parsable = true; }},
    {kQuiet, [](const OptCall &c) { c.r.quiet = true; }},
    {kExclusive, set_exclusive},
    {kOversubscribe,
     [](const OptCall &c) {
         c.r.oversubscribe = true;
         c.r.exclusive = false;
     }},
    {kContiguous, [](const OptCall &c) { c.r.contiguous = true; }},
    {kOvercommit, [](const OptCall &c) { c.r.overcommit = true; }},
    {kLicenses, [](const OptCall &c) { c.r.licenses = c.v; }},
    {kReservation, [](const OptCall &c) { c.r.reservation = c.v; }}, // the controller checks it
    {kPropagate, [](const OptCall &c) { c.r.propagate = check_propagate(c.o.value.value_or("")); }},
    {kOpenMode, set_open_mode},
    {kBegin, set_begin},
    {kDeadline, set_deadline},
    {kArray,
     [](const OptCall &c) {
         check_array(c.v);
         c.r.array = std::string(trim(c.v));
     }},
    // The controller checks it.
    {kDependency, [](const OptCall &c) { c.r.dependency = std::string(trim(c.v)); }},
    {kKillOnInvalidDep, set_kill_on_invalid_dep},
    {kNice, set_nice},
    {kRequeue, [](const OptCall &c) { c.r.requeue = 1; }},
    {kNoRequeue, [](const OptCall &c) { c.r.requeue = 0; }},
    {kSignal,
     [](const OptCall &c) {
         check_signal(c.v);
         c.r.signal = c.v;
     }},
    {kGres, set_gres},
    {kGpus, set_gpus},
    {kGpusPerNode, set_gpus_per_node},
    {kGpusPerTask, set_gpus_per_task},
    {kGpuBind,
     [](const OptCall &c) {
         (void)parse_gpu_bind(c.v);
         c.r.gpu_bind = c.v;
     }},
    {kConstraint, [](const OptCall &c) { c.r.constraint = c.v; }},
    {kNodelist, set_node_list},
    {kExclude, set_node_list},
    {kWrap,
     [](const OptCall &c) {
         if (c.from_script) throw ParseError("--wrap is only valid on the command line");
     }},
    {kClusters,
     [](const OptCall &c) {
         c.r.clusters_given = true;
         c.r.clusters = c.v;
     }},
    {kClusterConstraint, [](const OptCall &c) { c.r.cluster_constraint = c.v; }},
};

void apply(Pending &p, const ParsedOpt &o, const SbatchContext &ctx, MemSeen &seen,
           bool from_script) {
    SbatchRequest &r = p.req;
    // The shared options: -v counts in the request (sbatch reads r.verbose); --help, --usage and
    // --version matter only on the command line, answered before a request is built.
    if (take_common(r, o)) return;
    const std::string v = o.value.value_or("");
    if (o.id >= kIgnoredBase) {
        const Ignored &ig = kIgnored[o.id - kIgnoredBase];
        if (std::string_view(ig.long_name) == "mem-per-gpu") seen.per_gpu = true;
        if (ig.warn)
            warn_once(r, std::string("--") + ig.long_name +
                             " is not supported by Drover yet and was ignored");
        return;
    }
    for (const auto &[id, handler] : kHandlers)
        if (id == o.id) return handler({p, r, o, v, ctx, seen, from_script});
}

struct EnvOption {
    const char *var;
    Id id;
};
constexpr EnvOption kEnvOptions[] = {
    {"SBATCH_ACCOUNT", kAccount},
    {"SBATCH_JOB_NAME", kJobName},
    {"SBATCH_PARTITION", kPartition},
    {"SBATCH_QOS", kQos},
    {"SBATCH_RESERVATION", kReservation},
    {"SBATCH_TIMELIMIT", kTime},
    {"SBATCH_EXPORT", kExport},
    {"SBATCH_WAIT", kWait},
    {"SBATCH_EXCLUSIVE", kExclusive},
    {"SBATCH_MEM_PER_NODE", kMem},
    {"SBATCH_MEM_PER_CPU", kMemPerCpu},
    {"SBATCH_OPEN_MODE", kOpenMode},
    {"SBATCH_CLUSTERS", kClusters},
    {"SBATCH_CLUSTER_CONSTRAINT", kClusterConstraint},
    {"SBATCH_ARRAY_INX", kArray},
    {"SBATCH_CONSTRAINT", kConstraint},
    {"SBATCH_GRES", kGres},
    {"SBATCH_GPUS", kGpus},
    {"SBATCH_GPUS_PER_NODE", kGpusPerNode},
    {"SBATCH_GPUS_PER_TASK", kGpusPerTask},
    {"SBATCH_GPU_BIND", kGpuBind},
    {"SBATCH_REQUEUE", kRequeue},
    {"SBATCH_NO_REQUEUE", kNoRequeue},
    {"SBATCH_SIGNAL", kSignal},
    {"SBATCH_OUTPUT", kOutput},
    {"SBATCH_ERROR", kError},
    {"SBATCH_INPUT", kInput},
    {"SBATCH_OVERCOMMIT", kOvercommit},
    {"SLURM_CLUSTERS", kClusters},
};

// Whether an option takes no value (SBATCH_* variables for such options are set by presence).
bool is_flag(int id) {
    for (const auto &s : all_specs())
        if (s.id == id) return s.arg == Arg::none;
    return false;
}

std::string absolute(const std::string &path, const std::string &cwd) {
    if (path.starts_with("/")) return path;
    std::string base = cwd.empty() ? "/" : cwd;
    if (!base.ends_with("/")) base.push_back('/');
    std::string_view rel = path;
    if (rel == ".") return cwd.empty() ? "/" : cwd;
    while (rel.starts_with("./")) rel.remove_prefix(2);
    return base + std::string(rel);
}

std::string basename_of(const std::string &path) {
    std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

namespace {

SbatchCommandLine parse_one_component(std::span<const std::string> args) {
    const auto &specs = all_specs();
    ParsedArgs pa = parse_options(args, specs, /*stop_at_positional=*/true);
    SbatchCommandLine cl;
    for (auto &o : pa.opts) {
        // Every option stays in cl.opts, the shared ones too (-v counts in the request).
        if (!take_common(cl, o) && o.id == kWrap) cl.wrap = o.value.value_or("");
        cl.opts.push_back(std::move(o));
    }
    if (!pa.positionals.empty()) {
        if (cl.wrap) throw ParseError("Script arguments not permitted with --wrap option");
        cl.script_path = pa.positionals.front();
        cl.script_args.assign(pa.positionals.begin() + 1, pa.positionals.end());
    }
    return cl;
}

} // namespace

SbatchCommandLine parse_sbatch_command_line(std::span<const std::string> args) {
    // "sbatch A : B script args": each ':' before the script starts a component of a
    // heterogeneous job; one after it is an argument of the script.
    std::vector<std::vector<ParsedOpt>> parts;
    std::optional<std::string> wrap; // --wrap may be given with any component
    std::size_t start = 0;
    for (;;) {
        auto colon = std::find(args.begin() + std::ptrdiff_t(start), args.end(), ":");
        if (colon == args.end()) break;
        const auto at = std::size_t(colon - args.begin());
        SbatchCommandLine part = parse_one_component(args.subspan(start, at - start));
        if (part.script_path) break;
        if (part.wrap) wrap = part.wrap;
        parts.push_back(std::move(part.opts));
        start = at + 1;
    }
    SbatchCommandLine cl = parse_one_component(args.subspan(start));
    if (parts.empty()) return cl;
    if (wrap && !cl.wrap) {
        if (cl.script_path) throw ParseError("Script arguments not permitted with --wrap option");
        cl.wrap = wrap;
    }
    parts.push_back(std::move(cl.opts));
    cl.opts = std::move(parts.front());
    for (const auto &o : cl.opts) take_common(cl, o); // -v and --help of the first component
    cl.het.assign(std::make_move_iterator(parts.begin() + 1), std::make_move_iterator(parts.end()));
    return cl;
}

namespace {

// The options a heterogeneous job's later components take from the first unless they give their
// own (Slurm's list of propagated options that sbatch has).
bool carried_over(int id) {
    static constexpr Id kCarried[] = {kAccount,    kBegin,     kClusterConstraint,
                                      kClusters,   kComment,   kDeadline,
                                      kDependency, kError,     kExport,
                                      kExclude,    kHold,      kInput,
                                      kJobName,    kNoRequeue, kRequeue,
                                      kNice,       kOutput,    kParsable,
                                      kPropagate,  kQos,       kQuiet,
                                      kSignal,     kTime,      kTestOnly,
                                      kWait,       kChdir,     kOpenMode,
                                      kReservation};
    return std::find(std::begin(kCarried), std::end(kCarried), id) != std::end(kCarried);
}

// 1. #SBATCH directives of one component (group), in order; a refusal names the script line.
// carried_only: only the options a later component takes from this one.
void apply_directives(Pending &p, const std::string &script, const SbatchContext &ctx,
                      MemSeen &given, int group = 0, bool carried_only = false) {
    const auto &specs = all_specs();
    for (const auto &d : scan_directives(script)) {
        if (d.het_group != group) continue;
        std::string where = "script line " + str_i(d.line) + ": ";
        try {
            ParsedArgs pa = parse_options(d.args, specs, /*stop_at_positional=*/false);
            for (const auto &o : pa.opts)
                if (!carried_only || carried_over(o.id)) apply(p, o, ctx, given, true);
            if (carried_only) continue;
            for (const auto &extra : pa.positionals)
                p.req.warnings.push_back(where + "ignoring unexpected argument '" + extra + "'");
        } catch (const UsageError &e) {
            throw ParseError(where + e.what());
        } catch (const ParseError &e) {
            throw ParseError(where + e.what());
        }
    }
}

// 2. SBATCH_* input environment variables. Memory from them is kept apart (in the returned
// Pending) until the rule in build_sbatch_request decides whether it counts.
Pending apply_environment(Pending &p, const SbatchContext &ctx, MemSeen &env_seen) {
    Pending env_p;
    for (const auto &eo : kEnvOptions) {
        for (const auto &kv : ctx.env) {
            if (kv.first != eo.var) continue;
            ParsedOpt o{eo.id, kv.second, kv.first};
            // Flags are set by their presence; SBATCH_EXCLUSIVE may carry a mode.
            if (is_flag(eo.id) || (eo.id == kExclusive && !iequals(kv.second, "user") &&
                                   !iequals(kv.second, "mcs") && !iequals(kv.second, "topo")))
                o.value.reset();
            try {
                if (eo.id == kMem || eo.id == kMemPerCpu)
                    apply(env_p, o, ctx, env_seen, false);
                else
                    apply(p, o, ctx, env_seen, false);
            } catch (const ParseError &e) {
                throw ParseError(std::string(eo.var) + ": " + e.what());
            }
        }
    }
    return env_p;
}

// The variables sbatch sets in the job's environment only when their option was given, as
// Slurm's does: SLURM_CPUS_PER_TASK for -c (even -c 1, which the controller's own variables
// leave out) and SLURM_EXPORT_ENV for an --export other than ALL (srun in the script reads it).
void set_given_variables(const Pending &p, Env &env) {
    auto put = [&env](const std::string &key, const std::string &value) {
        std::erase_if(env, [&](const auto &kv) { return kv.first == key; });
        env.emplace_back(key, value);
    };
    if (p.req.cpus_per_task) put("SLURM_CPUS_PER_TASK", str_u(p.req.cpus_per_task));
    if (p.export_spec && !iequals(*p.export_spec, "ALL")) put("SLURM_EXPORT_ENV", *p.export_spec);
}

// The request once every option is in: name, paths, tasks, memory, GPUs and environment.
SbatchRequest finish_request(Pending &p, const SbatchCommandLine &cl, std::string script,
                             const SbatchContext &ctx) {
    SbatchRequest &r = p.req;
    r.script = std::move(script);
    r.argv = cl.script_args;
    if (!p.name_set) {
        if (cl.wrap)
            r.name = "wrap";
        else if (cl.script_path)
            r.name = basename_of(*cl.script_path);
        else
            r.name = "sbatch";
    }
    if (cl.script_path && !cl.wrap) r.command = absolute(*cl.script_path, ctx.cwd);
    r.work_dir = r.work_dir.empty() ? ctx.cwd : absolute(r.work_dir, ctx.cwd);
    // Without -n, --ntasks-per-node sets the task count (Slurm: -n wins when both are given).
    if (p.tasks_per_node) {
        r.ntasks_per_node = *p.tasks_per_node;
        if (r.num_tasks == 0) r.num_tasks = *p.tasks_per_node * (r.min_nodes ? r.min_nodes : 1);
    }
    if (p.mem_mb) r.mem_per_node_mb = *p.mem_mb;
    if (p.mem_per_cpu_mb) r.mem_per_cpu_mb = *p.mem_per_cpu_mb;
    // --gpus-per-node=TYPE:N is --gres=gpu:TYPE:N, unless --gres names GPUs itself.
    if (!p.gpus_per_node_type.empty() && r.gpus_per_node) {
        bool gres_gpu = false;
        for (const auto &g : parse_gres_request(r.gres)) gres_gpu = gres_gpu || g.name == "gpu";
        if (gres_gpu) {
            warn_once(
                r,
                "--gpus-per-node: GPU types are not supported by Drover yet; any GPU may be given");
        } else {
            r.gres += (r.gres.empty() ? "" : ",") + std::string("gpu:") + p.gpus_per_node_type +
                      ":" + str_u(r.gpus_per_node);
            r.gpus_per_node = 0;
        }
    }
    r.environment = export_environment(p.export_spec.value_or("ALL"), ctx.env);
    set_given_variables(p, r.environment);
    return std::move(p.req);
}

} // namespace

namespace {

// One component of the request (0: the first, or the only one): its directives, the variables
// and its command-line options; a later one first takes the first's carried-over options.
SbatchRequest build_component(const SbatchCommandLine &cl, const std::string &script,
                              const SbatchContext &ctx, int group) {
    Pending p;
    MemSeen given; // by the script and the command line together
    if (group > 0) apply_directives(p, script, ctx, given, 0, /*carried_only=*/true);
    apply_directives(p, script, ctx, given, group);
    MemSeen env_seen;
    Pending env_p = apply_environment(p, ctx, env_seen);
    // 3. The command line.
    if (group > 0)
        for (const auto &o : cl.opts)
            if (carried_over(o.id)) apply(p, o, ctx, given, false);
    for (const auto &o : group == 0 ? cl.opts : cl.het[std::size_t(group) - 1])
        apply(p, o, ctx, given, false);

    // Memory: one of --mem, --mem-per-cpu and --mem-per-gpu from the script and command line;
    // one of the variables; what the script or command line gives wins over the variables.
    if (given.count() > 1)
        throw SbatchFatal("--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
    if (env_seen.count() > 1)
        throw SbatchFatal(
            "SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually exclusive.");
    if (given.count() == 0) {
        p.mem_mb = env_p.mem_mb;
        p.mem_per_cpu_mb = env_p.mem_per_cpu_mb;
    }
    return finish_request(p, cl, script, ctx);
}

} // namespace

SbatchRequest build_sbatch_request(const SbatchCommandLine &cl, std::string script,
                                   const SbatchContext &ctx) {
    check_batch_script(script);
    std::size_t count = cl.het.size() + 1;
    for (const auto &d : scan_directives(script))
        count = std::max(count, std::size_t(d.het_group) + 1);
    SbatchRequest r = build_component(cl, script, ctx, 0);
    for (std::size_t k = 1; k < count; ++k) {
        // Options given on the command line for fewer components than the script has: the
        // script's own for the rest.
        SbatchCommandLine line = cl;
        line.het.resize(count - 1);
        SbatchRequest c = build_component(line, script, ctx, int(k));
        for (auto &w : c.warnings) // the first component's (its directives, the variables) once
            if (std::find(r.warnings.begin(), r.warnings.end(), w) == r.warnings.end())
                r.warnings.push_back(std::move(w));
        c.script.clear(); // the leader runs the script; the others only hold resources
        c.environment.clear();
        c.argv.clear();
        r.het.push_back(std::move(c));
    }
    r.script = std::move(script);
    return r;
}

SbatchRequest parse_sbatch(std::span<const std::string> args, std::string script,
                           const SbatchContext &ctx) {
    return build_sbatch_request(parse_sbatch_command_line(args), std::move(script), ctx);
}

std::span<const OptSpec> sbatch_options() {
    return all_specs();
}

} // namespace drover::cli
