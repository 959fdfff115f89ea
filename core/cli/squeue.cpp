// squeue.cpp - list jobs: ask the controller, filter, sort, print in the requested format.
#include <unistd.h>

#include <drover/views.h>

#include "cli/command_docs.hpp"
#include "cli/alloc.hpp"
#include <algorithm>
#include <unordered_map>

#include "cli/clusters.hpp"
#include "cli/command_main.hpp"
#include "cli/squeue_steps.hpp"
#include "cli/iterate.hpp"
#include "cli/job_states.hpp"
#include "cli/json_records.hpp"
#include "cli/load_records.hpp"
#include "cli/squeue_args.hpp"
#include "cli/squeue_fields.hpp"
#include "cli/text.hpp"
#include "cli/yaml_writer.hpp"
#include "proto/fb_read.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

constexpr const char *kHelp =
    "Usage: squeue [OPTIONS]\n"
    "  -A, --account=account(s)        comma separated list of accounts to view\n"
    "  -h, --noheader                  no headers on output\n"
    "  -i, --iterate=seconds           specify an interation period\n"
    "  -j, --job=job(s)                comma separated list of jobs IDs to view\n"
    "      --json                      produce JSON output\n"
    "      --yaml                      produce YAML output\n"
    "  -l, --long                      long report\n"
    "      --me                        equivalent to --user=<my username>\n"
    "  -n, --name=job_name(s)          comma separated list of job names to view\n"
    "  -o, --format=format             format specification\n"
    "  -O, --Format=format             format specification\n"
    "  -L, --licenses=(license names)  comma separated list of license names to view\n"
    "  -p, --partition=partition(s)    comma separated list of partitions to view\n"
    "  -q, --qos=qos(s)                comma separated list of qos's\n"
    "                                  to view, default is all qos's\n"
    "  -R, --reservation=name          reservation to view, default is all\n"
    "  -r, --array                     display one job array element per line\n"
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
    "              [-w nodes] [--json] [--yaml] [-ahjlrsv]\n";

constexpr CommandText kText{"squeue", kHelp, kUsage, true};

// A federated job waits on each member it may run on (its siblings): the federated view shows
// it once, as the member that runs (or ran) it has it, else as its origin has it.
void merge_siblings(std::vector<const proto::JobInfo *> &jobs) {
    auto rank = [](const proto::JobInfo *j) {
        if ((j->state() & kJobStateBase) != DROVER_JOB_PENDING) return 2;
        return proto::sv(j->cluster()) == member_name(j->job_id() >> 26) ? 1 : 0;
    };
    std::unordered_map<uint32_t, std::size_t> at;
    std::vector<const proto::JobInfo *> out;
    for (const auto *j : jobs) {
        auto [it, added] = at.emplace(j->job_id(), out.size());
        if (added)
            out.push_back(j);
        else if (rank(j) > rank(out[it->second]))
            out[it->second] = j;
    }
    jobs = std::move(out);
}

// The jobs of the local cluster, or of each member of a federated view (a federated job once,
// unless --sibling asks for every member's copy; a member that does not answer is left out).
// False after the local controller's refusal.
bool collect_jobs(const SqueueArgs &a, std::vector<net::Reply> &replies,
                  std::vector<const proto::JobInfo *> &jobs, int64_t &now) {
    auto clusters = federation_view_clusters(a.view, a.on_clusters.has_value());
    if (clusters.empty()) clusters.push_back(""); // the working cluster only
    replies.resize(clusters.size());
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        const proto::JobInfoResponse *r = nullptr;
        if (clusters[i].empty()) {
            r = load_jobs(replies[i], a.job_ids);
            if (!r) return false;
        } else {
            use_cluster(clusters[i]);
            try {
                r = load_jobs(replies[i], {}, a.sibling); // the members know only their own ids
            } catch (const net::NetError &) {}
            if (!r) continue;
        }
        now = std::max(now, reply_time(r->now()));
        if (r->jobs())
            for (const auto *j : *r->jobs()) jobs.push_back(j);
    }
    if (clusters.size() > 1 || !clusters[0].empty()) set_working_cluster(std::nullopt);
    if (clusters.size() > 1 && !a.sibling) merge_siblings(jobs);
    return true;
}

