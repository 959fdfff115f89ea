// sacctmgr_events_test.cpp - sacctmgr show event: its conditions as Slurm's sacctmgr reads them,
// the default window, the filters the command applies itself, and the rows in Slurm's layout.
#include <gtest/gtest.h>

#include <drover/views.h>

#include <ctime>

#include "cli/sacctmgr_args.hpp"
#include "cli/sacctmgr_events.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

const int64_t kNow = 1795245000; // Sat Nov 21 2026, mid-morning UTC

EventConditions conditions(std::vector<std::string> words) {
    return parse_event_conditions(words, kNow);
}

std::string error_of(std::vector<std::string> words) {
    try {
        conditions(std::move(words));
    } catch (const ParseError &e) {
        return e.what();
    }
    return "(none)";
}

// One event as the controller sends it, kept alive in its builder.
struct Event {
    flatbuffers::FlatBufferBuilder fbb;
    const proto::AcctNodeEvent *ev = nullptr;
    Event(const std::string &node, uint32_t state, uint32_t flags, const std::string &reason,
          uint32_t uid, int64_t start, int64_t end) {
        fbb.Finish(proto::CreateAcctNodeEventDirect(fbb, "local", node.c_str(), state, flags,
                                                    reason.c_str(), uid, start, end));
        ev = flatbuffers::GetRoot<proto::AcctNodeEvent>(fbb.GetBufferPointer());
    }
};

std::string value(const SacctmgrRow &row, const std::string &key) {
    for (const auto &[k, v] : row)
        if (k == key) return v;
    return "(absent)";
}

// The local date and time of day of t.
std::tm local(int64_t t) {
    std::time_t tt = t;
    std::tm tm{};
    localtime_r(&tt, &tm);
    return tm;
}

} // namespace

TEST(SacctmgrEvents, ParsedAsItsOwnEntity) {
    std::vector<std::string> v = {"-P", "list", "events", "where", "nodes=n[1-2]", "states=drain"};
    SacctmgrArgs a = parse_sacctmgr_args(v);
    EXPECT_EQ(a.verb, "show");
    EXPECT_EQ(a.entity, "event");
    EXPECT_TRUE(a.parsable2);
    EXPECT_EQ(a.conditions, (std::vector<std::string>{"where", "nodes=n[1-2]", "states=drain"}));
    v = {"add", "event", "nodes=n1"};
    EXPECT_THROW(parse_sacctmgr_args(v), ParseError);
}

TEST(SacctmgrEvents, DefaultWindowIsFromMidnightYesterdayOrNowWithStates) {
    EventConditions c = conditions({});
    const std::tm start = local(c.start), yesterday = local(kNow - 86400);
    EXPECT_EQ(start.tm_hour * 3600 + start.tm_min * 60 + start.tm_sec, 0);
    EXPECT_EQ(start.tm_mday, yesterday.tm_mday);
    EXPECT_GT(c.start, kNow - 2 * 86400);
    EXPECT_EQ(c.end, 0);
    EXPECT_TRUE(c.node_events);
    EXPECT_FALSE(c.all_clusters);
    EXPECT_EQ(conditions({"states=down"}).start, kNow);
    EXPECT_EQ(conditions({"all_time"}).start, 0);
    EXPECT_EQ(conditions({"all_time", "states=down"}).start, 0);
    EXPECT_EQ(conditions({"start=2026-11-01T00:00:00"}).start,
              parse_timestamp("2026-11-01T00:00:00", kNow));
    EXPECT_EQ(conditions({"End=2026-11-02"}).end, parse_timestamp("2026-11-02", kNow));
}

