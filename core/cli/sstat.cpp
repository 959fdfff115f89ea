// sstat.cpp - sstat: live usage of running steps, asked of the nodes that run them.
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "cli/command_docs.hpp"
#include "cli/command_main.hpp"
#include "cli/commands.hpp"
#include "cli/job_ids.hpp"
#include "cli/options.hpp"
#include "cli/rpc.hpp"
#include "cli/sstat_fields.hpp"
#include "cli/squeue_steps.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "net/usage_codec.hpp"

namespace drover::cli {

namespace {

constexpr const char *kProg = "sstat";

enum Id {
    kJobs = 1,
    kAll,
    kFormat,
    kNoHeader,
    kParsable,
    kParsable2,
    kHelpFormat,
    kUnits,
    kPidFormat
};

const OptSpec kSpecs[] = {
    {kJobs, 'j', "jobs", Arg::required},       {kAll, 'a', "allsteps", Arg::none},
    {kFormat, 'o', "format", Arg::required},   {kFormat, 0, "fields", Arg::required},
    {kNoHeader, 'n', "noheader", Arg::none},   {kParsable, 'p', "parsable", Arg::none},
    {kParsable2, 'P', "parsable2", Arg::none}, {kHelpFormat, 'e', "helpformat", Arg::none},
    {kUnits, 0, "units", Arg::required},       {kOptHelp, 'h', "help", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},        {kOptVersion, 'V', "version", Arg::none},
    {kPidFormat, 'i', "pidformat", Arg::none}, {kOptVerbose, 'v', "verbose", Arg::none},
};

const char *kHelpText =
    "Usage: sstat [options] -j <job(.stepid)>\n"
    "  -a, --allsteps     print all running steps of the jobs (else the lowest numbered)\n"
    "  -e, --helpformat   list the fields -o accepts\n"
    "  -j, --jobs         job(.step) list to show\n"
    "  -n, --noheader     no header line\n"
    "  -o, --format       comma-separated fields (name%width)\n"
    "  -p, --parsable     '|' after every field\n"
    "  -P, --parsable2    '|' between fields\n"
    "      --units=[KMGTP] show sizes in this unit\n";

// --help and --usage print the help, --version the version line.
const CommandText kText{kProg, kHelpText, nullptr};

constexpr uint32_t kNoVal = 0xfffffffeu;

// What the options ask for; done holds the exit status when an option has answered already
// (--helpformat, --help, --usage, --version).
struct SstatArgs : CommonFlags {
    std::vector<JobSpec> specs;
    bool all = false, noheader = false;
    int parsable = 0;
    char units = 0;
    std::string format = sstat_default_format();
    std::optional<int> done;
};

using OptHandler = void (*)(SstatArgs &a, const std::string &v);

void set_units(SstatArgs &a, const std::string &v) {
    if (v.size() != 1 || std::string("KMGTP").find(char(std::toupper(v[0]))) == std::string::npos)
        throw ParseError("Invalid unit type '" + v + "'");
    a.units = char(std::toupper(v[0]));
}

void add_jobs(SstatArgs &a, const std::string &v) {
    for (auto &s : parse_job_spec_list(v, "Invalid job id: ")) a.specs.push_back(std::move(s));
}

// What each option does; options not listed are accepted and do nothing.
constexpr std::pair<Id, OptHandler> kHandlers[] = {
    {kJobs, add_jobs},
    {kAll, [](SstatArgs &a, const std::string &) { a.all = true; }},
    {kFormat, [](SstatArgs &a, const std::string &v) { a.format = v; }},
    {kNoHeader, [](SstatArgs &a, const std::string &) { a.noheader = true; }},
    {kParsable, [](SstatArgs &a, const std::string &) { a.parsable = 1; }},
    {kParsable2, [](SstatArgs &a, const std::string &) { a.parsable = 2; }},
    {kHelpFormat,
     [](SstatArgs &a, const std::string &) {
         write_out(sstat_field_names());
         a.done = 0;
     }},
    {kUnits, set_units},
};

// The options in order, up to the first that answers on its own.
SstatArgs parse_sstat(const ParsedArgs &pa) {
    SstatArgs a;
    for (const auto &o : pa.opts) {
        if (take_common(a, o)) {
            if (print_help_usage_version(kText, a)) a.done = 0;
        } else {
            std::string v = o.value.value_or("");
            for (const auto &[id, handler] : kHandlers)
                if (id == o.id) handler(a, v);
        }
        if (a.done) return a;
    }
    for (const auto &p : pa.positionals) add_jobs(a, p);
    return a;
}

// The steps spec names: the one it names, or its job's steps (all of them with -a, else the
// lowest numbered).
std::vector<const proto::StepInfo *> chosen_steps(const proto::StepInfoResponse &r,
                                                  const JobSpec &spec, bool all) {
    std::vector<const proto::StepInfo *> chosen;
    if (r.steps())
        for (const auto *st : *r.steps()) {
            if (st->job_id() != spec.job_id) continue;
            if (spec.step_id != kNoVal ? st->step_id() == spec.step_id
                                       : all || st->step_id() < 0xfffffff0u)
                chosen.push_back(st);
        }
    if (spec.step_id == kNoVal && !all && !chosen.empty()) {
        auto lowest = *std::min_element(chosen.begin(), chosen.end(), [](auto *a, auto *b) {
            return a->step_id() < b->step_id();
        });
        chosen = {lowest};
    }
    return chosen;
}

// The step's usage on node, asked of the node; nullopt (said on stderr) when it cannot tell.
std::optional<StepUsageSummary> node_usage(const Config &conf, const NodeConf &nc,
                                           const proto::StepInfo &st, const std::string &node,
                                           const std::string &job_step,
                                           std::vector<int32_t> &pids) {
    flatbuffers::FlatBufferBuilder q(128);
    auto n = q.CreateString(node);
    q.Finish(proto::CreateMessage(
        q, proto::Body::StepStatRequest,
        proto::CreateStepStatRequest(q, st.job_id(), st.step_id(), n).Union()));
    try {
        net::Reply rep =
            net::call(conf.node_addr(nc), conf.node_port(nc), node,
                      {q.GetBufferPointer(), q.GetSize()}, net::socket_signer(conf), 10000);
        const auto *s = rep.as<proto::StepStatResponse>();
        StepUsageSummary u = s->usage() ? net::usage_from_proto(*s->usage()) : StepUsageSummary{};
        if (s->pids()) pids.insert(pids.end(), s->pids()->begin(), s->pids()->end());
        return u;
    } catch (const std::exception &e) {
        print_error(kProg, "couldn't get step " + job_step + " usage on " + node + ": " + e.what());
        return std::nullopt;
    }
}

// One step's line: its usage on all its nodes together; nullopt when no node answered. *rc
// becomes 1 when a node did not.
std::optional<SstatRow> step_row(const Config &conf, const proto::StepInfo &st, int *rc) {
    SstatRow row;
    row.job_step = step_id_text(st);
    row.node_list = st.node_list() ? st.node_list()->str() : "";
    bool first = true;
    for (const auto &node : hostlist_expand(row.node_list)) {
        const NodeConf *nc = conf.find_node(node);
        if (!nc) continue;
        auto u = node_usage(conf, *nc, st, node, row.job_step, row.pids);
        if (!u) {
            *rc = 1;
            continue;
        }
        if (first)
            row.usage = *u;
        else
            merge(row.usage, *u);
        first = false;
    }
    if (first) return std::nullopt;
    return row;
}

} // namespace

int sstat_main(std::span<const std::string> args) {
    ParsedArgs pa;
    try {
        pa = parse_options(args, kSpecs, false);
    } catch (const UsageError &e) {
        print_usage_error(kProg, e);
        return 1;
    }
    return guarded(kProg, [&]() -> int {
        SstatArgs a = parse_sstat(pa);
        if (a.done) return *a.done;
        if (a.specs.empty()) throw ParseError("You didn't give me any jobs to stat.");
        auto fields = parse_sstat_format(a.format);
        std::vector<uint32_t> ids = spec_job_ids(a.specs);
        flatbuffers::FlatBufferBuilder fbb(128);
        auto idv = fbb.CreateVector(ids);
        net::Reply reply;
        // A job the controller does not have (or the user may not see): Slurm's sstat words.
        auto refused = [&](const net::RpcError &e) {
            if (e.code() == DROVER_ENOENT && a.specs.size() == 1)
                print_error(kProg, "couldn't get steps for job " + a.specs[0].text);
            else
                print_error(kProg, e.what());
        };
        const auto *r = ask_ctld<proto::StepInfoResponse>(
            reply, fbb, proto::Body::StepInfoRequest,
            proto::CreateStepInfoRequest(fbb, idv).Union(), refused);
        if (!r) return 1;
        const Config &conf = cli_config();
        std::vector<SstatRow> rows;
        int rc = 0;
        for (const auto &spec : a.specs) {
            std::vector<const proto::StepInfo *> chosen = chosen_steps(*r, spec, a.all);
            if (chosen.empty()) {
                print_error(kProg, "couldn't get steps for job " + spec.text);
                rc = 1;
                continue;
            }
            for (const auto *st : chosen)
                if (auto row = step_row(conf, *st, &rc)) rows.push_back(std::move(*row));
        }
        write_out(render_sstat(fields, rows, a.noheader, a.parsable, a.units));
        return rows.empty() ? 1 : rc;
    });
}

std::span<const OptSpec> sstat_options() {
    return kSpecs;
}

std::string_view sstat_help() {
    return kHelpText;
}

} // namespace drover::cli
