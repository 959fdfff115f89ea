// sinfo.cpp - show partitions and nodes: fetch both, group into lines, print.
#include <time.h>
#include <unistd.h>

#include "cli/commands.hpp"
#include "cli/json_records.hpp"
#include "cli/options.hpp"
#include "cli/rpc.hpp"
#include "cli/sinfo_args.hpp"
#include "cli/sinfo_rows.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sinfo";

constexpr const char *kHelp =
    "Usage: sinfo [OPTIONS]\n"
    "  -a, --all                  show all partitions (including hidden and those\n"
    "                             not accessible)\n"
    "  -d, --dead                 show only non-responding nodes\n"
    "  -F, --future               show future nodes\n"
    "  -i, --iterate=seconds      specify an iteration period\n"
    "      --json                 produce JSON output\n"
    "  -l, --long                 long output - displays more information\n"
    "  -n, --nodes=NODES          report on specific node(s)\n"
    "  -N, --Node                 Node-centric format\n"
    "  -o, --format=format        format specification\n"
    "  -O, --Format=format        long format specification\n"
    "  -p, --partition=PARTITION  report on specific partition\n"
    "  -r, --responding           report only responding nodes\n"
    "  -R, --list-reasons         list reason nodes are down or drained\n"
    "  -s, --summarize            report state summary only\n"
    "  -t, --states=node_state    specify the what states of nodes to view\n"
    "  -v, --verbose              verbosity level\n"
    "  -V, --version              output version information and exit\n"
    "\n"
    "Help options:\n"
    "  --help                     show this help message\n"
    "  --usage                    display brief usage message\n";

constexpr const char *kUsage =
    "Usage: sinfo [-adelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]\n"
    "             [-S fields] [-o format] [-O Format] [--json]\n";

std::string date_line(int64_t now) {
    time_t t = static_cast<time_t>(now);
    char buf[64];
    struct tm tm{};
    localtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Y\n", &tm);
    return buf;
}

int show_once(const SinfoArgs &a, const FormatSpec &spec, const SinfoFilter &filter) {
    flatbuffers::FlatBufferBuilder pfbb, nfbb;
    net::Reply preply, nreply;
    try {
        auto preq = proto::CreatePartitionInfoRequest(pfbb);
        preply = call_ctld(pfbb, proto::Body::PartitionInfoRequest, preq.Union());
        preply.as<proto::PartitionInfoResponse>();
    } catch (const net::RpcError &e) {
        write_err(std::string("slurm_load_partitions: ") + e.what() + "\n");
        return 1;
    }
    try {
        auto nreq = proto::CreateNodeInfoRequest(nfbb);
        nreply = call_ctld(nfbb, proto::Body::NodeInfoRequest, nreq.Union());
        nreply.as<proto::NodeInfoResponse>();
    } catch (const net::RpcError &e) {
        write_err(std::string("slurm_load_node: ") + e.what() + "\n");
        return 1;
    }
    const auto *pr = preply.as<proto::PartitionInfoResponse>();
    const auto *nr = nreply.as<proto::NodeInfoResponse>();
    int64_t now = nr->now() ? nr->now() : now_seconds();

    std::vector<const proto::PartitionInfo *> parts;
    if (pr->partitions())
        for (const auto *p : *pr->partitions()) parts.push_back(p);
    std::vector<const proto::NodeInfo *> nodes;
    if (nr->nodes())
        for (const auto *n : *nr->nodes()) nodes.push_back(n);

    SinfoView view = a.list_reasons     ? SinfoView::reasons
                     : a.node_oriented ? SinfoView::nodes
                                       : SinfoView::partitions;
    if (a.json) {
        FormatSpec def = sinfo_percent_format("%P %t");
        write_out(sinfo_json(sinfo_rows(def, SinfoView::partitions, parts, nodes, filter), now));
        return 0;
    }
    std::vector<SinfoRow> rows = sinfo_rows(spec, view, parts, nodes, filter);
    std::string out;
    if (a.long_format || a.iterate) out += date_line(now);
    out += sinfo_render(spec, rows, !a.noheader);
    write_out(out);
    return 0;
}

int run(std::span<const std::string> args) {
    SinfoArgs a;
    try {
        a = parse_sinfo_args(args);
    } catch (const UsageError &e) {
        print_usage_error(kProg, e);
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
    FormatSpec spec = a.long_fmt ? sinfo_long_format(*a.long_fmt)
                                 : sinfo_percent_format(sinfo_format_string(a));
    SinfoFilter filter;
    filter.partitions = a.partitions;
    filter.states = a.states;
    filter.dead = a.dead;
    filter.responding = a.responding;
    filter.future = a.future;
    if (a.nodes) filter.nodes = hostlist_expand(*a.nodes);

    if (!a.iterate) return show_once(a, spec, filter);
    while (true) {
        int rc = show_once(a, spec, filter);
        if (rc != 0) return rc;
        write_out("\n");
        ::sleep(static_cast<unsigned>(a.iterate));
    }
}

}  // namespace

int sinfo_main(std::span<const std::string> args) {
    return guarded(kProg, [&] { return run(args); });
}

}  // namespace drover::cli
