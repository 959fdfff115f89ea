// sinfo_args.cpp - sinfo option parsing.
#include "cli/command_docs.hpp"
#include "cli/sinfo_args.hpp"

#include "cli/env_options.hpp"
#include "cli/options.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kAll,
    kDead,
    kExact,
    kFuture,
    kFormat,
    kLongFormat,
    kHide,
    kIterate,
    kJson,
    kYaml,
    kListReasons,
    kLong,
    kLocal,
    kNode,
    kNodes,
    kNoheader,
    kNoconvert,
    kPartition,
    kResponding,
    kSort,
    kSummarize,
    kStates,
    kReservation,
    kFederation,
};

constexpr OptSpec kSpecs[] = {
    {kAll, 'a', "all", Arg::none},
    {kDead, 'd', "dead", Arg::none},
    {kExact, 'e', "exact", Arg::none},
    {kFuture, 'F', "future", Arg::none},
    {kFederation, 0, "federation", Arg::none},
    {kFormat, 'o', "format", Arg::required},
    {kLongFormat, 'O', "Format", Arg::required},
    {kOptHelp, 0, "help", Arg::none},
    {kHide, 0, "hide", Arg::none},
    {kIterate, 'i', "iterate", Arg::required},
    {kJson, 0, "json", Arg::optional},
    {kYaml, 0, "yaml", Arg::optional},
    {kListReasons, 'R', "list-reasons", Arg::none},
    {kLong, 'l', "long", Arg::none},
    {kLocal, 0, "local", Arg::none},
    {kOptClusters, 'M', "clusters", Arg::required},
    {kNode, 'N', "Node", Arg::none},
    {kNodes, 'n', "nodes", Arg::required},
    {kNoheader, 'h', "noheader", Arg::none},
    {kNoconvert, 0, "noconvert", Arg::none},
    {kPartition, 'p', "partition", Arg::required},
    {kResponding, 'r', "responding", Arg::none},
    {kSort, 'S', "sort", Arg::required},
    {kSummarize, 's', "summarize", Arg::none},
    {kStates, 't', "states", Arg::required},
    {kReservation, 'T', "reservation", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
};

// sinfo(1)'s ENVIRONMENT VARIABLES. SINFO_FORMAT is the layout only where no option picks one
// (-o, -O, -s, -N, -R; -l does not); -a on the command line drops SINFO_PARTITION.
const EnvOption kEnvOptions[] = {
    {"SINFO_ALL", kAll, EnvValue::presence},
    {"SINFO_FEDERATION", kFederation, EnvValue::presence},
    {"SINFO_FORMAT", kFormat, EnvValue::as_is, {kLongFormat, kSummarize, kNode, kListReasons}},
    {"SINFO_LOCAL", kLocal, EnvValue::presence},
    {"SINFO_PARTITION", kPartition, EnvValue::as_is, {kAll}},
    {"SINFO_SORT", kSort},
    {"SLURM_CLUSTERS", kOptClusters},
};

// Slurm's refusals of -a with -p, on the command line or in the environment.
void check_all_and_partition(const std::vector<ParsedOpt> &opts, const EnvVars &env) {
    if (env_value(env, "SINFO_ALL") && env_value(env, "SINFO_PARTITION"))
        throw ParseError("Conflicting options, SINFO_ALL and SINFO_PARTITION, specified. "
                         "Please choose one or the other.");
    bool all = false, partition = false;
    for (const auto &o : opts) {
        all = all || o.id == kAll;
        partition = partition || o.id == kPartition;
    }
    if (all && partition)
        throw ParseError("Conflicting options, -a and -p, specified. "
                         "Please choose one or the other.");
}

} // namespace

SinfoArgs parse_sinfo_args(std::span<const std::string> args, const EnvVars &env) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/false);
    if (!pa.positionals.empty()) throw UsageError("Unrecognized option: " + pa.positionals[0]);
    check_all_and_partition(pa.opts, env);
    SinfoArgs a;
    for (const auto &o : with_env_options(env, kEnvOptions, std::move(pa.opts))) {
        if (take_common(a, o)) continue;
        const std::string v = o.value.value_or("");
        switch (static_cast<Id>(o.id)) {
        case kAll:
            a.all = true;
            break;
        case kDead:
            a.dead = true;
            break;
        case kFuture:
            a.future = true;
            break;
        case kFederation:
            a.view = StatusView::Federation;
            break;
        case kLocal:
            a.view = StatusView::Local;
            break;
        case kFormat:
            a.format = v;
            break;
        case kLongFormat:
            a.long_fmt = v;
            break;
        case kIterate: {
            auto n = parse_u32(v);
            if (!n || *n == 0) throw ParseError("invalid --iterate value: " + v);
            a.iterate = static_cast<int>(*n);
            break;
        }
        case kJson:
            a.json = true;
            break;
        case kYaml:
            a.yaml = true;
            break;
        case kListReasons:
            a.list_reasons = true;
            break;
        case kLong:
            a.long_format = true;
            break;
        case kNode:
            a.node_oriented = true;
            break;
        case kNodes:
            a.nodes = v;
            break;
        case kNoheader:
            a.noheader = true;
            break;
        case kPartition:
            for (auto &p : split(v, ',')) a.partitions.push_back(std::move(p));
            break;
        case kResponding:
            a.responding = true;
            break;
        case kSort:
            a.sort = v;
            break;
        case kSummarize:
            a.summarize = true;
            break;
        case kStates: {
            auto s = parse_node_state_list(v);
            a.states.insert(a.states.end(), s.begin(), s.end());
            break;
        }
        case kReservation:
            a.reservations = true;
            break;
        default:
            break;
        }
    }
    return a;
}

std::string sinfo_format_string(const SinfoArgs &a) {
    if (a.format) return *a.format;
    if (a.list_reasons) return a.long_format ? kSinfoReasonsLongFormat : kSinfoReasonsFormat;
    if (a.summarize) return kSinfoSummarizeFormat;
    if (a.node_oriented) return a.long_format ? kSinfoNodeLongFormat : kSinfoNodeFormat;
    return a.long_format ? kSinfoLongFormat : kSinfoDefaultFormat;
}

std::span<const OptSpec> sinfo_options() {
    return kSpecs;
}

} // namespace drover::cli
