// accounting_events_test.cpp - node events (ABI 1.4) in both stores (accounting/lmdb, and
// accounting/postgres against a server the test starts): an event that lasts is stored whole, an
// end keeps what the event began as, a record sent twice changes nothing, and queries filter by
// cluster, node and period, in the order cluster, start time, node name.
#include <gtest/gtest.h>

#include <drover/views.h>

#include <tuple>

#include "store_fixture.hpp"

namespace drover::plugin::test {
namespace {

struct Ev {
    std::string cluster, node;
    uint32_t state = 0, flags = 0;
    std::string reason;
    uint32_t uid = 0;
    int64_t start = 0, end = 0;
    bool operator==(const Ev &) const = default;
    drover_acct_node_event view() const {
        return {.struct_size = sizeof(drover_acct_node_event),
                .state = state,
                .flags = flags,
                .reason_uid = uid,
                .cluster = str(cluster),
                .node_name = str(node),
                .reason = str(reason),
                .start_time = start,
                .end_time = end};
    }
};

std::ostream &operator<<(std::ostream &o, const Ev &e) {
    return o << e.cluster << "/" << e.node << " " << e.state << "+" << e.flags << " '" << e.reason
             << "' uid " << e.uid << " " << e.start << ".." << e.end;
}

struct Query {
    std::vector<std::string> clusters, nodes;
    int64_t from = 0, to = 0;
};

class AccountingEvents : public StoreTest {
  protected:
    int put(const Ev &e, std::string *why = nullptr) {
        const auto &a = set_->acct();
        drover_acct_node_event v = e.view();
        drover_error err{};
        int rc = a.ops.node_event(a.state, &v, &err);
        if (why) *why = err.text;
        return rc;
    }

    std::vector<Ev> query(const Query &q = {}) {
        std::vector<drover_str> clusters, nodes;
        for (const auto &c : q.clusters) clusters.push_back(str(c));
        for (const auto &n : q.nodes) nodes.push_back(str(n));
        drover_acct_event_query dq{.struct_size = sizeof dq,
                                   .cluster_count = uint32_t(clusters.size()),
                                   .clusters = clusters.data(),
                                   .node_names = nodes.data(),
                                   .node_count = uint32_t(nodes.size()),
                                   .period_start = q.from,
                                   .period_end = q.to};
        std::vector<Ev> out;
        auto emit = [](void *arg, const drover_acct_node_event *e) -> int {
            auto t = [](drover_str s) { return std::string(s.ptr, s.len); };
            static_cast<std::vector<Ev> *>(arg)->push_back(
                Ev{t(e->cluster), t(e->node_name), e->state, e->flags, t(e->reason), e->reason_uid,
                   e->start_time, e->end_time});
            return 0;
        };
        const auto &a = set_->acct();
        drover_error err{};
        EXPECT_EQ(a.ops.node_event_query(a.state, &dq, emit, &out, &err), DROVER_OK) << err.text;
        return out;
    }

    const Ev drain_{
        "local", "n1", DROVER_NODE_ALLOCATED, DROVER_NODE_FLAG_DRAIN, "disk \"swap\" \\ 1", 1000,
        1000,    0};
    const Ev down_{
        "local", "n2", DROVER_NODE_DOWN, DROVER_NODE_FLAG_NOT_RESPONDING, "Not responding", 64030,
        1100,    1500};
    const Ev other_{"other", "n1", DROVER_NODE_DOWN, 0, "power", 0, 900, 0};
};

using Evs = std::vector<Ev>;

TEST_P(AccountingEvents, StoresAndListsEveryMemberInOrder) {
    ASSERT_TRUE(set_->acct().ops.node_event && set_->acct().ops.node_event_query);
    ASSERT_EQ(put(down_), DROVER_OK);
    ASSERT_EQ(put(drain_), DROVER_OK);
    ASSERT_EQ(put(other_), DROVER_OK);
    EXPECT_EQ(query(), (Evs{drain_, down_, other_}));
}

TEST_P(AccountingEvents, AnEndKeepsWhatTheEventBeganAs) {
    ASSERT_EQ(put(drain_), DROVER_OK);
    Ev end = drain_;
    end.state = DROVER_NODE_IDLE; // what the node is when it returns
    end.flags = 0;
    end.reason = "";
    end.end = 2000;
    ASSERT_EQ(put(end), DROVER_OK);
    Ev expected = drain_;
    expected.end = 2000;
    EXPECT_EQ(query(), (Evs{expected}));
    // Sent again (a controller that restarted before it knew the store had it): no change.
    ASSERT_EQ(put(end), DROVER_OK);
    EXPECT_EQ(query(), (Evs{expected}));
    // An end whose beginning the store never got is stored whole.
    Ev lone = down_;
    lone.node = "n9";
    ASSERT_EQ(put(lone), DROVER_OK);
    EXPECT_EQ(query({{"local"}, {"n9"}}), (Evs{lone}));
}

TEST_P(AccountingEvents, AnEventThatLastsReplacesItsKey) {
    ASSERT_EQ(put(drain_), DROVER_OK);
    Ev replaced = drain_;
    replaced.state = DROVER_NODE_DOWN;
    replaced.reason = "now down";
    ASSERT_EQ(put(replaced), DROVER_OK);
    EXPECT_EQ(query(), (Evs{replaced}));
}

TEST_P(AccountingEvents, QueriesFilterByClusterNodeAndPeriod) {
    for (const Ev &e : {drain_, down_, other_}) ASSERT_EQ(put(e), DROVER_OK);
    EXPECT_EQ(query({{"local"}}), (Evs{drain_, down_}));
    EXPECT_EQ(query({{"other", "local"}}), (Evs{drain_, down_, other_}));
    EXPECT_EQ(query({{"none"}}), Evs{});
    EXPECT_EQ(query({{}, {"n1"}}), (Evs{drain_, other_}));
    EXPECT_EQ(query({{"local"}, {"n2", "n3"}}), (Evs{down_}));
    // Overlapping [from, to]: began by `to`, not ended before `from` (0: open).
    EXPECT_EQ(query({{"local"}, {}, 1600, 0}), (Evs{drain_})); // down_ ended at 1500
    EXPECT_EQ(query({{"local"}, {}, 1500, 0}), (Evs{drain_, down_}));
    EXPECT_EQ(query({{"local"}, {}, 0, 1099}), (Evs{drain_})); // down_ began at 1100
    EXPECT_EQ(query({{"local"}, {}, 1200, 1300}), (Evs{drain_, down_}));
    EXPECT_EQ(query({{}, {}, 0, 950}), (Evs{other_}));
}

TEST_P(AccountingEvents, EventsSurviveAReopen) {
    ASSERT_EQ(put(drain_), DROVER_OK);
    reopen();
    EXPECT_EQ(query(), (Evs{drain_}));
}

INSTANTIATE_TEST_SUITE_P(Stores, AccountingEvents, ::testing::Values("lmdb", "postgres"),
                         [](const auto &info) { return info.param; });

} // namespace
} // namespace drover::plugin::test
