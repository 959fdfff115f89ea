// node_events_test.cpp - which node state changes open and end node events (sacctmgr show event),
// and node events through the accounting spool's bytes.
#include <gtest/gtest.h>

#include <drover/views.h>

#include <variant>

#include "ctld/acct/acct_records.hpp"
#include "ctld/nodes/node_events.hpp"

using namespace drover::ctld;

namespace {

struct Node {
    std::string name = "n1";
    uint32_t state = DROVER_NODE_IDLE, flags = 0;
    std::string reason;
    uint32_t uid = 0;
    OpenNodeEvent open;
    std::vector<AcctNodeEvent> at(int64_t now) {
        return node_event_changes(open, {name, state, flags, reason, uid}, now);
    }
};

} // namespace

TEST(NodeEvents, DrainOpensAnEventAndResumeEndsIt) {
    Node n;
    EXPECT_TRUE(n.at(100).empty()); // an idle node has none
    n.flags = DROVER_NODE_FLAG_DRAIN;
    n.reason = "disk swap";
    n.uid = 1000;
    auto r = n.at(200);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].node_name, "n1");
    EXPECT_EQ(r[0].state, uint32_t(DROVER_NODE_IDLE));
    EXPECT_EQ(r[0].flags, DROVER_NODE_FLAG_DRAIN);
    EXPECT_EQ(r[0].reason, "disk swap");
    EXPECT_EQ(r[0].reason_uid, 1000u);
    EXPECT_EQ(r[0].start_time, 200);
    EXPECT_EQ(r[0].end_time, 0);
    EXPECT_EQ(n.open.start, 200);
    // Still drained, now with a job (draining): the same event.
    n.state = DROVER_NODE_ALLOCATED;
    EXPECT_TRUE(n.at(250).empty());
    n.state = DROVER_NODE_IDLE;
    n.flags = 0;
    n.reason.clear();
    r = n.at(300);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].start_time, 200);
    EXPECT_EQ(r[0].end_time, 300);
    EXPECT_EQ(r[0].reason, "disk swap"); // what the event was, should the store lack it
    EXPECT_EQ(n.open.start, 0);
}

TEST(NodeEvents, DownAfterDrainOrANewReasonIsANewEvent) {
    Node n;
    n.flags = DROVER_NODE_FLAG_DRAIN;
    n.reason = "maintenance";
    n.at(100);
    n.state = DROVER_NODE_DOWN;
    n.flags |= DROVER_NODE_FLAG_NOT_RESPONDING;
    n.reason = "Not responding";
    auto r = n.at(160);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].start_time, 100);
    EXPECT_EQ(r[0].end_time, 160);
    EXPECT_EQ(r[1].start_time, 160);
    EXPECT_EQ(r[1].end_time, 0);
    EXPECT_EQ(r[1].state, uint32_t(DROVER_NODE_DOWN));
    EXPECT_EQ(r[1].reason, "Not responding");
    // It answers again but stays down (ReturnToService=0): the same event.
    n.flags &= ~DROVER_NODE_FLAG_NOT_RESPONDING;
    EXPECT_TRUE(n.at(170).empty());
    n.reason = "bad DIMM";
    r = n.at(180);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[1].reason, "bad DIMM");
}

TEST(NodeEvents, ANewEventInTheSameSecondReplacesTheOld) {
    Node n;
    n.flags = DROVER_NODE_FLAG_DRAIN;
    n.reason = "a";
    n.at(100);
    n.state = DROVER_NODE_DOWN;
    auto r = n.at(100);
    ASSERT_EQ(r.size(), 1u); // the store keys events by start: no end for the one replaced
    EXPECT_EQ(r[0].end_time, 0);
    EXPECT_EQ(r[0].state, uint32_t(DROVER_NODE_DOWN));
    // But one that ends in the second it began is recorded ended.
    n.state = DROVER_NODE_IDLE;
    n.flags = 0;
    r = n.at(100);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].end_time, 100);
}

TEST(NodeEvents, ThroughTheSpoolsBytes) {
    AcctNodeEvent ev;
    ev.node_name = "n7";
    ev.state = DROVER_NODE_DOWN;
    ev.flags = DROVER_NODE_FLAG_NOT_RESPONDING;
    ev.reason = "Not responding";
    ev.reason_uid = 64030;
    ev.start_time = 1795245000;
    ev.end_time = 1795246000;
    auto bytes = encode_acct(kAcctNodeEventCode, ev);
    int event = 0;
    AcctPayload back;
    ASSERT_TRUE(decode_acct(bytes.data(), bytes.size(), &event, &back));
    EXPECT_EQ(event, kAcctNodeEventCode);
    ASSERT_TRUE(std::holds_alternative<AcctNodeEvent>(back));
    const auto &b = std::get<AcctNodeEvent>(back);
    EXPECT_EQ(b.node_name, "n7");
    EXPECT_EQ(b.state, ev.state);
    EXPECT_EQ(b.flags, ev.flags);
    EXPECT_EQ(b.reason, ev.reason);
    EXPECT_EQ(b.reason_uid, ev.reason_uid);
    EXPECT_EQ(b.start_time, ev.start_time);
    EXPECT_EQ(b.end_time, ev.end_time);
    // A job's and a step's bytes still decode as such; damaged bytes do not decode.
    AcctRecord job;
    job.job_id = 12;
    bytes = encode_acct(DROVER_ACCT_JOB_END, job);
    ASSERT_TRUE(decode_acct(bytes.data(), bytes.size(), &event, &back));
    EXPECT_EQ(std::get<AcctRecord>(back).job_id, 12u);
    AcctStepRecord step;
    step.job_id = 12;
    step.step_id = 3;
    bytes = encode_acct(DROVER_ACCT_STEP_START, step);
    ASSERT_TRUE(decode_acct(bytes.data(), bytes.size(), &event, &back));
    EXPECT_EQ(std::get<AcctStepRecord>(back).step_id, 3u);
    bytes.resize(bytes.size() / 2);
    EXPECT_FALSE(decode_acct(bytes.data(), bytes.size(), &event, &back));
    const uint8_t unknown[] = {0x7f, 0, 0, 0, 0};
    EXPECT_FALSE(decode_acct(unknown, sizeof unknown, &event, &back));
}
