// sbatch_opts.cpp - sbatch's option table and how each option, from any source, sets the request.
#include "cli/sbatch_opts.hpp"

#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kJobName, kOutput, kError, kInput, kPartition, kNodes, kNtasks, kCpusPerTask, kTime, kMem,
    kMemPerCpu, kChdir, kAccount, kExport, kHold, kTestOnly, kWait, kWrap, kParsable, kComment,
    kExclusive, kOpenMode, kQuiet, kVerbose, kVersion, kHelp, kUsage, kClusters, kBegin,
    kArray, kDependency, kNtasksPerNode,
    kIgnoredBase = 1000,   // + index into kIgnored
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
    {kExclusive, 0, "exclusive", Arg::optional},
    {kOpenMode, 0, "open-mode", Arg::required},
    {kQuiet, 'Q', "quiet", Arg::none},
    {kVerbose, 'v', "verbose", Arg::none},
    {kVersion, 'V', "version", Arg::none},
    {kHelp, 'h', "help", Arg::none},
    {kUsage, 0, "usage", Arg::none},
    {kClusters, 'M', "clusters", Arg::required},
    {kClusters, 0, "cluster", Arg::required},
    {kBegin, 'b', "begin", Arg::required},
    {kArray, 'a', "array", Arg::required},
    {kDependency, 'd', "dependency", Arg::required},
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
    {'q', "qos", Arg::required, false},
    {0, "mail-type", Arg::required, false},
    {0, "mail-user", Arg::required, false},
    {0, "requeue", Arg::none, false},
    {0, "no-requeue", Arg::none, false},
    {0, "get-user-env", Arg::optional, false},
    {0, "propagate", Arg::optional, false},
    {0, "profile", Arg::required, false},
    {0, "acctg-freq", Arg::required, false},
    {0, "export-file", Arg::required, false},
    {0, "ignore-pbs", Arg::none, false},
    {'k', "no-kill", Arg::optional, false},
    {0, "kill-on-invalid-dep", Arg::required, false},
    {0, "wckey", Arg::required, false},
    {0, "uid", Arg::required, true},
    {0, "gid", Arg::required, true},
    {0, "gres", Arg::required, true},
    {'G', "gpus", Arg::required, true},
    {0, "gpus-per-node", Arg::required, true},
    {0, "gpus-per-task", Arg::required, true},
    {0, "gpus-per-socket", Arg::required, true},
    {0, "cpus-per-gpu", Arg::required, true},
    {0, "mem-per-gpu", Arg::required, true},
    {0, "gpu-bind", Arg::required, true},
    {0, "gpu-freq", Arg::required, true},
    {'C', "constraint", Arg::required, true},
    {0, "cluster-constraint", Arg::required, true},
    {'w', "nodelist", Arg::required, true},
    {'x', "exclude", Arg::required, true},
    {'F', "nodefile", Arg::required, true},
    {0, "ntasks-per-socket", Arg::required, true},
    {0, "ntasks-per-core", Arg::required, true},
    {0, "ntasks-per-gpu", Arg::required, true},
    {0, "signal", Arg::required, true},
    {'L', "licenses", Arg::required, true},
    {0, "reservation", Arg::required, true},
    {0, "nice", Arg::optional, true},
    {0, "priority", Arg::required, true},
    {0, "mincpus", Arg::required, true},
    {0, "tmp", Arg::required, true},
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
    {0, "contiguous", Arg::none, true},
    {'O', "overcommit", Arg::none, true},
    {'s', "oversubscribe", Arg::none, true},
    {0, "spread-job", Arg::none, true},
    {0, "use-min-nodes", Arg::none, true},
    {0, "deadline", Arg::required, true},
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

// What a source has set, for checks that look at one source at a time.
struct SourceSeen {
    bool mem = false, mem_per_cpu = false;
};

// Request plus what is only resolved at the end.
struct Pending {
    SbatchRequest req;
    std::optional<std::string> export_spec;
    std::optional<uint64_t> mem_per_cpu_mb;
    std::optional<uint32_t> tasks_per_node;
    bool name_set = false;
};

std::string quoted(std::string_view v) { return "'" + std::string(v) + "'"; }

uint32_t positive(std::string_view v, const char *what) {
    auto n = parse_u32(trim(v));
    if (!n || *n == 0) throw ParseError(std::string("invalid ") + what + " " + quoted(v));
    return *n;
}

