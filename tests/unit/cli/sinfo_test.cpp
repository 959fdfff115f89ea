// sinfo_test.cpp - node state strings, grouping into lines, '#' widths and exact default output.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "cli/options.hpp"
#include "cli/node_states.hpp"
#include "cli/sinfo_args.hpp"
#include "cli/sinfo_rows.hpp"
#include "common/error.hpp"
#include "common/node_shown_flags.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Node;
using drover::cli::test::Part;
using drover::cli::test::Records;

namespace {

struct Cluster {
    Records rec;
    std::vector<const proto::PartitionInfo *> parts;
    std::vector<const proto::NodeInfo *> nodes;
};

// debug* = n[1-4]: n1, n2 idle; n3 allocated; n4 drained (idle + DRAIN) with a reason.
// long = n[3-4].
void build(Cluster &c) {
    Part debug;
    debug.name = "debug";
    debug.nodes = "n[1-4]";
    debug.is_default = true;
    Part lng;
    lng.name = "long";
    lng.nodes = "n[3-4]";
    lng.max_time = 2 * 24 * 60;
    c.parts = c.rec.parts({debug, lng});
    Node n1{"n1"}, n2{"n2"}, n3{"n3"}, n4{"n4"};
    n3.state = DROVER_NODE_ALLOCATED;
    n3.alloc_cpus = 4;
    n3.partitions = {"debug", "long"};
    n4.flags = DROVER_NODE_FLAG_DRAIN;
    n4.reason = "maint";
    n4.reason_uid = 0;
    n4.reason_time = 1700000000;
    n4.partitions = {"debug", "long"};
    c.nodes = c.rec.nodes({n1, n2, n3, n4});
}

std::string run(Cluster &c, const char *fmt, SinfoView view, SinfoFilter filter = {}) {
    FormatSpec spec = sinfo_percent_format(fmt);
    return sinfo_render(spec, sinfo_rows(spec, view, c.parts, c.nodes, filter), true);
}

} // namespace

TEST(NodeStates, CompactLongAndSuffixes) {
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, 0), "IDLE");
    EXPECT_EQ(node_state_compact(DROVER_NODE_ALLOCATED, 0), "ALLOC");
    EXPECT_EQ(node_state_compact(DROVER_NODE_MIXED, 0), "MIX");
    EXPECT_EQ(node_state_compact(DROVER_NODE_DOWN, 0), "DOWN");
    EXPECT_EQ(node_state_compact(DROVER_NODE_UNKNOWN, 0), "UNK");
    EXPECT_EQ(node_state_compact(DROVER_NODE_FUTURE, 0), "FUTR");
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, DROVER_NODE_FLAG_DRAIN), "DRAIN");
    EXPECT_EQ(node_state_compact(DROVER_NODE_MIXED, DROVER_NODE_FLAG_DRAIN), "DRNG");
    EXPECT_EQ(node_state_compact(DROVER_NODE_ALLOCATED, DROVER_NODE_FLAG_DRAIN), "DRNG");
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, DROVER_NODE_FLAG_COMPLETING), "COMP");
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE,
                                 DROVER_NODE_FLAG_POWERED_DOWN | DROVER_NODE_FLAG_CLOUD),
              "IDLE~");
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, DROVER_NODE_FLAG_POWERING_UP), "IDLE#");
    EXPECT_EQ(node_state_compact(DROVER_NODE_ALLOCATED, DROVER_NODE_FLAG_POWERING_UP), "ALLOC#");
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, DROVER_NODE_FLAG_POWERING_DOWN), "IDLE%");
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, DROVER_NODE_FLAG_POWER_DOWN), "IDLE!");
    EXPECT_EQ(node_state_compact(DROVER_NODE_DOWN, DROVER_NODE_FLAG_NOT_RESPONDING), "DOWN*");
    EXPECT_EQ(
        node_state_compact(DROVER_NODE_MIXED, DROVER_NODE_FLAG_DRAIN | DROVER_NODE_FLAG_POWER_DOWN),
        "DRNG!");
    EXPECT_EQ(node_state_long(DROVER_NODE_IDLE, DROVER_NODE_FLAG_DRAIN), "DRAINED");
    EXPECT_EQ(node_state_long(DROVER_NODE_MIXED, DROVER_NODE_FLAG_DRAIN), "DRAINING");
    EXPECT_EQ(node_state_long(DROVER_NODE_ALLOCATED, 0), "ALLOCATED");
    EXPECT_EQ(node_state_long(DROVER_NODE_IDLE, DROVER_NODE_FLAG_COMPLETING), "COMPLETING");
    EXPECT_EQ(node_state_complete(DROVER_NODE_IDLE, DROVER_NODE_FLAG_DRAIN), "IDLE+DRAIN");
    EXPECT_EQ(node_state_complete(DROVER_NODE_IDLE,
                                  DROVER_NODE_FLAG_CLOUD | DROVER_NODE_FLAG_POWERED_DOWN),
              "IDLE+CLOUD+POWERED_DOWN");
    EXPECT_THROW(parse_node_state_list("idle,sleepy"), ParseError);
    // In a reservation now: an idle node is RESV; one in a MAINT reservation has Slurm's "$".
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, kNodeShownReserved), "RESV");
    EXPECT_EQ(node_state_long(DROVER_NODE_IDLE, kNodeShownReserved), "RESERVED");
    EXPECT_EQ(node_state_compact(DROVER_NODE_MIXED, kNodeShownReserved), "MIX");
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, kNodeShownReserved | kNodeShownMaint), "IDLE$");
    EXPECT_EQ(node_state_compact(DROVER_NODE_ALLOCATED, kNodeShownReserved | kNodeShownMaint),
              "ALLOC$");
    EXPECT_EQ(node_state_complete(DROVER_NODE_IDLE, kNodeShownReserved | kNodeShownMaint),
              "IDLE+MAINT+RESERVED");
    auto r = parse_node_state_list("resv,maint");
    EXPECT_TRUE(r[0].matches(DROVER_NODE_MIXED, kNodeShownReserved));
    EXPECT_FALSE(r[0].matches(DROVER_NODE_IDLE, 0));
    EXPECT_TRUE(r[1].matches(DROVER_NODE_IDLE, kNodeShownReserved | kNodeShownMaint));
    EXPECT_FALSE(r[1].matches(DROVER_NODE_IDLE, kNodeShownReserved));
    auto m = parse_node_state_list("drain");
    EXPECT_TRUE(m[0].matches(DROVER_NODE_MIXED, DROVER_NODE_FLAG_DRAIN));
    EXPECT_FALSE(m[0].matches(DROVER_NODE_MIXED, 0));
}

