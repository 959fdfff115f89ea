// squeue_args.cpp - squeue option parsing and job filtering.
#include "cli/command_docs.hpp"
#include "cli/squeue_args.hpp"

#include <utility>

#include "cli/job_ids.hpp"
#include "cli/options.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/licenses.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kAccount,
    kAll,
    kArray,
    kNoheader,
    kHide,
    kIterate,
    kJobs,
    kLocal,
    kLong,
    kLicenses,
    kMe,
    kName,
    kNoconvert,
    kFormat,
    kLongFormat,
    kPartition,
    kPriority,
    kQos,
    kReservation,
    kSteps,
    kSort,
    kStart,
    kStates,
    kUser,
    kNodelist,
    kJson,
    kYaml,
    kFederation,
    kSibling,
    kArrayUnique,
    kOnlyJobState,
};

constexpr OptSpec kSpecs[] = {
    {kAccount, 'A', "account", Arg::required},
    {kAll, 'a', "all", Arg::none},
    {kArray, 'r', "array", Arg::none},
    {kArrayUnique, 0, "array-unique", Arg::none},
    {kNoheader, 'h', "noheader", Arg::none},
    {kOptHelp, 0, "help", Arg::none},
    {kHide, 0, "hide", Arg::none},
    {kIterate, 'i', "iterate", Arg::required},
    {kJobs, 'j', "jobs", Arg::optional},
    {kJobs, 0, "job", Arg::optional},
    {kLocal, 0, "local", Arg::none},
    {kFederation, 0, "federation", Arg::none},
    {kSibling, 0, "sibling", Arg::none},
    {kLong, 'l', "long", Arg::none},
    {kLicenses, 'L', "licenses", Arg::required},
    {kMe, 0, "me", Arg::none},
    {kOptClusters, 'M', "clusters", Arg::required},
    {kName, 'n', "name", Arg::required},
    {kNoconvert, 0, "noconvert", Arg::none},
    {kFormat, 'o', "format", Arg::required},
    {kLongFormat, 'O', "Format", Arg::required},
    {kPartition, 'p', "partition", Arg::required},
    {kPriority, 'P', "priority", Arg::none},
    {kQos, 'q', "qos", Arg::required},
    {kReservation, 'R', "reservation", Arg::required},
    {kSteps, 's', "steps", Arg::optional},
    {kSort, 'S', "sort", Arg::required},
    {kStart, 0, "start", Arg::none},
    {kStates, 't', "states", Arg::required},
    {kStates, 0, "state", Arg::required},
    {kUser, 'u', "user", Arg::required},
    {kUser, 0, "users", Arg::required},
    {kOptUsage, 0, "usage", Arg::none},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kNodelist, 'w', "nodelist", Arg::required},
    {kJson, 0, "json", Arg::optional},
    {kYaml, 0, "yaml", Arg::optional},
    {kOnlyJobState, 0, "only-job-state", Arg::none},
};

void append_list(std::vector<std::string> &to, const std::string &list) {
    for (auto &s : split(list, ',')) to.push_back(std::move(s));
}

constexpr std::string_view kBadJobId = "Invalid job id: ";

using OptHandler = void (*)(SqueueArgs &a, const ParsedOpt &o, const std::string &v);

void set_iterate(SqueueArgs &a, const ParsedOpt &, const std::string &v) {
    auto n = parse_u32(v);
    if (!n || *n == 0) throw ParseError("invalid --iterate value: " + v);
    a.iterate = static_cast<int>(*n);
}

void add_jobs(SqueueArgs &a, const ParsedOpt &o, const std::string &v) {
    a.jobs_given = true;
    if (o.value) {
        auto specs = parse_job_spec_list(v, kBadJobId);
        a.job_specs.insert(a.job_specs.end(), specs.begin(), specs.end());
    }
}

void add_steps(SqueueArgs &a, const ParsedOpt &o, const std::string &) {
    a.steps = true;
    if (o.value)
        for (const auto &id : split(*o.value, ',')) a.step_ids.push_back(std::string(trim(id)));
}

void add_states(SqueueArgs &a, const ParsedOpt &, const std::string &v) {
    JobStateFilter f = parse_job_state_list(v);
    a.states.all = a.states.all || f.all;
    a.states.states.insert(a.states.states.end(), f.states.begin(), f.states.end());
}

