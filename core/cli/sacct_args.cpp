// sacct_args.cpp - sacct option parsing.
#include "cli/command_docs.hpp"
#include "cli/sacct_args.hpp"

#include <cctype>
#include <string_view>
#include <utility>

#include "cli/options.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kAllUsers,
    kAccounts,
    kBrief,
    kCompletion,
    kDuplicates,
    kFederation,
    kLocal,
    kHelpFormat,
    kEndTime,
    kJobs,
    kLong,
    kAllClusters,
    kClusters,
    kNoheader,
    kNodelist,
    kName,
    kFormat,
    kParsable,
    kParsable2,
    kPartition,
    kState,
    kStartTime,
    kTruncate,
    kUser,
    kUid,
    kAllocations,
    kDelimiter,
    kJson,
    kYaml,
    kUnits,
    kArray,
    kGroup,
    kQos,
    kNoconvert,
};

constexpr OptSpec kSpecs[] = {
    {kAllUsers, 'a', "allusers", Arg::none},
    {kAccounts, 'A', "accounts", Arg::required},
    {kBrief, 'b', "brief", Arg::none},
    {kCompletion, 'c', "completion", Arg::none},
    {kDuplicates, 'D', "duplicates", Arg::none},
    {kFederation, 0, "federation", Arg::none},
    {kLocal, 0, "local", Arg::none},
    {kHelpFormat, 'e', "helpformat", Arg::none},
    {kEndTime, 'E', "endtime", Arg::required},
    {kJobs, 'j', "jobs", Arg::required},
    {kLong, 'l', "long", Arg::none},
    {kAllClusters, 'L', "allclusters", Arg::none},
    {kClusters, 'M', "clusters", Arg::required},
    {kNoheader, 'n', "noheader", Arg::none},
    {kNodelist, 'N', "nodelist", Arg::required},
    {kName, 0, "name", Arg::required},
    {kFormat, 'o', "format", Arg::required},
    {kParsable, 'p', "parsable", Arg::none},
    {kParsable2, 'P', "parsable2", Arg::none},
    {kPartition, 'r', "partition", Arg::required},
    {kState, 's', "state", Arg::required},
    {kStartTime, 'S', "starttime", Arg::required},
    {kTruncate, 'T', "truncate", Arg::none},
    {kUser, 'u', "user", Arg::required},
    {kUid, 0, "uid", Arg::required},
    {kAllocations, 'X', "allocations", Arg::none},
    {kOptHelp, 'h', "help", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kDelimiter, 0, "delimiter", Arg::required},
    {kJson, 0, "json", Arg::optional},
    {kYaml, 0, "yaml", Arg::optional},
    {kUnits, 0, "units", Arg::required},
    {kArray, 0, "array", Arg::none},
    {kGroup, 'g', "gid", Arg::required},
    {kGroup, 0, "group", Arg::required},
    {kQos, 'q', "qos", Arg::required},
    {kNoconvert, 0, "noconvert", Arg::none},
};

void append_list(std::vector<std::string> &to, const std::string &list) {
    for (auto &s : split(list, ',')) to.push_back(std::move(s));
}

void add_states(SacctArgs &a, const std::string &v) {
    for (const auto &name : split(v, ',')) {
        auto st = parse_job_state(trim(name));
        if (!st) throw SacctFatal("unrecognized job state value '" + std::string(trim(name)) + "'");
        a.states.states.push_back(*st);
    }
}

// A later -M replaces an earlier one; "all" means every cluster.
void set_clusters(SacctArgs &a, const std::string &v) {
    auto items = split(v, ',');
    bool all = false;
    for (const auto &c : items) all = all || iequals(trim(c), "all") || trim(c) == "-1";
    a.clusters.clear();
    a.all_clusters = all;
    if (!all)
        for (const auto &c : items) a.clusters.push_back(to_lower(trim(c)));
}

