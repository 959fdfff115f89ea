// sreport.cpp - usage reports from the accounting records: the jobs (AcctQueryRequest), the node
// events (AcctEventQueryRequest), the association tree (AcctAdminRequest show association) and the
// nodes' CPUs (NodeInfoRequest), rolled up here as Slurm's slurmdbd rolls them up.
#include <algorithm>
#include <set>

#include "cli/command_docs.hpp"
#include "cli/command_main.hpp"
#include "cli/load_records.hpp"
#include "cli/sreport_args.hpp"
#include "cli/sreport_tables.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/status.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sreport";

constexpr const char *kHelp =
    "sreport [<OPTION>] [<COMMAND>]\n"
    "    Valid <OPTION> values are:\n"
    "     -a or --all_clusters: report on every cluster, not only this one\n"
    "     -h or --help: print this help\n"
    "     -M or --cluster: the clusters to report on (comma separated)\n"
    "     -n or --noheader: no banner and no column headers\n"
    "     -p or --parsable: '|' between fields and at the end of each line\n"
    "     -P or --parsable2: '|' between fields only\n"
    "     -Q or --quiet: print errors only\n"
    "     -s or --sort: order UserUtilizationByAccount by Time (default) or Name\n"
    "     -t <time_format>: Seconds, Minutes (default), Hours, Percent, SecPer, MinPer or\n"
    "                       HourPer (a value and its percentage of the total)\n"
    "     -v or --verbose: more messages\n"
    "     -V or --version: print the version\n"
    "\n"
    "    Valid <COMMAND> values are:\n"
    "     help, version, or a report: cluster <REPORT> <OPTIONS> or job <REPORT> <OPTIONS>\n"
    "\n"
    "  <REPORT> is one of:\n"
    "     cluster - AccountUtilizationByUser, UserUtilizationByAccount, Utilization\n"
    "     job     - SizesByAccount\n"
    "\n"
    "  <OPTIONS> of every report:\n"
    "     All_Clusters       every cluster\n"
    "     Clusters=<list>    these clusters (default: this one)\n"
    "     End=<time>         end of the period (default: 00:00 today)\n"
    "     Format=<list>      the columns, each optionally NAME%WIDTH\n"
    "     Start=<time>       start of the period (default: 00:00 yesterday)\n"
    "                        Start and End are rounded to whole hours.\n"
    "  cluster reports:\n"
    "     Accounts=<list>    these accounts (AccountUtilizationByUser: and those under them)\n"
    "     Tree               AccountUtilizationByUser: indent accounts by their depth\n"
    "     Users=<list>       these users\n"
    "  job reports:\n"
    "     Accounts=<list>    a line for each of these accounts (default root), with the jobs\n"
    "                        of the accounts under it\n"
    "     AcctAsParent       a line for each account directly under those of Accounts=\n"
    "     FlatView           a line for each account jobs ran in\n"
    "     Grouping=<list>    CPU count bounds of the columns (default 50,250,500,1000), or\n"
    "                        individual for a column per job size\n"
    "     Jobs=<list>, Nodes=<hostlist>, Partitions=<list>, Users=<list>\n"
    "     PrintJobCount      the number of jobs instead of their CPU time\n"
    "\n"
    "  Format columns:\n"
    "     cluster Utilization: Allocated, Cluster, Down, Energy, Idle, OverCommitted,\n"
    "             PlannedDown, Reported, Reserved (the Planned column), TresCount, TresName\n"
    "     cluster AccountUtilizationByUser, UserUtilizationByAccount: Accounts, Cluster,\n"
    "             Energy, Login, Proper, TresCount, TresName, Used\n"
    "     job SizesByAccount: Account, Cluster\n";

constexpr CommandText kText{kProg, kHelp, nullptr};

using Strings = std::vector<std::string>;

// The records a report is made of, by cluster.
struct Records {
    std::string local; // this controller's cluster
    std::vector<UsageJob> jobs;
    std::vector<UsageEvent> events;
    std::map<std::string, uint32_t> cpus; // the local cluster's nodes
    std::map<std::string, AssocTree> trees;
};

bool wanted(const ReportRequest &r, const std::string &local, const std::string &cluster) {
    if (r.all_clusters) return true;
    if (r.clusters.empty()) return cluster == local;
    return std::find(r.clusters.begin(), r.clusters.end(), cluster) != r.clusters.end();
}

