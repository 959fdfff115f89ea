// scancel_args.cpp - scancel option parsing.
#include "cli/command_docs.hpp"
#include "cli/scancel_args.hpp"

#include <drover/views.h>
#include <csignal>

#include "cli/job_states.hpp"
#include "cli/options.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kAccount,
    kBatch,
    kCtld,
    kFull,
    kHurry,
    kInteractive,
    kName,
    kPartition,
    kQos,
    kQuiet,
    kReservation,
    kSignal,
    kState,
    kUser,
    kMe,
    kNodelist,
    kWckey,
    kSibling,
    kJobName
};

constexpr OptSpec kSpecs[] = {
    {kAccount, 'A', "account", Arg::required},
    {kBatch, 'b', "batch", Arg::none},
    {kCtld, 0, "ctld", Arg::none},
    {kFull, 'f', "full", Arg::none},
    {kOptHelp, 0, "help", Arg::none},
    {kHurry, 'H', "hurry", Arg::none},
    {kInteractive, 'i', "interactive", Arg::none},
    {kOptClusters, 'M', "clusters", Arg::required},
    {kName, 'n', "name", Arg::required},
    {kJobName, 0, "jobname", Arg::required},
    {kPartition, 'p', "partition", Arg::required},
    {kQos, 'q', "qos", Arg::required},
    {kQuiet, 'Q', "quiet", Arg::none},
    {kReservation, 'R', "reservation", Arg::required},
    {kSignal, 's', "signal", Arg::required},
    {kState, 't', "state", Arg::required},
    {kUser, 'u', "user", Arg::required},
    {kMe, 0, "me", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kNodelist, 'w', "nodelist", Arg::required},
    {kWckey, 0, "wckey", Arg::required},
    {kSibling, 0, "sibling", Arg::required},
};

struct Sig {
    const char *name;
    int num;
};
constexpr Sig kSignals[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ABRT", SIGABRT},
    {"KILL", SIGKILL}, {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"USR1", SIGUSR1},
    {"USR2", SIGUSR2}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP},
    {"TTIN", SIGTTIN}, {"TTOU", SIGTTOU}, {"URG", SIGURG},   {"XCPU", SIGXCPU},
};

// scancel(1)'s ENVIRONMENT VARIABLES; the true/false ones as Slurm's scancel reads them.
const EnvOption kEnvOptions[] = {
    {"SCANCEL_ACCOUNT", kAccount},
    {"SCANCEL_BATCH", kBatch, EnvValue::true_false},
    {"SCANCEL_CTLD", kCtld, EnvValue::presence},
    {"SCANCEL_FULL", kFull, EnvValue::true_false},
    {"SCANCEL_HURRY", kHurry, EnvValue::presence},
    {"SCANCEL_INTERACTIVE", kInteractive, EnvValue::true_false},
    {"SCANCEL_NAME", kName, EnvValue::as_is, {kJobName}},
    {"SCANCEL_PARTITION", kPartition},
    {"SCANCEL_QOS", kQos},
    {"SCANCEL_STATE", kState},
    {"SCANCEL_USER", kUser, EnvValue::as_is, {kMe}},
    {"SCANCEL_VERBOSE", kOptVerbose, EnvValue::true_false, {kQuiet}},
    {"SCANCEL_WCKEY", kWckey},
    {"SLURM_CLUSTERS", kOptClusters},
};

void add_states(ScancelArgs &a, const ParsedOpt &o, const std::string &v) {
    for (const auto &item : split(v, ',')) {
        auto st = parse_job_state(item);
        if (st && (*st == DROVER_JOB_PENDING || *st == DROVER_JOB_RUNNING ||
                   *st == DROVER_JOB_SUSPENDED)) {
            a.states.push_back(*st);
            continue;
        }
        if (o.spelled == "SCANCEL_STATE")
            throw ParseError("Unrecognized SCANCEL_STATE value: " + item);
        throw ParseError("Invalid job state specified: " + item);
    }
}

// The filters (-A, -q, -R, -w, -i and -t); returns whether o was one.
bool take_filter(ScancelArgs &a, const ParsedOpt &o, const std::string &v) {
    switch (static_cast<Id>(o.id)) {
    case kAccount:
        a.account = to_lower(v);
        return true;
    case kQos:
        a.qos = to_lower(v);
        return true;
    case kReservation:
        a.reservation = v;
        return true;
    case kNodelist:
        a.nodelist = v;
        return true;
    case kInteractive:
        a.interactive = true;
        return true;
    case kState:
        add_states(a, o, v);
        return true;
    default:
        return false;
    }
}

} // namespace

std::optional<int> parse_signal(std::string_view s) {
    if (auto n = parse_u32(s)) {
        if (*n >= 1 && *n <= 64) return static_cast<int>(*n);
        return std::nullopt;
    }
    std::string up = to_upper(s);
    std::string_view name = up;
    if (name.starts_with("SIG")) name.remove_prefix(3);
    for (const auto &sig : kSignals)
        if (name == sig.name) return sig.num;
    return std::nullopt;
}

ScancelArgs parse_scancel_args(std::span<const std::string> args, const EnvVars &env) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/false);
    ScancelArgs a;
    for (const auto &o : with_env_options(env, kEnvOptions, std::move(pa.opts))) {
        if (take_common(a, o)) continue;
        const std::string v = o.value.value_or("");
        if (take_filter(a, o, v)) continue;
        switch (static_cast<Id>(o.id)) {
        case kBatch:
            a.batch = true;
            break;
        case kFull:
            a.full = true;
            break;
        case kName:
        case kJobName:
            a.name = v;
            break;
        case kPartition:
            a.partition = v;
            break;
        case kQuiet:
            a.quiet = true;
            break;
        case kSignal: {
            auto s = parse_signal(v);
            if (!s) throw ParseError("Invalid job signal: " + v);
            a.signal = *s;
            break;
        }
        case kUser:
            a.user = v;
            break;
        case kMe:
            a.me = true;
            break;
        case kSibling:
            a.sibling = to_lower(v);
            break;
        default:
            break;
        }
    }
    for (const auto &p : pa.positionals) {
        // Ids may be separated by spaces or commas.
        for (const auto &item : split_job_specs(p)) {
            auto spec = parse_job_spec(item);
            if (!spec) throw ParseError("Invalid job id " + item);
            a.jobs.push_back(std::move(*spec));
        }
    }
    return a;
}

std::span<const OptSpec> scancel_options() {
    return kSpecs;
}

} // namespace drover::cli
