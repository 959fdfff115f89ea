// sacct.cpp - accounting records: AcctQueryRequest, filters, Slurm's fixed and parsable layouts.
#include <unistd.h>

#include <algorithm>

#include "cli/command_docs.hpp"
#include "cli/alloc.hpp"
#include "cli/clusters.hpp"
#include "cli/command_main.hpp"
#include "cli/job_states.hpp"
#include "cli/json_records.hpp"
#include "cli/sacct_args.hpp"
#include "cli/sacct_fields.hpp"
#include "cli/sacct_rows.hpp"
#include "cli/sacct_select.hpp"
#include "cli/sacct_time.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "cli/yaml_writer.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sacct";

constexpr const char *kHelp =
    "sacct [<OPTION>]\n"
    "    Valid <OPTION> values are:\n"
    "     -a, --allusers:\n"
    "                   Display jobs for all users.\n"
    "     -A, --accounts:\n"
    "                   Use this comma separated list of accounts to select jobs.\n"
    "     -b, --brief:\n"
    "                   Equivalent to '--format=jobid,state,exitcode'.\n"
    "     --delimiter:\n"
    "                   Character(s) to separate fields with --parsable/--parsable2.\n"
    "     -e, --helpformat:\n"
    "                   Print a list of fields that can be specified with --format.\n"
    "     -E, --endtime:\n"
    "                   Select jobs eligible before this time.\n"
    "     -j, --jobs:\n"
    "                   Display information about this job or comma-separated list of jobs.\n"
    "     --json:\n"
    "                   Produce JSON output.\n"
    "     -l, --long:\n"
    "                   Equivalent to specifying a long list of fields.\n"
    "     --name:\n"
    "                   Display jobs that have any of these name(s).\n"
    "     -n, --noheader:\n"
    "                   No header will be added to the beginning of output.\n"
    "     -N, --nodelist:\n"
    "                   Display jobs that ran on any of these nodes.\n"
    "     -o, --format:\n"
    "                   Comma separated list of fields (use \"--helpformat\" for a list).\n"
    "     -p, --parsable: output will be '|' delimited with a '|' at the end\n"
    "     -P, --parsable2: output will be '|' delimited without a '|' at the end\n"
    "     -r, --partition:\n"
    "                   Comma separated list of partitions to select jobs and job steps from.\n"
    "     -s, --state:\n"
    "                   Select jobs based on their state (e.g. CD, F, CA, TO, R, PD).\n"
    "     -S, --starttime:\n"
    "                   Select jobs eligible after this time.  Default is 00:00:00 of the\n"
    "                   current day, unless '-j' is used.\n"
    "     -u, --user:\n"
    "                   Use this comma separated list of user names or uids to select jobs.\n"
    "     -V, --version: Print version.\n"
    "     -X, --allocations:\n"
    "                   Only show statistics relevant to the job allocation itself.\n"
    "     --yaml:\n"
    "                   Produce YAML output.\n";

constexpr CommandText kText{kProg, kHelp}; // --usage prints the help, as in Slurm

// Whether the store can apply -s: base states only (the pseudo states are flags of the state).
bool store_filters_states(const JobStateFilter &f) {
    if (f.all || f.states.empty()) return false;
    return std::all_of(f.states.begin(), f.states.end(),
                       [](uint32_t s) { return s <= kJobStateBase; });
}

// With -X the steps are not asked for, unless a field of the job's line adds them up.
bool jobs_only(const SacctArgs &a, const std::vector<SacctField> &fields) {
    if (!a.allocations) return false;
    for (const auto &f : fields)
        if (f.kind == kTotalCpu || f.kind == kUserCpu || f.kind == kSystemCpu ||
            f.kind == kDerivedExitCode)
            return false;
    return true;
}

