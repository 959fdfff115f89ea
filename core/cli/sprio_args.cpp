// sprio_args.cpp - sprio option parsing, -u resolution, -v's parameter list and the -M check.
#include "cli/command_docs.hpp"
#include "cli/sprio_args.hpp"

#include <utility>

#include "cli/job_ids.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kNoheader,
    kJobs,
    kLong,
    kClusters,
    kNorm,
    kFormat,
    kSort,
    kPartition,
    kUser,
    kWeights,
    kFederation,
    kHelpFormat,
    kLocal,
    kSibling,
};

// Slurm 23.11's sprio: "hj::lM:no:S:p:u:vVw" and its long names; -h is --noheader, so --help
// has no letter.
constexpr OptSpec kSpecs[] = {
    {kNoheader, 'h', "noheader", Arg::none},
    {kJobs, 'j', "jobs", Arg::optional},
    {kLong, 'l', "long", Arg::none},
    {kClusters, 'M', "cluster", Arg::required},
    {kClusters, 0, "clusters", Arg::required},
    {kNorm, 'n', "norm", Arg::none},
    {kFormat, 'o', "format", Arg::required},
    {kSort, 'S', "sort", Arg::required},
    {kPartition, 'p', "partition", Arg::required},
    {kUser, 'u', "user", Arg::required},
    {kUser, 0, "users", Arg::required},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kWeights, 'w', "weights", Arg::none},
    {kFederation, 0, "federation", Arg::none},
    {kOptHelp, 0, "help", Arg::none},
    {kHelpFormat, 0, "helpformat", Arg::none},
    {kLocal, 0, "local", Arg::none},
    {kSibling, 0, "sib", Arg::none},
    {kSibling, 0, "sibling", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
};

// sprio(1)'s ENVIRONMENT VARIABLES that change what Drover does: SPRIO_FORMAT gives way to -o and
// -l, SLURM_CLUSTERS to -M.
const EnvOption kEnvOptions[] = {
    {"SPRIO_FORMAT", kFormat, EnvValue::as_is, {kLong}},
    {"SLURM_CLUSTERS", kClusters},
};

constexpr std::string_view kBadJobId = "Invalid job id: ";

void set_jobs(SprioArgs &a, const std::string &list) {
    a.jobs = list;
    a.job_ids = spec_job_ids(parse_job_spec_list(list, kBadJobId));
}

// Applies one of sprio's own options.
void apply(SprioArgs &a, const ParsedOpt &o) {
    const std::string v = o.value.value_or("");
    switch (o.id) {
    case kNoheader:
        a.noheader = true;
        break;
    case kJobs:
        a.job_flag = true;
        if (o.value) set_jobs(a, v);
        break;
    case kLong:
        a.long_list = true;
        break;
    case kClusters:
        a.clusters = v;
        break;
    case kNorm:
        a.normalized = true;
        break;
    case kFormat:
        a.format = v;
        break;
    case kSort:
        a.sort = v;
        break;
    case kPartition:
        a.partitions = v;
        break;
    case kUser:
        a.users = v;
        break;
    case kWeights:
        a.weights = true;
        break;
    case kHelpFormat:
        a.helpformat = true;
        break;
    case kFederation:
    case kSibling: // --sibling: the federation, each member's record of a job
    case kLocal:
        a.view = o.id == kLocal ? StatusView::Local : StatusView::Federation;
        a.sibling = a.sibling || o.id == kSibling;
        break;
    default:
        break;
    }
}

std::string or_null_text(const std::optional<std::string> &s) {
    return s ? *s : "(null)";
}

} // namespace

SprioArgs parse_sprio_args(std::span<const std::string> args, const EnvVars &env) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/false);
    SprioArgs a;
    for (const auto &o : with_env_options(env, kEnvOptions, std::move(pa.opts)))
        if (!take_common(a, o)) apply(a, o);
    // SPRIO_FORMAT never meets -l here (it gives way to it), so this is the command line's -o.
    if (a.long_list && a.format)
        a.fatal = "Options -o(--format) and -l(--long) are mutually exclusive. Please remove one "
                  "and retry.";
    // After -j, the first other word is the job list ("sprio -j 12"), even when -j had one.
    std::size_t next = 0;
    if (a.job_flag && next < pa.positionals.size()) set_jobs(a, pa.positionals[next++]);
    if (next < pa.positionals.size()) a.unrecognized = pa.positionals[next];
    return a;
}

std::vector<std::string> sprio_partitions(const SprioArgs &a) {
    return a.partitions ? split(*a.partitions, ',') : std::vector<std::string>{};
}

SprioUsers resolve_sprio_users(std::string_view list) {
    SprioUsers out;
    for (const auto &name : split(list, ',')) {
        if (auto uid = lookup_user(name))
            out.uids.push_back(*uid);
        else
            out.unknown.push_back(name);
    }
    return out;
}

std::string sprio_options_text(const SprioArgs &a, const std::vector<uint32_t> &uids) {
    const std::string rule = "-----------------------------\n";
    std::string out = rule;
    out += "format     = " + or_null_text(a.format) + "\n";
    out += std::string("job_flag   = ") + (a.job_flag ? "1" : "0") + "\n";
    out += "jobs       = " + or_null_text(a.jobs) + "\n";
    out += "partition  = " + or_null_text(a.partitions) + "\n";
    out += "users      = " + or_null_text(a.users) + "\n";
    out += "verbose    = " + str_i(a.verbose) + "\n";
    if (a.verbose > 1) {
        for (std::size_t i = 0; i < a.job_ids.size(); ++i)
            out += "job_list[" + str_u(i) + "] = " + str_u(a.job_ids[i]) + "\n";
        for (std::size_t i = 0; i < uids.size(); ++i)
            out += "user_list[" + str_u(i) + "] = " + str_u(uids[i]) + "\n";
    }
    return out + rule + "\n\n";
}

std::optional<std::string> sprio_cluster_error(std::string_view clusters,
                                               std::string_view local_cluster) {
    for (const auto &name : split(clusters, ','))
        if (!iequals(trim(name), local_cluster) && !iequals(trim(name), "all"))
            return unreachable_clusters(clusters);
    return std::nullopt;
}

std::span<const OptSpec> sprio_options() {
    return kSpecs;
}

} // namespace drover::cli