// What each of squeue's own options does to the arguments; those not listed are accepted for
// compatibility and do nothing.
constexpr std::pair<Id, OptHandler> kHandlers[] = {
    {kAccount,
     [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { append_list(a.accounts, v); }},
    {kNoheader, [](SqueueArgs &a, const ParsedOpt &, const std::string &) { a.noheader = true; }},
    {kIterate, set_iterate},
    {kJobs, add_jobs},
    {kArray, [](SqueueArgs &a, const ParsedOpt &, const std::string &) { a.array = true; }},
    {kLong, [](SqueueArgs &a, const ParsedOpt &, const std::string &) { a.long_format = true; }},
    {kMe, [](SqueueArgs &a, const ParsedOpt &, const std::string &) { a.me = true; }},
    {kFederation, [](SqueueArgs &a, const ParsedOpt &,
                     const std::string &) { a.view = StatusView::Federation; }},
    {kLocal,
     [](SqueueArgs &a, const ParsedOpt &, const std::string &) { a.view = StatusView::Local; }},
    {kSibling,
     [](SqueueArgs &a, const ParsedOpt &, const std::string &) {
         a.view = StatusView::Federation;
         a.sibling = true;
     }},
    {kName,
     [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { append_list(a.names, v); }},
    {kFormat, [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { a.format = v; }},
    {kLongFormat, [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { a.long_fmt = v; }},
    {kPartition,
     [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { append_list(a.partitions, v); }},
    {kSteps, add_steps},
    {kSort, [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { a.sort = v; }},
    {kStart, [](SqueueArgs &a, const ParsedOpt &, const std::string &) { a.start = true; }},
    {kStates, add_states},
    {kUser,
     [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { append_list(a.users, v); }},
    {kNodelist, [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { a.nodelist = v; }},
    {kJson, [](SqueueArgs &a, const ParsedOpt &, const std::string &) { a.json = true; }},
    {kYaml, [](SqueueArgs &a, const ParsedOpt &, const std::string &) { a.yaml = true; }},
    {kQos, [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { append_list(a.qos, v); }},
    {kReservation,
     [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { a.reservations.push_back(v); }},
    {kLicenses,
     [](SqueueArgs &a, const ParsedOpt &, const std::string &v) { append_list(a.licenses, v); }},
};

// squeue(1)'s ENVIRONMENT VARIABLES. SQUEUE_FORMAT and SQUEUE_FORMAT2 give way to any option that
// picks the layout (-o, -O, -l, -s, --start), SQUEUE_FORMAT2 also to SQUEUE_FORMAT; the flags are
// set by the variable's presence, as Slurm's squeue reads them.
const EnvOption kEnvOptions[] = {
    {"SQUEUE_ACCOUNT", kAccount},
    {"SQUEUE_ALL", kAll, EnvValue::presence},
    {"SQUEUE_ARRAY", kArray, EnvValue::presence},
    {"SQUEUE_ARRAY_UNIQUE", kArrayUnique, EnvValue::presence},
    {"SQUEUE_FEDERATION", kFederation, EnvValue::presence},
    {"SQUEUE_FORMAT", kFormat, EnvValue::as_is, {kLongFormat, kLong, kSteps, kStart}},
    {"SQUEUE_FORMAT2", kLongFormat, EnvValue::as_is, {kFormat, kLong, kSteps, kStart}},
    {"SQUEUE_LICENSES", kLicenses},
    {"SQUEUE_LOCAL", kLocal, EnvValue::presence},
    {"SQUEUE_NAMES", kName},
    {"SQUEUE_PARTITION", kPartition},
    {"SQUEUE_PRIORITY", kPriority, EnvValue::presence},
    {"SQUEUE_QOS", kQos},
    {"SQUEUE_SIB", kSibling, EnvValue::presence},
    {"SQUEUE_SIBLING", kSibling, EnvValue::presence},
    {"SQUEUE_SORT", kSort},
    {"SQUEUE_STATES", kStates},
    {"SQUEUE_USERS", kUser, EnvValue::as_is, {kMe}},
    {"SLURM_CLUSTERS", kOptClusters},
};

} // namespace

SqueueArgs parse_squeue_args(std::span<const std::string> args, const EnvVars &env) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/false);
    SqueueArgs a;
    for (const auto &o : with_env_options(env, kEnvOptions, std::move(pa.opts))) {
        if (take_common(a, o)) continue;
        const std::string v = o.value.value_or("");
        for (const auto &[id, handler] : kHandlers)
            if (id == o.id) handler(a, o, v);
    }
    // squeue takes the job list after a bare -j as its own argument ("squeue -j 12 -h").
    std::size_t next = 0;
    if (a.jobs_given && a.job_specs.empty() && next < pa.positionals.size()) {
        a.job_specs = parse_job_spec_list(pa.positionals[next++], kBadJobId);
    }
    a.job_ids = spec_job_ids(a.job_specs);
    if (next < pa.positionals.size())
        throw UsageError("Unrecognized option: " + pa.positionals[next]);
    if (a.jobs_given && a.job_ids.empty() && !a.steps)
        throw ParseError("option --jobs requires a job id list");
    return a;
}

SqueueFilter make_squeue_filter(const SqueueArgs &a, uint32_t my_uid) {
    SqueueFilter f;
    f.states = a.states;
    if (a.start && f.states.empty()) f.states.states.push_back(0 /* PENDING */);
    f.job_specs = a.job_specs;
    f.partitions = a.partitions;
    f.names = a.names;
    f.accounts = a.accounts;
    f.qos = a.qos;
    f.reservations = a.reservations;
    f.licenses = a.licenses;
    for (const auto &u : a.users) {
        auto uid = lookup_user(u);
        if (!uid) throw ParseError("Invalid user: " + u);
        f.uids.push_back(*uid);
    }
    if (a.me) f.uids.push_back(my_uid);
    if (a.nodelist) f.nodes = hostlist_expand(*a.nodelist);
    return f;
}

bool SqueueFilter::asks_license(std::string_view job_licenses) const {
    try {
        for (const auto &l : parse_licenses(job_licenses))
            if (std::find(licenses.begin(), licenses.end(), l.name) != licenses.end()) return true;
    } catch (const ParseError &) {}
    return false;
}

bool SqueueFilter::keep(const proto::JobInfo &job) const {
    auto str = [](const flatbuffers::String *s) {
        return s ? s->string_view() : std::string_view();
    };
    auto in = [](const std::vector<std::string> &list, std::string_view v) {
        for (const auto &x : list)
            if (x == v) return true;
        return false;
    };
    if (!job_specs.empty()) {
        bool found = false;
        for (const auto &s : job_specs) found = found || s.matches(job);
        if (!found) return false;
    }
    if (states.empty()) {
        // Finished jobs the controller still holds show only with -t (as in Slurm, even when
        // asked for by id).
        if (!job_is_active(job.state())) return false;
    } else if (!states.matches(job.state())) {
        return false;
    }
    if (!uids.empty()) {
        bool found = false;
        for (uint32_t u : uids) found = found || u == job.user_id();
        if (!found) return false;
    }
    // A job waiting in several partitions ("a,b") is in each of them.
    if (!partitions.empty()) {
        bool found = false;
        for (const auto &p : split(str(job.partition()), ',')) found = found || in(partitions, p);
        if (!found) return false;
    }
    if (!names.empty() && !in(names, str(job.name()))) return false;
    if (!accounts.empty() && !in(accounts, str(job.account()))) return false;
    // A job asked for no QOS runs under "normal", as squeue's %q shows it.
    std::string_view job_qos = str(job.qos()).empty() ? "normal" : str(job.qos());
    if (!qos.empty() && !in(qos, job_qos)) return false;
    if (!reservations.empty() && !in(reservations, str(job.reservation()))) return false;
    if (!licenses.empty() && !asks_license(str(job.licenses()))) return false;
    if (!nodes.empty()) {
        std::vector<std::string> held;
        try {
            held = hostlist_expand(str(job.node_list()));
        } catch (const ParseError &) {
            return false;
        }
        bool found = false;
        for (const auto &n : held) found = found || in(nodes, n);
        if (!found) return false;
    }
    return true;
}

std::span<const OptSpec> squeue_options() {
    return kSpecs;
}

} // namespace drover::cli
