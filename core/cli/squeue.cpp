// squeue.cpp - list jobs: ask the controller, filter, sort, print in the requested format.
#include <time.h>
#include <unistd.h>

#include "cli/commands.hpp"
#include "cli/json_records.hpp"
#include "cli/options.hpp"
#include "cli/rpc.hpp"
#include "cli/squeue_args.hpp"
#include "cli/squeue_fields.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "squeue";

constexpr const char *kHelp =
    "Usage: squeue [OPTIONS]\n"
    "  -A, --account=account(s)        comma separated list of accounts to view\n"
    "  -h, --noheader                  no headers on output\n"
    "  -i, --iterate=seconds           specify an interation period\n"
    "  -j, --job=job(s)                comma separated list of jobs IDs to view\n"
    "      --json                      produce JSON output\n"
    "  -l, --long                      long report\n"
    "      --me                        equivalent to --user=<my username>\n"
    "  -n, --name=job_name(s)          comma separated list of job names to view\n"
    "  -o, --format=format             format specification\n"
    "  -O, --Format=format             format specification\n"
    "  -p, --partition=partition(s)    comma separated list of partitions to view\n"
    "  -S, --sort=fields               comma separated list of fields to sort on\n"
    "      --start                     print expected start times of pending jobs\n"
    "  -t, --states=states             comma separated list of states to view\n"
    "  -u, --user=user_name(s)         comma separated list of users to view\n"
    "  -w, --nodelist=hostlist         list of nodes to view\n"
    "  -v, --verbose                   verbosity level\n"
    "  -V, --version                   output version information and exit\n"
    "\n"
    "Help options:\n"
    "  --help                          show this help message\n"
    "  --usage                         display a brief summary of squeue options\n";

constexpr const char *kUsage =
    "Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]\n"
    "              [-n name] [-o format] [-O Format] [-p partitions] [--qos qos]\n"
    "              [--reservation reservation] [--sort fields] [--start]\n"
    "              [--step step_id] [-t states] [-u user_name] [--usage]\n"
    "              [-w nodes] [--json] [-ahjlrsv]\n";

std::string date_line(int64_t now) {
    time_t t = static_cast<time_t>(now);
    char buf[64];
    struct tm tm{};
    localtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Y\n", &tm);
    return buf;
}

int show_once(const SqueueArgs &a, const SqueueFilter &filter, const SqueueFormat &fmt) {
    if (a.steps) {
        // Steps come with srun; until then a step listing is only its header.
        if (!a.noheader) write_out(squeue_header(fmt) + "\n");
        return 0;
    }
    flatbuffers::FlatBufferBuilder fbb;
    auto ids = fbb.CreateVector(a.job_ids);
    auto req = proto::CreateJobInfoRequest(fbb, ids);
    net::Reply reply;
    try {
        reply = call_ctld(fbb, proto::Body::JobInfoRequest, req.Union());
        reply.as<proto::JobInfoResponse>();
    } catch (const net::RpcError &e) {
        write_err(std::string("slurm_load_jobs error: ") + e.what() + "\n");
        return 1;
    }
    const auto *r = reply.as<proto::JobInfoResponse>();
    int64_t now = r->now() ? r->now() : now_seconds();

    std::vector<const proto::JobInfo *> jobs;
    bool asked_found = false;
    if (r->jobs())
        for (const auto *j : *r->jobs()) {
            if (a.job_ids.size() == 1 && j->job_id() == a.job_ids[0]) asked_found = true;
            if (filter.keep(*j)) jobs.push_back(j);
        }
    // One job asked for by id and the controller does not know it: Slurm's error.
    if (a.job_ids.size() == 1 && !asked_found) {
        write_err("slurm_load_jobs error: Invalid job id specified\n");
        return 1;
    }
    squeue_sort(jobs, a.sort.value_or(a.start ? "S" : kSqueueDefaultSort), now);
    if (a.json) {
        write_out(jobs_json(jobs, now));
        return 0;
    }
    std::string out;
    if (a.long_format || a.iterate) out += date_line(now);
    if (!a.noheader) out += squeue_header(fmt) + "\n";
    for (const auto *j : jobs) out += squeue_line(fmt, *j, now) + "\n";
    write_out(out);
    return 0;
}

int run(std::span<const std::string> args) {
    SqueueArgs a;
    try {
        a = parse_squeue_args(args);
    } catch (const UsageError &e) {
        print_usage_error(kProg, e);
        return 1;
    } catch (const ParseError &e) {
        std::string msg = e.what();
        if (msg.starts_with("Invalid job state")) msg += "\nValid job states include: " + valid_job_state_names();
        print_error(kProg, msg);
        return 1;
    }
    if (a.help) {
        write_out(kHelp);
        return 0;
    }
    if (a.usage) {
        write_out(kUsage);
        return 0;
    }
    if (a.version) {
        write_out(std::string("drover ") + kDroverVersion + "\n");
        return 0;
    }
    SqueueFilter filter = make_squeue_filter(a, static_cast<uint32_t>(::getuid()));
    SqueueFormat fmt;
    if (a.long_fmt) fmt = squeue_long_format(*a.long_fmt);
    else if (a.format) fmt = squeue_percent_format(*a.format);
    else if (a.steps) fmt = squeue_percent_format(kSqueueStepsFormat);
    else if (a.start) fmt = squeue_percent_format(kSqueueStartFormat);
    else if (a.long_format) fmt = squeue_percent_format(kSqueueLongFormat);
    else fmt = squeue_percent_format(kSqueueDefaultFormat);
    std::vector<const proto::JobInfo *> none;
    squeue_sort(none, a.sort.value_or(kSqueueDefaultSort), 0);   // a bad -S fails before any RPC

    if (!a.iterate) return show_once(a, filter, fmt);
    while (true) {
        int rc = show_once(a, filter, fmt);
        if (rc != 0) return rc;
        write_out("\n");
        ::sleep(static_cast<unsigned>(a.iterate));
    }
}

}  // namespace

int squeue_main(std::span<const std::string> args) {
    return guarded(kProg, [&] { return run(args); });
}

}  // namespace drover::cli