TEST(SacctmgrEvents, ConditionsAndAbbreviations) {
    EventConditions c =
        conditions({"where", "Nodes=n[1-3],x", "Clusters=Local,other", "all_clusters",
                    "reason=Disk", "user=root", "format=NodeName,Reason%40", "condflags=open"});
    EXPECT_EQ(c.nodes, (std::vector<std::string>{"n1", "n2", "n3", "x"}));
    EXPECT_EQ(c.clusters, (std::vector<std::string>{"local", "other"}));
    EXPECT_TRUE(c.all_clusters);
    EXPECT_EQ(c.reasons, (std::vector<std::string>{"disk"}));
    EXPECT_EQ(c.users, (std::vector<uint32_t>{0}));
    EXPECT_EQ(c.format, (std::vector<std::string>{"NodeName", "Reason%40"}));
    EXPECT_TRUE(c.open_only);
    // A bare word names event types; Event= does too.
    c = conditions({"cluster"});
    EXPECT_TRUE(c.cluster_events);
    EXPECT_FALSE(c.node_events);
    c = conditions({"event=node,cluster"});
    EXPECT_TRUE(c.cluster_events && c.node_events);
    // States: DRAIN and FAIL are flags, the rest base states, three letters at least.
    c = conditions({"states=dra,DOWN,idle,fail"});
    ASSERT_EQ(c.states.size(), 4u);
    EXPECT_TRUE(c.states[0].flag);
    EXPECT_EQ(c.states[0].value, DROVER_NODE_FLAG_DRAIN);
    EXPECT_EQ(c.states[1].value, uint32_t(DROVER_NODE_DOWN));
    EXPECT_FALSE(c.states[1].flag);
    EXPECT_EQ(c.states[2].value, uint32_t(DROVER_NODE_IDLE));
    EXPECT_TRUE(c.states[3].never);
}

TEST(SacctmgrEvents, BadConditionsSaySoLikeSlurm) {
    EXPECT_EQ(error_of({"colour=red"}), " Unknown condition: colour=red");
    EXPECT_EQ(error_of({"bogus"}),
              " Unknown event type: 'bogus'  Valid events are Cluster and Node.");
    EXPECT_EQ(error_of({"states=dr"}), "Invalid state: dr\nValid node states are: DRAIN FAIL "
                                       "UNKNOWN DOWN IDLE ALLOCATED ERROR MIXED FUTURE");
    EXPECT_EQ(error_of({"user=no-such-user-here"}), "Invalid user id: no-such-user-here");
    EXPECT_EQ(error_of({"start=yesterdayish"}), "Invalid time specification: yesterdayish");
    EXPECT_EQ(error_of({"condflags=closed"}), " Unknown condition flag: closed");
    EXPECT_THROW(conditions({"nodes=n[1-"}), ParseError);
}

TEST(SacctmgrEvents, FiltersTheControllerLeavesToTheCommand) {
    Event drained("n1", DROVER_NODE_IDLE, DROVER_NODE_FLAG_DRAIN, "Disk swap", 0, kNow - 100, 0);
    Event down("n2", DROVER_NODE_DOWN, DROVER_NODE_FLAG_NOT_RESPONDING, "Not responding", 64030,
               kNow - 50, kNow - 10);
    EventConditions all = conditions({});
    EXPECT_TRUE(event_matches(all, *drained.ev));
    EXPECT_TRUE(event_matches(all, *down.ev));
    EXPECT_FALSE(event_matches(conditions({"event=cluster"}), *drained.ev));
    EXPECT_TRUE(event_matches(conditions({"states=drain"}), *drained.ev));
    EXPECT_FALSE(event_matches(conditions({"states=drain"}), *down.ev));
    EXPECT_TRUE(event_matches(conditions({"states=down,drain"}), *down.ev));
    EXPECT_FALSE(event_matches(conditions({"states=idle"}), *down.ev));
    EXPECT_FALSE(event_matches(conditions({"states=fail"}), *down.ev));
    EXPECT_TRUE(event_matches(conditions({"user=root"}), *drained.ev));
    EXPECT_FALSE(event_matches(conditions({"user=root"}), *down.ev));
    EXPECT_TRUE(event_matches(conditions({"reason=swap"}), *drained.ev));
    EXPECT_FALSE(event_matches(conditions({"reason=swap"}), *down.ev));
    EXPECT_TRUE(event_matches(conditions({"condflags=open"}), *drained.ev));
    EXPECT_FALSE(event_matches(conditions({"condflags=open"}), *down.ev));
}