TEST(NodeStates, RebootAsSlurmShowsIt) {
    const uint32_t req = DROVER_NODE_FLAG_REBOOT_REQUESTED, issued = DROVER_NODE_FLAG_REBOOT_ISSUED;
    // A node running jobs keeps its state, with "@" (requested) or "^" (issued).
    EXPECT_EQ(node_state_compact(DROVER_NODE_ALLOCATED, req), "ALLOC@");
    EXPECT_EQ(node_state_compact(DROVER_NODE_MIXED, req | DROVER_NODE_FLAG_DRAIN), "DRNG@");
    EXPECT_EQ(node_state_long(DROVER_NODE_ALLOCATED, req | DROVER_NODE_FLAG_DRAIN), "DRAINING@");
    // Otherwise it is REBOOT (BOOT), drained or not; "^" once the reboot is sent.
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, req), "BOOT");
    EXPECT_EQ(node_state_long(DROVER_NODE_IDLE, req | DROVER_NODE_FLAG_DRAIN), "REBOOT");
    EXPECT_EQ(node_state_compact(DROVER_NODE_IDLE, issued), "BOOT^");
    EXPECT_EQ(node_state_long(DROVER_NODE_DOWN, req | DROVER_NODE_FLAG_NOT_RESPONDING), "REBOOT*");
    EXPECT_EQ(node_state_complete(DROVER_NODE_ALLOCATED, req | DROVER_NODE_FLAG_DRAIN),
              "ALLOCATED+DRAIN+REBOOT_REQUESTED");
    EXPECT_EQ(node_state_complete(DROVER_NODE_IDLE, issued), "IDLE+REBOOT_ISSUED");
    EXPECT_EQ(node_state_slurm_raw(DROVER_NODE_IDLE, req | issued), 2u | 0x10000u | 0x100000u);
    auto m = parse_node_state_list("reboot_requested,REBOOT_ISSUED");
    EXPECT_TRUE(m[0].matches(DROVER_NODE_ALLOCATED, req));
    EXPECT_FALSE(m[0].matches(DROVER_NODE_IDLE, issued));
    EXPECT_TRUE(m[1].matches(DROVER_NODE_IDLE, issued));
}

TEST(Sinfo, DefaultOutputExact) {
    Cluster c;
    build(c);
    EXPECT_EQ(run(c, kSinfoDefaultFormat, SinfoView::partitions),
              "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
              "debug*       up   infinite      1  drain n4\n"
              "debug*       up   infinite      1  alloc n3\n"
              "debug*       up   infinite      2   idle n[1-2]\n"
              "long         up 2-00:00:00      1  drain n4\n"
              "long         up 2-00:00:00      1  alloc n3\n");
}

TEST(Sinfo, SummarizeAndCpus) {
    Cluster c;
    build(c);
    EXPECT_EQ(run(c, kSinfoSummarizeFormat, SinfoView::partitions),
              "PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T)  NODELIST\n"
              "debug*       up   infinite          1/2/1/4  n[1-4]\n"
              "long         up 2-00:00:00          1/0/1/2  n[3-4]\n");
    EXPECT_EQ(run(c, "%R %C", SinfoView::partitions),
              "PARTITION CPUS(A/I/O/T)\ndebug 4/8/4/16\nlong 4/0/4/8\n");
}