void apply(Pending &p, const ParsedOpt &o, const SbatchContext &ctx, SourceSeen &seen,
           bool from_script) {
    SbatchRequest &r = p.req;
    const std::string v = o.value.value_or("");
    if (o.id >= kIgnoredBase) {
        const Ignored &ig = kIgnored[o.id - kIgnoredBase];
        std::string w = std::string("--") + ig.long_name +
                        " is not supported by Drover yet and was ignored";
        if (ig.warn) {
            bool dup = false;
            for (const auto &x : r.warnings) dup = dup || x == w;
            if (!dup) r.warnings.push_back(w);
        }
        return;
    }
    switch (static_cast<Id>(o.id)) {
    case kJobName: r.name = v; p.name_set = true; break;
    case kOutput: r.std_out = v; break;
    case kError: r.std_err = v; break;
    case kInput: r.std_in = v; break;
    case kPartition: r.partition = v; break;
    case kAccount: r.account = v; break;
    case kComment: r.comment = v; break;
    case kChdir:
        if (v.empty()) throw ParseError("invalid working directory ''");
        r.work_dir = v;
        break;
    case kNodes: {
        std::string_view s = trim(v);
        std::size_t dash = s.find('-');
        auto lo = parse_u32(s.substr(0, dash));
        std::optional<uint32_t> hi = lo;
        if (dash != std::string_view::npos) hi = parse_u32(s.substr(dash + 1));
        if (!lo || !hi || *lo == 0 || *hi < *lo)
            throw ParseError("invalid node count " + quoted(v));
        r.min_nodes = *lo;
        r.max_nodes = *hi;
        break;
    }
    case kNtasks: r.num_tasks = positive(v, "number of tasks"); break;
    case kNtasksPerNode: p.tasks_per_node = positive(v, "number of tasks per node"); break;
    case kCpusPerTask: r.cpus_per_task = positive(v, "number of cpus per task"); break;
    case kTime:
        try {
            r.time_limit_min = parse_time_limit(v);
        } catch (const ParseError &) {
            throw ParseError("invalid time limit " + quoted(v));
        }
        break;
    case kMem:
        try {
            r.mem_per_node_mb = parse_size_mb(trim(v));
        } catch (const ParseError &) {
            throw ParseError("invalid memory size " + quoted(v));
        }
        p.mem_per_cpu_mb.reset();
        seen.mem = true;
        break;
    case kMemPerCpu:
        try {
            p.mem_per_cpu_mb = parse_size_mb(trim(v));
        } catch (const ParseError &) {
            throw ParseError("invalid memory size " + quoted(v));
        }
        r.mem_per_node_mb = 0;
        seen.mem_per_cpu = true;
        break;
    case kExport:
        export_environment(v, {});   // validates
        p.export_spec = v;
        break;
    case kHold: r.hold = true; break;
    case kTestOnly: r.test_only = true; break;
    case kWait: r.wait = true; break;
    case kParsable: r.parsable = true; break;
    case kQuiet: r.quiet = true; break;
    case kVerbose: ++r.verbose; break;
    case kExclusive:
        if (!o.value || o.value->empty()) {
            r.exclusive = true;
        } else if (iequals(v, "user") || iequals(v, "mcs") || iequals(v, "topo")) {
            r.warnings.push_back("--exclusive=" + v +
                                 " is not supported by Drover yet and was ignored");
        } else {
            throw ParseError("invalid --exclusive value " + quoted(v));
        }
        break;
    case kOpenMode:
        if (iequals(v, "append") || iequals(v, "a")) r.open_mode_append = true;
        else if (iequals(v, "truncate") || iequals(v, "t")) r.open_mode_append = false;
        else throw ParseError("invalid open mode " + quoted(v) + " (expected append or truncate)");
        break;
    case kBegin:
        try {
            int64_t t = parse_timestamp(v, ctx.now);
            r.begin_time = t > ctx.now ? t : 0;
        } catch (const ParseError &) {
            throw ParseError("invalid begin time " + quoted(v));
        }
        break;
    case kArray: throw ParseError("job arrays (--array) are not supported by Drover yet");
    case kDependency:
        throw ParseError("job dependencies (--dependency) are not supported by Drover yet");
    case kWrap:
        if (from_script) throw ParseError("--wrap is only valid on the command line");
        break;
    case kClusters: r.clusters_given = true; break;   // one cluster for now: only named
    case kVersion:
    case kHelp:
    case kUsage:
        break;
    default: break;
    }
}

void check_source(const SourceSeen &seen, const std::string &where) {
    if (seen.mem && seen.mem_per_cpu)
        throw ParseError(where + "--mem and --mem-per-cpu are mutually exclusive");
}

struct EnvOption {
    const char *var;
    Id id;
};
constexpr EnvOption kEnvOptions[] = {
    {"SBATCH_ACCOUNT", kAccount},       {"SBATCH_JOB_NAME", kJobName},
    {"SBATCH_PARTITION", kPartition},   {"SBATCH_TIMELIMIT", kTime},
    {"SBATCH_EXPORT", kExport},         {"SBATCH_WAIT", kWait},
    {"SBATCH_EXCLUSIVE", kExclusive},   {"SBATCH_MEM_PER_NODE", kMem},
    {"SBATCH_MEM_PER_CPU", kMemPerCpu}, {"SBATCH_OPEN_MODE", kOpenMode},
    {"SBATCH_CLUSTERS", kClusters},
};

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

}  // namespace

