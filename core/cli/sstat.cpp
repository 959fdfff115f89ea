// sstat.cpp - sstat: live usage of running steps, asked of the nodes that run them.
#include <unistd.h>

#include <algorithm>

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
    kHelp,
    kUsage,
    kVersion,
    kPidFormat,
    kVerbose
};

const OptSpec kSpecs[] = {
    {kJobs, 'j', "jobs", Arg::required},       {kAll, 'a', "allsteps", Arg::none},
    {kFormat, 'o', "format", Arg::required},   {kFormat, 0, "fields", Arg::required},
    {kNoHeader, 'n', "noheader", Arg::none},   {kParsable, 'p', "parsable", Arg::none},
    {kParsable2, 'P', "parsable2", Arg::none}, {kHelpFormat, 'e', "helpformat", Arg::none},
    {kUnits, 0, "units", Arg::required},       {kHelp, 'h', "help", Arg::none},
    {kUsage, 0, "usage", Arg::none},           {kVersion, 'V', "version", Arg::none},
    {kPidFormat, 'i', "pidformat", Arg::none}, {kVerbose, 'v', "verbose", Arg::none},
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

constexpr uint32_t kNoVal = 0xfffffffeu;

} // namespace

int sstat_main(std::span<const std::string> args) {
    ParsedArgs pa;
    try {
        pa = parse_options(args, kSpecs, false);
    } catch (const UsageError &e) {
        print_usage_error(kProg, e);
        return 1;
    }
    std::vector<JobSpec> specs;
    bool all = false, noheader = false;
    int parsable = 0;
    char units = 0;
    std::string format = sstat_default_format();
    return guarded(kProg, [&]() -> int {
        for (const auto &o : pa.opts) {
            std::string v = o.value.value_or("");
            switch (o.id) {
            case kJobs:
                for (auto &s : parse_job_spec_list(v, "Invalid job id: "))
                    specs.push_back(std::move(s));
                break;
            case kAll:
                all = true;
                break;
            case kFormat:
                format = v;
                break;
            case kNoHeader:
                noheader = true;
                break;
            case kParsable:
                parsable = 1;
                break;
            case kParsable2:
                parsable = 2;
                break;
            case kHelpFormat:
                write_out(sstat_field_names());
                return 0;
            case kUnits:
                if (v.size() != 1 ||
                    std::string("KMGTP").find(char(std::toupper(v[0]))) == std::string::npos)
                    throw ParseError("Invalid unit type '" + v + "'");
                units = char(std::toupper(v[0]));
                break;
            case kHelp:
            case kUsage:
                write_out(kHelpText);
                return 0;
            case kVersion:
                write_out(version_line("slurm-compatible drover "));
                return 0;
            default:
                break;
            }
        }
        for (const auto &p : pa.positionals)
            for (auto &s : parse_job_spec_list(p, "Invalid job id: "))
                specs.push_back(std::move(s));
        if (specs.empty()) throw ParseError("You didn't give me any jobs to stat.");
        auto fields = parse_sstat_format(format);
        std::vector<uint32_t> ids = spec_job_ids(specs);
        flatbuffers::FlatBufferBuilder fbb(128);
        auto idv = fbb.CreateVector(ids);
        net::Reply reply;
        const auto *r =
            ask_ctld<proto::StepInfoResponse>(reply, fbb, proto::Body::StepInfoRequest,
                                              proto::CreateStepInfoRequest(fbb, idv).Union(),
                                              error_line(std::string(kProg) + ": error: "));
        if (!r) return 1;
        const Config &conf = cli_config();
        std::vector<SstatRow> rows;
        int rc = 0;
        for (const auto &spec : specs) {
            std::vector<const proto::StepInfo *> chosen;
            if (r->steps())
                for (const auto *st : *r->steps()) {
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
            if (chosen.empty()) {
                print_error(kProg, "couldn't get steps for job " + spec.text);
                rc = 1;
                continue;
            }
            for (const auto *st : chosen) {
                SstatRow row;
                row.job_step = step_id_text(*st);
                row.node_list = st->node_list() ? st->node_list()->str() : "";
                bool first = true;
                for (const auto &node : hostlist_expand(row.node_list)) {
                    const NodeConf *nc = conf.find_node(node);
                    if (!nc) continue;
                    flatbuffers::FlatBufferBuilder q(128);
                    auto n = q.CreateString(node);
                    q.Finish(proto::CreateMessage(
                        q, proto::Body::StepStatRequest,
                        proto::CreateStepStatRequest(q, st->job_id(), st->step_id(), n).Union()));
                    try {
                        net::Reply rep = net::call(conf.node_addr(*nc), conf.node_port(*nc), node,
                                                   {q.GetBufferPointer(), q.GetSize()},
                                                   net::socket_signer(conf), 10000);
                        const auto *s = rep.as<proto::StepStatResponse>();
                        StepUsageSummary u =
                            s->usage() ? net::usage_from_proto(*s->usage()) : StepUsageSummary{};
                        if (first)
                            row.usage = u;
                        else
                            merge(row.usage, u);
                        first = false;
                        if (s->pids())
                            row.pids.insert(row.pids.end(), s->pids()->begin(), s->pids()->end());
                    } catch (const std::exception &e) {
                        print_error(kProg, "couldn't get step " + row.job_step + " usage on " +
                                               node + ": " + e.what());
                        rc = 1;
                    }
                }
                if (!first) rows.push_back(std::move(row));
            }
        }
        write_out(render_sstat(fields, rows, noheader, parsable, units));
        return rows.empty() ? 1 : rc;
    });
}

} // namespace drover::cli
