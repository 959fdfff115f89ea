// sacct_args.cpp - sacct option parsing.
#include "cli/sacct_args.hpp"

#include <cctype>
#include <string_view>

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
    kHelp,
    kUsage,
    kVersion,
    kVerbose,
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
    {kHelp, 'h', "help", Arg::none},
    {kUsage, 0, "usage", Arg::none},
    {kVersion, 'V', "version", Arg::none},
    {kVerbose, 'v', "verbose", Arg::none},
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

} // namespace

SacctArgs parse_sacct_args(std::span<const std::string> args) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/false);
    if (!pa.positionals.empty()) throw UsageError("Unrecognized option: " + pa.positionals[0]);
    SacctArgs a;
    for (const auto &o : pa.opts) {
        const std::string v = o.value.value_or("");
        switch (static_cast<Id>(o.id)) {
        case kAllUsers:
            a.allusers = true;
            break;
        case kAccounts:
            append_list(a.accounts, v);
            break;
        case kBrief:
            a.brief = true;
            break;
        case kHelpFormat:
            a.helpformat = true;
            break;
        case kEndTime:
            a.end = v;
            break;
        case kJobs:
            for (auto &sel : parse_sacct_jobs(v)) a.jobs.push_back(std::move(sel));
            a.job_ids = sacct_job_ids(a.jobs);
            break;
        case kLong:
            a.long_format = true;
            break;
        case kNoheader:
            a.noheader = true;
            break;
        case kNodelist:
            a.nodelist = v;
            break;
        case kName:
            append_list(a.names, v);
            break;
        case kFormat:
            if (a.format)
                a.format = *a.format + "," + v;
            else
                a.format = v;
            break;
        case kParsable:
            a.parsable = true;
            break;
        case kParsable2:
            a.parsable2 = true;
            break;
        case kPartition:
            append_list(a.partitions, v);
            break;
        case kState:
            for (const auto &name : split(v, ',')) {
                auto st = parse_job_state(trim(name));
                if (!st)
                    throw SacctFatal("unrecognized job state value '" + std::string(trim(name)) +
                                     "'");
                a.states.states.push_back(*st);
            }
            break;
        case kDuplicates:
            a.duplicates = true;
            break;
        case kClusters: { // a later -M replaces an earlier one; "all" means every cluster
            auto items = split(v, ',');
            bool all = false;
            for (const auto &c : items) all = all || iequals(trim(c), "all") || trim(c) == "-1";
            a.clusters.clear();
            if (!all)
                for (const auto &c : items) a.clusters.push_back(to_lower(trim(c)));
            break;
        }
        case kAllClusters:
            a.clusters.clear();
            break;
        case kStartTime:
            a.start = v;
            break;
        case kUser:
        case kUid:
            append_list(a.users, v);
            break;
        case kAllocations:
            a.allocations = true;
            break;
        case kHelp:
            a.help = true;
            break;
        case kUsage:
            a.usage = true;
            break;
        case kVersion:
            a.version = true;
            break;
        case kVerbose:
            ++a.verbose;
            break;
        case kDelimiter:
            a.delimiter = v;
            break;
        case kJson:
            a.json = true;
            break;
        case kYaml:
            throw ParseError("--yaml is not supported by Drover; use --json");
        case kUnits: {
            char u = v.size() == 1 ? char(std::toupper(static_cast<unsigned char>(v[0]))) : 0;
            if (std::string_view("KMGTP").find(u) == std::string_view::npos || !u)
                throw SacctFatal("Invalid unit type");
            a.units = u;
            break;
        }
        default:
            break;
        }
    }
    return a;
}

} // namespace drover::cli