void refused(const net::RpcError &e) {
    if (std::string_view(e.what()) == kAcctDisabled || std::string_view(e.what()).starts_with(' '))
        write_err(std::string(e.what()) + "\n");
    else
        print_error(kProg, e.what());
}

// The jobs that ran or waited within the window; SizesByAccount's job filters go to the store.
bool load_job_records(const ReportRequest &r, Records &out) {
    std::vector<uint32_t> uids;
    if (r.kind == ReportKind::sizes_by_account)
        for (const auto &u : r.users) {
            auto uid = lookup_user(u);
            if (!uid) throw ParseError("Invalid user id: " + u);
            uids.push_back(*uid);
        }
    flatbuffers::FlatBufferBuilder fbb;
    auto ids = fbb.CreateVector(r.job_ids);
    auto users = uids.size() > 1 ? fbb.CreateVector(uids) : 0;
    auto parts = r.partitions.empty() ? 0 : fbb.CreateVectorOfStrings(r.partitions);
    auto clusters = r.clusters.empty() ? 0 : fbb.CreateVectorOfStrings(r.clusters);
    auto nodes = r.nodes.empty() ? 0 : fbb.CreateVectorOfStrings(r.nodes);
    auto req = proto::CreateAcctQueryRequest(fbb, ids, uids.size() == 1 ? uids[0] : 0xfffffffeu,
                                             r.window.start, r.window.end,
                                             /*duplicates=*/true, /*jobs_only=*/true, users, 0, 0,
                                             parts, 0, clusters, r.all_clusters, nodes);
    net::Reply reply;
    const auto *resp = ask_ctld<proto::AcctQueryResponse>(reply, fbb, proto::Body::AcctQueryRequest,
                                                          req.Union(), refused);
    if (!resp) return false;
    for (const auto *j : records_of(resp->jobs())) {
        std::string cluster = proto::str(j->cluster());
        out.jobs.push_back({cluster.empty() ? out.local : cluster, proto::str(j->account()),
                            user_name(j->user_id()), j->alloc_cpus(), j->req_cpus(),
                            j->eligible_time(), j->start_time(), j->end_time()});
    }
    return true;
}

// The node events of the window and the CPUs of this cluster's nodes.
bool load_events_and_nodes(const ReportRequest &r, Records &out) {
    flatbuffers::FlatBufferBuilder fbb;
    auto clusters = fbb.CreateVectorOfStrings(r.clusters);
    auto req = proto::CreateAcctEventQueryRequest(fbb, clusters, r.all_clusters,
                                                  fbb.CreateVectorOfStrings(Strings{}),
                                                  r.window.start, r.window.end);
    net::Reply reply;
    const auto *resp = ask_ctld<proto::AcctEventQueryResponse>(
        reply, fbb, proto::Body::AcctEventQueryRequest, req.Union(), refused);
    if (!resp) return false;
    for (const auto *e : records_of(resp->events())) {
        std::string cluster = proto::str(e->cluster());
        out.events.push_back({cluster.empty() ? out.local : cluster, proto::str(e->node_name()),
                              e->state(), e->flags(), e->start_time(), e->end_time()});
    }
    if (!wanted(r, out.local, out.local)) return true;
    net::Reply nreply;
    const auto *nodes = load_nodes(nreply, {}, "slurm_load_node error: ");
    if (!nodes) return false;
    for (const auto *n : records_of(nodes->nodes())) out.cpus[proto::str(n->name())] = n->cpus();
    return true;
}

// The association tree of each cluster (sacctmgr show association).
bool load_trees(Records &out) {
    flatbuffers::FlatBufferBuilder fbb;
    auto req =
        proto::CreateAcctAdminRequestDirect(fbb, "show", "association", nullptr, nullptr, false);
    net::Reply reply;
    const auto *resp = ask_ctld<proto::AcctAdminResponse>(reply, fbb, proto::Body::AcctAdminRequest,
                                                          req.Union(), refused);
    if (!resp) return false;
    for (const auto *row : records_of(resp->rows())) {
        std::map<std::string, std::string> f;
        for (const auto *kv : records_of(row->fields()))
            f[proto::str(kv->key())] = proto::str(kv->value());
        AssocTree &tree = out.trees[f["cluster"]];
        if (f["user"].empty())
            tree.add_account(f["account"], f["parentname"]);
        else
            tree.add_user(f["account"], f["user"]);
    }
    return true;
}