int show_once(const SqueueArgs &a, const SqueueFilter &filter, const SqueueFormat &fmt) {
    if (a.steps) {
        // Steps come with srun; until then a step listing is only its header.
        if (!a.noheader) write_out(squeue_header(fmt) + "\n");
        return 0;
    }
    std::vector<net::Reply> replies;
    std::vector<const proto::JobInfo *> all, jobs;
    int64_t now = 0;
    if (!collect_jobs(a, replies, all, now)) return 1;
    bool asked_found = false;
    for (const auto *j : all) {
        if (a.job_ids.size() == 1 &&
            (j->job_id() == a.job_ids[0] || j->array_job_id() == a.job_ids[0]))
            asked_found = true;
        if (filter.keep(*j)) jobs.push_back(j);
    }
    // One job asked for by id and the controller does not know it: Slurm's error.
    if (a.job_ids.size() == 1 && !asked_found) {
        write_err("slurm_load_jobs error: Invalid job id specified\n");
        return 1;
    }
    squeue_sort(jobs, a.sort.value_or(a.start ? "S" : kSqueueDefaultSort), now);
    if (a.json || a.yaml) {
        write_out(json_or_yaml(jobs_json(jobs, now), a.yaml));
        return 0;
    }
    std::string out;
    if (a.long_format || a.iterate) out += date_line(now);
    if (!a.noheader) out += squeue_header(fmt) + "\n";
    for (const auto &row : squeue_rows(jobs, a.array, a.job_specs))
        out += squeue_line(fmt, row, now) + "\n";
    write_out(out);
    return 0;
}

// parse_squeue_args with the SQUEUE_* variables, and Slurm's list of valid states after a bad
// one.
SqueueArgs parse_args(std::span<const std::string> args) {
    try {
        return parse_squeue_args(args, process_env());
    } catch (const ParseError &e) {
        std::string msg = e.what();
        if (!msg.starts_with("Invalid job state")) throw;
        throw ParseError(msg + "\nValid job states include: " + valid_job_state_names());
    }
}

// squeue --steps: the running steps of the jobs asked for, one line each.
int show_steps(const SqueueArgs &a, const SqueueFilter &filter) {
    flatbuffers::FlatBufferBuilder fbb(128);
    auto ids = fbb.CreateVector(a.job_ids);
    net::Reply reply;
    const auto *r = ask_ctld<proto::StepInfoResponse>(
        reply, fbb, proto::Body::StepInfoRequest, proto::CreateStepInfoRequest(fbb, ids).Union(),
        error_line("slurm_load_job_steps error: "));
    if (!r) return 1;
    std::vector<const proto::StepInfo *> steps;
    if (r->steps())
        for (const auto *st : *r->steps()) {
            if (!filter.keep_user(st->user_id()) || !filter.keep_partition(st->partition()))
                continue;
            if (!a.step_ids.empty()) {
                bool named = false;
                for (const auto &id : a.step_ids) named = named || id == step_id_text(*st);
                if (!named) continue;
            }
            steps.push_back(st);
        }
    std::sort(steps.begin(), steps.end(), [](const proto::StepInfo *x, const proto::StepInfo *y) {
        return std::make_pair(x->job_id(), x->step_id()) <
               std::make_pair(y->job_id(), y->step_id());
    });
    write_out(render_steps(a.format.value_or(kSqueueStepsFormat), steps, reply_time(r->now()),
                           a.noheader));
    return 0;
}

int run(const SqueueArgs &a) {
    if (a.steps) {
        SqueueFilter filter = make_squeue_filter(a, static_cast<uint32_t>(::getuid()));
        render_steps(a.format.value_or(kSqueueStepsFormat), {}, 0, true); // a bad -o fails first
        return show_every(a.iterate, [&] { return show_steps(a, filter); });
    }
    SqueueFilter filter = make_squeue_filter(a, static_cast<uint32_t>(::getuid()));
    SqueueFormat fmt;
    if (a.long_fmt)
        fmt = squeue_long_format(*a.long_fmt);
    else if (a.format)
        fmt = squeue_percent_format(*a.format);
    else if (a.steps)
        fmt = squeue_percent_format(kSqueueStepsFormat);
    else if (a.start)
        fmt = squeue_percent_format(kSqueueStartFormat);
    else if (a.long_format)
        fmt = squeue_percent_format(kSqueueLongFormat);
    else
        fmt = squeue_percent_format(kSqueueDefaultFormat);
    fmt.member_name = member_name;
    std::vector<const proto::JobInfo *> none;
    squeue_sort(none, a.sort.value_or(kSqueueDefaultSort), 0); // a bad -S fails before any RPC

    return show_every(a.iterate, [&] { return show_once(a, filter, fmt); });
}

} // namespace

int squeue_main(std::span<const std::string> args) {
    return command_main(kText, args, parse_args, run);
}

std::string_view squeue_help() {
    return kHelp;
}

} // namespace drover::cli
