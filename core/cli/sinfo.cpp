// sinfo.cpp - show partitions and nodes: fetch both, group into lines, print.
#include "cli/command_docs.hpp"
#include "cli/alloc.hpp"
#include <algorithm>

#include "cli/clusters.hpp"
#include "cli/command_main.hpp"
#include "cli/iterate.hpp"
#include "cli/json_records.hpp"
#include "cli/load_records.hpp"
#include "cli/resv_text.hpp"
#include "cli/sinfo_args.hpp"
#include "cli/sinfo_rows.hpp"
#include "cli/text.hpp"
#include "cli/yaml_writer.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"

namespace drover::cli {

namespace {

constexpr const char *kHelp =
    "Usage: sinfo [OPTIONS]\n"
    "  -a, --all                  show all partitions (including hidden and those\n"
    "                             not accessible)\n"
    "  -d, --dead                 show only non-responding nodes\n"
    "  -F, --future               show future nodes\n"
    "  -i, --iterate=seconds      specify an iteration period\n"
    "      --json                 produce JSON output\n"
    "      --yaml                 produce YAML output\n"
    "  -l, --long                 long output - displays more information\n"
    "  -n, --nodes=NODES          report on specific node(s)\n"
    "  -N, --Node                 Node-centric format\n"
    "  -o, --format=format        format specification\n"
    "  -O, --Format=format        long format specification\n"
    "  -p, --partition=PARTITION  report on specific partition\n"
    "  -r, --responding           report only responding nodes\n"
    "  -R, --list-reasons         list reason nodes are down or drained\n"
    "  -s, --summarize            report state summary only\n"
    "  -T, --reservation          list the reservations instead\n"
    "  -t, --states=node_state    specify the what states of nodes to view\n"
    "  -v, --verbose              verbosity level\n"
    "  -V, --version              output version information and exit\n"
    "\n"
    "Help options:\n"
    "  --help                     show this help message\n"
    "  --usage                    display brief usage message\n";

constexpr const char *kUsage =
    "Usage: sinfo [-adelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]\n"
    "             [-S fields] [-o format] [-O Format] [--json] [--yaml]\n";

constexpr CommandText kText{"sinfo", kHelp, kUsage, true};

// -T: Slurm's sinfo prints the reservation table and nothing else, whatever the other options.
int show_reservations(const SinfoArgs &a) {
    net::Reply reply;
    const auto *r = load_reservations(reply, "", "slurm_load_reservations: ");
    if (!r) return 1;
    const int64_t now = reply_time(r->now());
    std::string out;
    if (!a.noheader && (a.long_format || a.iterate)) out += date_line(now);
    out += sinfo_reservations(records_of(r->reservations()), now, !a.noheader);
    write_out(out);
    return 0;
}

// The working cluster's partitions and nodes, pointing into preply and nreply; false after a
// refusal (said).
bool load_both(net::Reply &preply, net::Reply &nreply, const proto::PartitionInfoResponse *&pr,
               const proto::NodeInfoResponse *&nr) {
    pr = load_partitions(preply, "slurm_load_partitions: ");
    if (!pr) return false;
    nr = load_nodes(nreply, {}, "slurm_load_node: ");
    return nr != nullptr;
}

// One cluster's partitions and nodes (the working cluster's), in rows named with the cluster.
// False after a refusal.
bool cluster_rows(const SinfoArgs &a, const FormatSpec &spec, const SinfoFilter &filter,
                  std::vector<net::Reply> &keep, std::vector<SinfoRow> &rows, int64_t &now) {
    net::Reply preply, nreply;
    const proto::PartitionInfoResponse *pr = nullptr;
    const proto::NodeInfoResponse *nr = nullptr;
    if (!load_both(preply, nreply, pr, nr)) return false;
    now = std::max(now, reply_time(nr->now()));
    SinfoView view = a.list_reasons    ? SinfoView::reasons
                     : a.node_oriented ? SinfoView::nodes
                                       : SinfoView::partitions;
    for (auto &row :
         sinfo_rows(spec, view, records_of(pr->partitions()), records_of(nr->nodes()), filter)) {
        row.cluster = target_config().cluster_name;
        rows.push_back(std::move(row));
    }
    keep.push_back(std::move(preply));
    keep.push_back(std::move(nreply));
    return true;
}

int show_json(const SinfoArgs &a, const SinfoFilter &filter) {
    net::Reply preply, nreply;
    const proto::PartitionInfoResponse *pr = nullptr;
    const proto::NodeInfoResponse *nr = nullptr;
    if (!load_both(preply, nreply, pr, nr)) return 1;
    FormatSpec def = sinfo_percent_format("%P %t");
    std::string doc =
        sinfo_json(sinfo_rows(def, SinfoView::partitions, records_of(pr->partitions()),
                              records_of(nr->nodes()), filter),
                   reply_time(nr->now()));
    write_out(json_or_yaml(doc, a.yaml));
    return 0;
}

// The local cluster's rows, or in a federated view each member's in turn (one that does not
// answer is left out).
int show_once(const SinfoArgs &a, const FormatSpec &spec, const SinfoFilter &filter,
              const std::vector<std::string> &clusters) {
    if (a.reservations) return show_reservations(a);
    if (a.json || a.yaml) return show_json(a, filter);
    std::vector<net::Reply> keep;
    std::vector<SinfoRow> rows;
    int64_t now = 0;
    if (clusters.empty() && !cluster_rows(a, spec, filter, keep, rows, now)) return 1;
    for (const auto &c : clusters) {
        use_cluster(c);
        try {
            cluster_rows(a, spec, filter, keep, rows, now);
        } catch (const net::NetError &) {}
    }
    if (!clusters.empty()) set_working_cluster(std::nullopt);
    std::string out;
    if (a.long_format || a.iterate) out += date_line(now);
    out += sinfo_render(spec, rows, !a.noheader);
    write_out(out);
    return 0;
}

int run(const SinfoArgs &a) {
    // A federated view names each line's cluster after its partition (unless -o or -O says).
    auto clusters = federation_view_clusters(a.view, a.on_clusters.has_value());
    std::string format = sinfo_format_string(a);
    if (!clusters.empty() && !a.format && !a.long_fmt) format.insert(format.find(' ') + 1, "%8V ");
    FormatSpec spec = a.long_fmt ? sinfo_long_format(*a.long_fmt) : sinfo_percent_format(format);
    SinfoFilter filter;
    filter.partitions = a.partitions;
    filter.states = a.states;
    filter.dead = a.dead;
    filter.responding = a.responding;
    filter.future = a.future;
    if (a.nodes) filter.nodes = hostlist_expand(*a.nodes);

    return show_every(a.iterate, [&] { return show_once(a, spec, filter, clusters); });
}

// parse_sinfo_args with the SINFO_* variables of the process.
SinfoArgs parse_args(std::span<const std::string> args) {
    return parse_sinfo_args(args, process_env());
}

} // namespace

int sinfo_main(std::span<const std::string> args) {
    return command_main(kText, args, parse_args, run);
}

std::string_view sinfo_help() {
    return kHelp;
}

} // namespace drover::cli