void set_units(SacctArgs &a, const std::string &v) {
    char u = v.size() == 1 ? char(std::toupper(static_cast<unsigned char>(v[0]))) : 0;
    if (std::string_view("KMGTP").find(u) == std::string_view::npos || !u)
        throw SacctFatal("Invalid unit type");
    a.units = u;
}

using OptHandler = void (*)(SacctArgs &a, const std::string &v);

// What each option does to the arguments.
constexpr std::pair<Id, OptHandler> kHandlers[] = {
    {kAllUsers, [](SacctArgs &a, const std::string &) { a.allusers = true; }},
    {kAccounts, [](SacctArgs &a, const std::string &v) { append_list(a.accounts, v); }},
    {kBrief, [](SacctArgs &a, const std::string &) { a.brief = true; }},
    {kHelpFormat, [](SacctArgs &a, const std::string &) { a.helpformat = true; }},
    {kEndTime, [](SacctArgs &a, const std::string &v) { a.end = v; }},
    {kJobs,
     [](SacctArgs &a, const std::string &v) {
         for (auto &sel : parse_sacct_jobs(v)) a.jobs.push_back(std::move(sel));
         a.job_ids = sacct_job_ids(a.jobs);
     }},
    {kLong, [](SacctArgs &a, const std::string &) { a.long_format = true; }},
    {kNoheader, [](SacctArgs &a, const std::string &) { a.noheader = true; }},
    {kNodelist, [](SacctArgs &a, const std::string &v) { a.nodelist = v; }},
    {kName, [](SacctArgs &a, const std::string &v) { append_list(a.names, v); }},
    {kFormat,
     [](SacctArgs &a, const std::string &v) { a.format = a.format ? *a.format + "," + v : v; }},
    {kParsable, [](SacctArgs &a, const std::string &) { a.parsable = true; }},
    {kParsable2, [](SacctArgs &a, const std::string &) { a.parsable2 = true; }},
    {kPartition, [](SacctArgs &a, const std::string &v) { append_list(a.partitions, v); }},
    {kState, add_states},
    {kDuplicates, [](SacctArgs &a, const std::string &) { a.duplicates = true; }},
    {kFederation, [](SacctArgs &a, const std::string &) { a.view = StatusView::Federation; }},
    {kLocal, [](SacctArgs &a, const std::string &) { a.view = StatusView::Local; }},
    {kClusters, set_clusters},
    {kAllClusters,
     [](SacctArgs &a, const std::string &) {
         a.clusters.clear();
         a.all_clusters = true;
     }},
    {kStartTime, [](SacctArgs &a, const std::string &v) { a.start = v; }},
    {kUser, [](SacctArgs &a, const std::string &v) { append_list(a.users, v); }},
    {kUid, [](SacctArgs &a, const std::string &v) { append_list(a.users, v); }},
    {kAllocations, [](SacctArgs &a, const std::string &) { a.allocations = true; }},
    {kDelimiter, [](SacctArgs &a, const std::string &v) { a.delimiter = v; }},
    {kJson, [](SacctArgs &a, const std::string &) { a.json = true; }},
    {kYaml, [](SacctArgs &a, const std::string &) { a.yaml = true; }},
    {kUnits, set_units},
};

// sacct(1)'s ENVIRONMENT VARIABLES that map onto Drover's options.
const EnvOption kEnvOptions[] = {
    {"SACCT_FORMAT", kFormat, EnvValue::as_is, {kBrief, kLong, kCompletion}},
};

} // namespace

SacctArgs parse_sacct_args(std::span<const std::string> args, const EnvVars &env) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/false);
    if (!pa.positionals.empty()) throw UsageError("Unrecognized option: " + pa.positionals[0]);
    SacctArgs a;
    for (const auto &o : with_env_options(env, kEnvOptions, std::move(pa.opts))) {
        if (take_common(a, o)) continue;
        const std::string v = o.value.value_or("");
        for (const auto &[id, handler] : kHandlers)
            if (id == o.id) handler(a, v);
    }
    return a;
}

std::span<const OptSpec> sacct_options() {
    return kSpecs;
}

} // namespace drover::cli