SbatchCommandLine parse_sbatch_command_line(std::span<const std::string> args) {
    const auto &specs = all_specs();
    ParsedArgs pa = parse_options(args, specs, /*stop_at_positional=*/true);
    SbatchCommandLine cl;
    for (auto &o : pa.opts) {
        if (o.id == kHelp) cl.help = true;
        else if (o.id == kUsage) cl.usage = true;
        else if (o.id == kVersion) cl.version = true;
        else if (o.id == kWrap) cl.wrap = o.value.value_or("");
        cl.opts.push_back(std::move(o));
    }
    if (!pa.positionals.empty()) {
        if (cl.wrap) throw ParseError("Script arguments not permitted with --wrap option");
        cl.script_path = pa.positionals.front();
        cl.script_args.assign(pa.positionals.begin() + 1, pa.positionals.end());
    }
    return cl;
}

SbatchRequest build_sbatch_request(const SbatchCommandLine &cl, std::string script,
                                   const SbatchContext &ctx) {
    check_batch_script(script);
    Pending p;
    const auto &specs = all_specs();

    // 1. #SBATCH directives, in order.
    SourceSeen script_seen;
    for (const auto &d : scan_directives(script)) {
        std::string where = "script line " + str_i(d.line) + ": ";
        try {
            ParsedArgs pa = parse_options(d.args, specs, /*stop_at_positional=*/false);
            for (const auto &o : pa.opts) apply(p, o, ctx, script_seen, true);
            for (const auto &extra : pa.positionals)
                p.req.warnings.push_back(where + "ignoring unexpected argument '" + extra + "'");
        } catch (const UsageError &e) {
            throw ParseError(where + e.what());
        } catch (const ParseError &e) {
            throw ParseError(where + e.what());
        }
    }
    check_source(script_seen, "script: ");

    // 2. SBATCH_* input environment variables.
    for (const auto &eo : kEnvOptions) {
        for (const auto &kv : ctx.env) {
            if (kv.first != eo.var) continue;
            SourceSeen seen;
            ParsedOpt o{eo.id, kv.second, kv.first};
            // Flags set by their presence; SBATCH_EXCLUSIVE may carry a mode.
            if (eo.id == kWait ||
                (eo.id == kExclusive && !iequals(kv.second, "user") &&
                 !iequals(kv.second, "mcs") && !iequals(kv.second, "topo")))
                o.value.reset();
            try {
                apply(p, o, ctx, seen, false);
            } catch (const ParseError &e) {
                throw ParseError(std::string(eo.var) + ": " + e.what());
            }
        }
    }

    // 3. The command line.
    SourceSeen cl_seen;
    for (const auto &o : cl.opts) apply(p, o, ctx, cl_seen, false);
    check_source(cl_seen, "");

    SbatchRequest &r = p.req;
    r.script = std::move(script);
    r.argv = cl.script_args;
    if (!p.name_set) {
        if (cl.wrap) r.name = "wrap";
        else if (cl.script_path) r.name = basename_of(*cl.script_path);
        else r.name = "sbatch";
    }
    if (cl.script_path && !cl.wrap) r.command = absolute(*cl.script_path, ctx.cwd);
    r.work_dir = r.work_dir.empty() ? ctx.cwd : absolute(r.work_dir, ctx.cwd);
    // Without -n, --ntasks-per-node sets the task count (Slurm: -n wins when both are given).
    if (p.tasks_per_node && r.num_tasks == 0)
        r.num_tasks = *p.tasks_per_node * (r.min_nodes ? r.min_nodes : 1);
    if (p.mem_per_cpu_mb) {
        // A per-node figure from per-CPU memory: CPUs per task times tasks per node.
        uint64_t cpus = r.cpus_per_task ? r.cpus_per_task : 1;
        uint64_t tasks = r.num_tasks ? r.num_tasks : 1;
        uint64_t nodes = r.min_nodes ? r.min_nodes : 1;
        uint64_t per_node = (tasks + nodes - 1) / nodes;
        r.mem_per_node_mb = *p.mem_per_cpu_mb * cpus * per_node;
    }
    r.environment = export_environment(p.export_spec.value_or("ALL"), ctx.env);
    return std::move(p.req);
}

SbatchRequest parse_sbatch(std::span<const std::string> args, std::string script,
                           const SbatchContext &ctx) {
    return build_sbatch_request(parse_sbatch_command_line(args), std::move(script), ctx);
}

}  // namespace drover::cli
