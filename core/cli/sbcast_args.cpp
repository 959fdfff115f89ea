// sbcast_args.cpp - sbcast's command line.
#include "cli/command_docs.hpp"
#include "cli/sbcast_args.hpp"

#include <strings.h>

#include <cstdlib>

#include "cli/job_ids.hpp"
#include "cli/options.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

enum Id {
    kCompress = 1,
    kExclude,
    kFanout,
    kForce,
    kJobId,
    kSendLibs,
    kPreserve,
    kSize,
    kTimeout,
};

constexpr OptSpec kSpecs[] = {
    {kCompress, 'C', "compress", Arg::optional}, {kExclude, 0, "exclude", Arg::required},
    {kFanout, 'F', "fanout", Arg::required},     {kForce, 'f', "force", Arg::none},
    {kJobId, 'j', "jobid", Arg::required},       {kSendLibs, 0, "send-libs", Arg::optional},
    {kPreserve, 'p', "preserve", Arg::none},     {kSize, 's', "size", Arg::required},
    {kTimeout, 't', "timeout", Arg::required},   {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},    {kOptHelp, 0, "help", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
};

// --send-libs's yes/no (an empty value is yes); nullopt for anything else.
std::optional<bool> yes_no(const std::string &v) {
    if (v.empty() || v == "yes" || v == "Yes" || v == "YES") return true;
    if (v == "no" || v == "No" || v == "NO") return false;
    return std::nullopt;
}

uint32_t number(const std::string &v) {
    return uint32_t(std::strtoul(v.c_str(), nullptr, 10));
}

// -s or SBCAST_SIZE: a bad size is ignored with a warning.
uint32_t sized(SbcastArgs &a, const std::string &v) {
    uint32_t n = bcast_block_size(v);
    if (n == 0) a.warnings.push_back("size specification is invalid, ignored");
    return n ? n : a.block_size;
}

// "J" or "J.S" as -j and SLURM_JOB_ID give it.
void set_job(SbcastArgs &a, const std::string &v) {
    auto spec = parse_job_spec(v);
    if (!spec || spec->has_tasks || spec->job_id == 0 ||
        (spec->step_id != 0xfffffffeu && spec->step_id >= 0xfffffff0u))
        throw ParseError("Invalid job id " + v);
    a.job_id = spec->job_id;
    a.step_id = spec->step_id;
}

// One option's value applied (from the command line, or an SBCAST_* variable: name, as its
// warning names it).
void apply(SbcastArgs &a, int id, const std::string &v, const std::string &name) {
    switch (id) {
    case kCompress:
        a.compress = v.empty() ? "lz4" : v;
        break;
    case kExclude:
        a.exclude = v;
        break;
    case kFanout:
        a.fanout = number(v);
        break;
    case kForce:
        a.force = true;
        break;
    case kJobId:
        set_job(a, v);
        break;
    case kPreserve:
        a.preserve = true;
        break;
    case kSize:
        a.block_size = sized(a, v);
        break;
    case kTimeout:
        a.timeout_ms = std::min(number(v), 3600u) * 1000; // past an hour, a hop's cap rules
        break;
    case kSendLibs:
        if (auto yes = yes_no(v))
            a.send_libs = *yes;
        else
            a.warnings.push_back("Ignoring unrecognized " + name + " value '" + v + "'");
        break;
    }
}

// The SBCAST_* variables, each the option it stands for: defaults the command line overrides
// (SBCAST_FORCE and SBCAST_PRESERVE set, whatever their value).
constexpr std::pair<const char *, Id> kEnv[] = {
    {"SBCAST_COMPRESS", kCompress}, {"SBCAST_EXCLUDE", kExclude},    {"SBCAST_FANOUT", kFanout},
    {"SBCAST_FORCE", kForce},       {"SBCAST_PRESERVE", kPreserve},  {"SBCAST_SIZE", kSize},
    {"SBCAST_TIMEOUT", kTimeout},   {"SBCAST_SEND_LIBS", kSendLibs},
};

} // namespace

uint32_t bcast_block_size(const std::string &v) {
    char *end = nullptr;
    long n = std::strtol(v.c_str(), &end, 10);
    if (end == v.c_str() || n < 0) return 0;
    long mult = 1;
    if (*end == 'k' || *end == 'K') mult = 1024;
    if (*end == 'm' || *end == 'M') mult = 1 << 20;
    if ((*end && mult == 1) || (*end && end[1])) return 0;
    long long size = (long long)n * mult;
    return size > (1ll << 30) ? 0 : uint32_t(size);
}

SbcastArgs parse_sbcast_args(std::span<const std::string> args,
                             const std::vector<std::pair<std::string, std::string>> &env) {
    SbcastArgs a;
    for (const auto &[k, v] : env)
        for (const auto &[name, id] : kEnv)
            if (k == name) apply(a, id, v, name);
    ParsedArgs p = parse_options(args, kSpecs, false);
    for (const auto &o : p.opts)
        if (!take_common(a, o)) apply(a, o.id, o.value.value_or(""), "--send-libs");
    if (a.help || a.usage || a.version) return a;
    if (p.positionals.size() != 2)
        throw ParseError("Need two file names, have " + std::to_string(p.positionals.size()) +
                         " names");
    if (a.job_id == 0) {
        for (const auto &[k, v] : env)
            if (k == "SLURM_JOB_ID") set_job(a, v);
        if (a.job_id == 0)
            throw ParseError("Need a job id to run this command.  Run from within a Slurm job or "
                             "use the --jobid option.");
    }
    a.source = p.positionals[0];
    a.dest = p.positionals[1];
    return a;
}

std::string bcast_dest_dir(const std::string &bcast_parameters, const std::string &cwd) {
    std::string dir = cwd;
    // BcastParameters=DestDir=/path[,...]: the key is not case-sensitive.
    for (const auto &item : split(bcast_parameters, ','))
        if (item.size() > 8 && strncasecmp(item.c_str(), "DestDir=", 8) == 0) dir = item.substr(8);
    return dir;
}

std::string resolve_bcast_dest(const std::string &dest, const std::string &bcast_parameters,
                               const std::string &cwd) {
    std::string path = dest;
    if (dest.empty() || dest.front() != '/')
        path = bcast_dest_dir(bcast_parameters, cwd) + "/" + dest;
    if (path.back() == '/') throw ParseError("Target filename cannot be a directory.");
    return path;
}

std::span<const OptSpec> sbcast_options() {
    return kSpecs;
}

} // namespace drover::cli