TEST(SacctmgrEvents, RowsInSlurmsLayout) {
    Event drained("n1", DROVER_NODE_ALLOCATED, DROVER_NODE_FLAG_DRAIN, "Disk swap", 0, kNow - 3700,
                  0);
    Event down("n2", DROVER_NODE_DOWN, DROVER_NODE_FLAG_NOT_RESPONDING, "Not responding", 0,
               kNow - 90000, kNow - 4200);
    SacctmgrRow r = event_row(*drained.ev, kNow);
    EXPECT_EQ(value(r, "cluster"), "local");
    EXPECT_EQ(value(r, "nodename"), "n1");
    EXPECT_EQ(value(r, "timestart"), format_timestamp(kNow - 3700));
    EXPECT_EQ(value(r, "timeend"), "Unknown");
    EXPECT_EQ(value(r, "duration"), "01:01:40");
    EXPECT_EQ(value(r, "state"), "DRNG");
    EXPECT_EQ(value(r, "stateraw"), "515"); // ALLOCATED (3) | DRAIN (0x200)
    EXPECT_EQ(value(r, "user"), "root(0)");
    r = event_row(*down.ev, kNow);
    EXPECT_EQ(value(r, "state"), "DOWN*");
    EXPECT_EQ(value(r, "timeend"), format_timestamp(kNow - 4200));
    EXPECT_EQ(value(r, "duration"), "23:50:00");
    EXPECT_EQ(value(r, "event"), "Node");

    auto fields = parse_sacctmgr_format(event_default_format(conditions({})));
    ASSERT_EQ(fields.size(), 7u);
    std::string start = format_timestamp(kNow - 3700);
    EXPECT_EQ(render_sacctmgr(fields, {event_row(*drained.ev, kNow)}, FieldLayout::fixed, true),
              "   Cluster NodeName                  TimeStart             TimeEnd  State "
              "                        Reason       User \n"
              "---------- --------------- ------------------- ------------------- ------ "
              "------------------------------ ---------- \n"
              "     local n1              " +
                  start +
                  "             Unknown   DRNG "
                  "                     Disk swap    root(0) \n");
    EXPECT_EQ(render_sacctmgr(fields, {event_row(*down.ev, kNow)}, FieldLayout::parsable2, false),
              "local|n2|" + format_timestamp(kNow - 90000) + "|" + format_timestamp(kNow - 4200) +
                  "|DOWN*|Not responding|root(0)\n");
    // Slurm's other event fields, and their abbreviations.
    auto more =
        parse_sacctmgr_format({"Duration", "EventRaw", "Event", "StateRaw", "Start", "End",
                               "TimeStart", "NodeNames", "ClusterNodes", "Clusters", "TRES"});
    EXPECT_EQ(more[0].header, "Duration");
    EXPECT_EQ(more[1].header, "EventRaw");
    EXPECT_EQ(more[2].header, "Event");
    EXPECT_EQ(more[3].header, "StateRaw");
    EXPECT_EQ(more[4].header, "TimeStart");
    EXPECT_EQ(more[5].header, "TimeEnd");
    EXPECT_EQ(more[7].width, -15);
    EXPECT_EQ(more[8].header, "Cluster Nodes");
    EXPECT_EQ(more[9].header, "Cluster");
    EXPECT_EQ(parse_sacctmgr_format({"sta"})[0].header, "State"); // Slurm tries State first
    EXPECT_EQ(parse_sacctmgr_format({"star"})[0].header, "TimeStart");
    EXPECT_EQ(parse_sacctmgr_format(event_default_format(conditions({"cluster"})))[1].header,
              "TRES");
}