int run(const SacctArgs &a) {
    if (a.fatal) {
        write_err(std::string(kProg) + ": fatal: " + *a.fatal + "\n");
        return 1;
    }
    if (a.helpformat) {
        write_out(sacct_field_names());
        return 0;
    }
    std::string field_list = a.format        ? *a.format
                             : a.brief       ? std::string(kSacctBriefFields)
                             : a.long_format ? std::string(kSacctLongFields)
                                             : std::string(kSacctDefaultFields);
    std::vector<SacctField> fields = parse_sacct_fields(field_list);

    // Like Slurm: from midnight, or from now when states are asked for, unless -S or -j.
    int64_t now = now_seconds();
    int64_t start = 0, end = 0;
    if (a.start)
        start = parse_sacct_time(*a.start, now);
    else if (a.jobs.empty())
        start = a.states.empty() ? parse_timestamp("today", now) : now;
    if (a.end) end = parse_sacct_time(*a.end, now);
    if (start && end && start > end) {
        print_error(kProg, "Start time (" + format_timestamp(start) +
                               ") requested is after end time (" + format_timestamp(end) + ").");
        return 1;
    }

    uint32_t my_uid = static_cast<uint32_t>(::getuid());
    std::vector<uint32_t> uids;
    for (const auto &u : a.users) {
        auto uid = lookup_user(u);
        if (!uid) {
            print_error(kProg, "Invalid user id: " + u);
            return 1;
        }
        uids.push_back(*uid);
    }
    // Like Slurm: your own jobs unless -a, -u, or you are root (or looking up jobs by id).
    if (uids.empty() && !a.allusers && my_uid != 0 && a.jobs.empty()) uids.push_back(my_uid);
    std::vector<std::string> nodes;
    if (a.nodelist) nodes = hostlist_expand(*a.nodelist);

    // The store applies users, accounts, partitions, names, base states, clusters and nodes;
    // pseudo states (completing, configuring, requeued) are filtered here.
    bool store_states = store_filters_states(a.states);
    flatbuffers::FlatBufferBuilder fbb;
    auto ids = fbb.CreateVector(a.job_ids);
    auto users = uids.size() > 1 ? fbb.CreateVector(uids) : 0;
    auto states = store_states ? fbb.CreateVector(a.states.states) : 0;
    auto accounts = a.accounts.empty() ? 0 : fbb.CreateVectorOfStrings(a.accounts);
    auto partitions = a.partitions.empty() ? 0 : fbb.CreateVectorOfStrings(a.partitions);
    auto names = a.names.empty() ? 0 : fbb.CreateVectorOfStrings(a.names);
    // --federation (or fed_display): the jobs of every member of this cluster's federation.
    std::vector<std::string> cluster_list = a.clusters;
    if (cluster_list.empty() && !a.all_clusters)
        cluster_list = federation_view_clusters(a.view, false);
    auto clusters = cluster_list.empty() ? 0 : fbb.CreateVectorOfStrings(cluster_list);
    auto on_nodes = nodes.empty() ? 0 : fbb.CreateVectorOfStrings(nodes);
    auto req = proto::CreateAcctQueryRequest(fbb, ids, uids.size() == 1 ? uids[0] : 0xfffffffeu,
                                             start, end, a.duplicates, jobs_only(a, fields), users,
                                             states, accounts, partitions, names, clusters,
                                             a.all_clusters, on_nodes);
    net::Reply reply;
    const auto *r = ask_ctld<proto::AcctQueryResponse>(
        reply, fbb, proto::Body::AcctQueryRequest, req.Union(), [](const net::RpcError &e) {
            // Slurm prints this one bare, and scripts match it so.
            if (std::string_view(e.what()) == kAcctDisabled)
                write_err(std::string(e.what()) + "\n");
            else
                print_error(kProg, e.what());
        });
    if (!r) return 1;

    std::vector<const proto::AcctJob *> jobs;
    if (r->jobs()) {
        for (const auto *j : *r->jobs()) {
            if (!store_states && !a.states.matches(j->state())) continue;
            // A federated job's copies that did not run (revoked) show only with -D: each job
            // of a federation shows once, as the member that ran it recorded it.
            if (!a.duplicates && (j->state() & kJobFlagRevoked)) continue;
            jobs.push_back(j);
        }
    }
    std::vector<SacctRow> rows = sacct_select_rows(sacct_rows(jobs, a.allocations), a.jobs);
    if (a.json || a.yaml) {
        std::vector<const proto::AcctJob *> shown;
        for (const auto &row : rows)
            if (!row.step && !row.batch_step) shown.push_back(row.job);
        write_out(json_or_yaml(acct_jobs_json(shown, now), a.yaml));
        return 0;
    }
    SacctLayout layout = a.parsable2  ? SacctLayout::parsable2
                         : a.parsable ? SacctLayout::parsable
                                      : SacctLayout::fixed;
    write_out(
        sacct_render(fields, rows, layout, a.delimiter.value_or("|"), !a.noheader, now, a.units));
    return 0;
}

// Slurm's fatal mistakes are reported by run() as "sacct: fatal: ...".
SacctArgs parse(std::span<const std::string> args) {
    try {
        return parse_sacct_args(args, process_env());
    } catch (const SacctFatal &e) {
        SacctArgs a;
        a.fatal = e.what();
        return a;
    }
}

} // namespace

int sacct_main(std::span<const std::string> args) {
    return command_main(kText, args, parse, run);
}

std::string_view sacct_help() {
    return kHelp;
}

} // namespace drover::cli