// One cluster's part of the report.
ClusterData cluster_data(const std::string &name, Records &rec, const ReportRequest &r,
                         const SreportArgs &a, const std::vector<SizeBin> &bins, int64_t now) {
    std::vector<UsageJob> jobs;
    std::vector<UsageEvent> events;
    for (const auto &j : rec.jobs)
        if (j.cluster == name) jobs.push_back(j);
    for (const auto &e : rec.events)
        if (e.cluster == name) events.push_back(e);
    static const std::map<std::string, uint32_t> kNone;
    ClusterData c{name,
                  cluster_usage(jobs, events, name == rec.local ? rec.cpus : kNone, r.window, now),
                  {},
                  {}};
    AssocTree &tree = rec.trees[name];
    if (r.kind == ReportKind::account_by_user || r.kind == ReportKind::user_by_account) {
        const auto usage = assoc_usage(jobs, r.window, now);
        tree.add_usage(usage);
        c.rows = r.kind == ReportKind::account_by_user
                     ? account_rows(tree, usage, r.accounts, r.users, r.tree)
                     : user_rows(tree, usage, r.accounts, r.users, a.sort_by_name);
    } else if (r.kind == ReportKind::sizes_by_account) {
        tree.add_usage(assoc_usage(jobs, r.window, now));
        c.sizes = job_sizes(jobs, tree, r, bins);
    }
    return c;
}

std::string make_report(const ReportRequest &r, const SreportArgs &a, Records &rec, int64_t now,
                        std::vector<std::string> &errors) {
    std::set<std::string> names;
    if (wanted(r, rec.local, rec.local)) names.insert(rec.local);
    for (const auto &j : rec.jobs) names.insert(j.cluster);
    for (const auto &e : rec.events)
        if (wanted(r, rec.local, e.cluster)) names.insert(e.cluster);
    const auto bins = job_size_bins(rec.jobs, r);
    std::vector<ClusterData> clusters;
    for (const auto &n : names) clusters.push_back(cluster_data(n, rec, r, a, bins, now));
    ReportStyle style{a.parsable2  ? FieldLayout::parsable2
                      : a.parsable ? FieldLayout::parsable
                                   : FieldLayout::fixed,
                      !a.noheader, a.time};
    if (r.kind == ReportKind::utilization) return utilization_report(clusters, r, style, errors);
    if (r.kind == ReportKind::sizes_by_account)
        return sizes_report(clusters, bins, r, style, errors);
    return assoc_report(clusters, r, style, errors);
}

int report(const SreportArgs &a) {
    const int64_t now = now_seconds();
    ReportRequest r;
    Records rec;
    rec.local = cli_config().cluster_name;
    try {
        r = parse_report_request(a.words, a, now);
        if (!load_job_records(r, rec)) return 1;
    } catch (const ParseError &e) {
        write_err(std::string(e.what()) + "\n");
        return 1;
    }
    const bool hierarchy = r.kind != ReportKind::utilization &&
                           !(r.kind == ReportKind::sizes_by_account && r.flat_view);
    if (r.kind != ReportKind::sizes_by_account && !load_events_and_nodes(r, rec)) return 1;
    if (hierarchy && !load_trees(rec)) return 1;
    std::vector<std::string> errors = r.errors;
    write_out(make_report(r, a, rec, now, errors));
    for (const auto &e : errors) write_err(e + "\n");
    return errors.empty() ? 0 : 1;
}

int run(const SreportArgs &a) {
    for (const auto &w : a.warnings) write_err(w + "\n");
    if (a.words.empty()) {
        print_error(kProg, "no report given (sreport's interactive mode is not supported)");
        return 1;
    }
    const std::string &first = a.words[0];
    if (abbreviates(first, "help", 2)) {
        write_out(kHelp);
        return 0;
    }
    if (abbreviates(first, "version", 4)) {
        write_out(version_line());
        return 0;
    }
    if (abbreviates(first, "exit", 1) || abbreviates(first, "quit", 4)) return 0;
    return report(a);
}

SreportArgs parse(std::span<const std::string> args) {
    return parse_sreport_args(args);
}

} // namespace

int sreport_main(std::span<const std::string> args) {
    return command_main(kText, args, parse, run);
}

std::string_view sreport_help() {
    return kHelp;
}

} // namespace drover::cli