TEST(Sinfo, NodeOriented) {
    Cluster c;
    build(c);
    EXPECT_EQ(run(c, kSinfoNodeFormat, SinfoView::nodes), "NODELIST   NODES PARTITION STATE \n"
                                                          "n1             1    debug* idle  \n"
                                                          "n2             1    debug* idle  \n"
                                                          "n3             1    debug* alloc \n"
                                                          "n3             1      long alloc \n"
                                                          "n4             1    debug* drain \n"
                                                          "n4             1      long drain \n");
}

TEST(Sinfo, ListReasons) {
    setenv("TZ", "UTC", 1);
    tzset();
    Cluster c;
    build(c);
    EXPECT_EQ(run(c, kSinfoReasonsFormat, SinfoView::reasons),
              "REASON               USER      TIMESTAMP           NODELIST\n"
              "maint                root      2023-11-14T22:13:20 n4\n");
}

TEST(Sinfo, FiltersAndEmptyPartition) {
    Cluster c;
    build(c);
    SinfoFilter idle;
    idle.states = parse_node_state_list("idle");
    EXPECT_EQ(run(c, "%P %D %t %N", SinfoView::partitions, idle),
              "PARTITION NODES STATE NODELIST\ndebug* 2 idle n[1-2]\n");
    SinfoFilter part;
    part.partitions = {"long"};
    EXPECT_EQ(run(c, "%P %D", SinfoView::partitions, part), "PARTITION NODES\nlong 2\n");

    Records rec;
    Part empty;
    empty.name = "empty";
    auto parts = rec.parts({empty});
    FormatSpec spec = sinfo_percent_format(kSinfoDefaultFormat);
    EXPECT_EQ(sinfo_render(spec, sinfo_rows(spec, SinfoView::partitions, parts, {}, {}), false),
              "empty        up   infinite      0    n/a \n");
    EXPECT_THROW(sinfo_percent_format("%P %q"), ParseError);
}

TEST(Sinfo, LongFormatOption) {
    Cluster c;
    build(c);
    FormatSpec spec = sinfo_long_format("PartitionName:8,NodeList:.8,StateLong");
    EXPECT_EQ(
        sinfo_render(spec, sinfo_rows(spec, SinfoView::partitions, c.parts, c.nodes, {}), true),
        "PARTITIONODELISTSTATE               \n"
        "debug         n4drained             \n"
        "debug         n3allocated           \n"
        "debug     n[1-2]idle                \n"
        "long          n4drained             \n"
        "long          n3allocated           \n");
}

TEST(Sinfo, Args) {
    SinfoArgs a = parse_sinfo_args(std::vector<std::string>{"-N", "-l"});
    EXPECT_EQ(sinfo_format_string(a), kSinfoNodeLongFormat);
    a = parse_sinfo_args(std::vector<std::string>{"-R"});
    EXPECT_EQ(sinfo_format_string(a), kSinfoReasonsFormat);
    a = parse_sinfo_args(std::vector<std::string>{"-o", "%N", "-s"});
    EXPECT_EQ(sinfo_format_string(a), "%N");
    a = parse_sinfo_args(std::vector<std::string>{"-p", "a,b", "-t", "idle,alloc", "-h"});
    EXPECT_EQ(a.partitions.size(), 2u);
    EXPECT_EQ(a.states.size(), 2u);
    EXPECT_TRUE(a.noheader);
    EXPECT_THROW(parse_sinfo_args(std::vector<std::string>{"-t", "sleepy"}), ParseError);
}

TEST(Sinfo, AllocMemPortAndFreeMem) {
    Records rec;
    Part p;
    p.nodes = "n[1-3]";
    auto parts = rec.parts({p});
    Node n1{"n1"}, n2{"n2"}, n3{"n3"};
    n1.alloc_memory = 500;
    n2.alloc_memory = 500;
    n1.port = n2.port = n3.port = 6818;
    auto nodes = rec.nodes({n1, n2, n3});
    // AllocMem is per node: nodes with different allocations take separate lines, as in Slurm.
    FormatSpec spec = sinfo_long_format("NodeList:8,AllocMem:.9,Port:.6,FreeMem:.9");
    EXPECT_EQ(sinfo_render(spec, sinfo_rows(spec, SinfoView::partitions, parts, nodes, {}), true),
              "NODELIST ALLOCMEM  PORT FREE_MEM\n"
              "n[1-2]        500  6818      N/A\n"
              "n3              0  6818      N/A\n");
    EXPECT_NO_THROW(sinfo_long_format("allocmem,freemem,port"));
    // They have no -o letter.
    EXPECT_THROW(sinfo_percent_format("%@"), ParseError);
    EXPECT_THROW(sinfo_percent_format("%^"), ParseError);
    EXPECT_TRUE(parse_sinfo_args(std::vector<std::string>{"--yaml"}).yaml);
}
