// priority_test.cpp - the controller's side of multifactor priority without a daemon: usage
// decayed, charged, reset and written as state-store records (UsageLedger), and the fair-share
// tree built from sacctmgr's associations (FsTree).
#include <gtest/gtest.h>

#include <cmath>

#include "common/timefmt.hpp"
#include "ctld/acct/acct_admin.hpp"
#include "ctld/policy/fs_tree.hpp"
#include "ctld/policy/usage_ledger.hpp"

using namespace drover::ctld;
using namespace drover::ctld::policy;

namespace {

constexpr int64_t kT0 = 1'790'000'000;
constexpr uint64_t kDay = 86400;

TEST(UsageLedger, DecaysByHalfLifeFromTheLastTick) {
    UsageLedger l;
    l.decay(kT0, kDay); // the first tick only starts the clock
    EXPECT_EQ(l.tick(), kT0);
    l.charge({"a", "root"}, 100);
    l.charge({"b", "root"}, 50);
    EXPECT_DOUBLE_EQ(l.usage("root"), 150);
    l.decay(kT0 + int64_t(kDay), kDay);
    EXPECT_DOUBLE_EQ(l.usage("a"), 50);
    EXPECT_DOUBLE_EQ(l.usage("root"), 75);
    l.decay(kT0 + int64_t(3 * kDay), kDay);
    EXPECT_DOUBLE_EQ(l.usage("a"), 12.5);
    l.decay(kT0 + int64_t(4 * kDay), 0);
    EXPECT_DOUBLE_EQ(l.usage("a"), 12.5) << "PriorityDecayHalfLife=0: no decay";
    EXPECT_EQ(l.tick(), kT0 + int64_t(4 * kDay));
    l.charge({"a"}, -5);
    EXPECT_DOUBLE_EQ(l.usage("a"), 12.5) << "nothing negative is charged";
    EXPECT_EQ(l.usage("nobody"), 0);
}

TEST(UsageLedger, RecordsRoundTripAndBadOnesAreRefused) {
    UsageLedger l;
    l.decay(kT0, kDay);
    l.charge({std::string("3local\0acct\0\0", 13)}, 42.5);
    UsageLedger back;
    for (const auto &[k, u] : l.all())
        EXPECT_TRUE(back.load(UsageLedger::record_key(k), UsageLedger::encode_usage(u)));
    std::string clock(UsageLedger::kClockKey);
    std::vector<uint8_t> ck(clock.begin(), clock.end());
    EXPECT_TRUE(back.load(ck, l.encode_clock()));
    EXPECT_EQ(back.all(), l.all());
    EXPECT_EQ(back.tick(), kT0);
    std::vector<uint8_t> short_value = {1, 2, 3};
    EXPECT_FALSE(back.load(UsageLedger::record_key("x"), short_value));
    EXPECT_FALSE(back.load(ck, short_value));
    EXPECT_FALSE(back.load(UsageLedger::record_key("x"), UsageLedger::encode_usage(-1)));
    EXPECT_FALSE(back.load(UsageLedger::record_key("x"), UsageLedger::encode_usage(NAN)));
    std::vector<uint8_t> other = {'j', 'o', 'b'};
    EXPECT_FALSE(back.load(other, UsageLedger::encode_usage(1)));
    EXPECT_EQ(back.usage("x"), 0);
}

TEST(UsageLedger, ResetPeriods) {
    const int64_t now = drover::parse_timestamp("2026-11-25T10:00:00", kT0); // a Wednesday
    EXPECT_EQ(reset_boundary(now, "DAILY"), drover::parse_timestamp("2026-11-25T00:00:00", kT0));
    EXPECT_EQ(reset_boundary(now, "WEEKLY"), drover::parse_timestamp("2026-11-22T00:00:00", kT0));
    EXPECT_EQ(reset_boundary(now, "MONTHLY"), drover::parse_timestamp("2026-11-01T00:00:00", kT0));
    EXPECT_EQ(reset_boundary(now, "QUARTERLY"),
              drover::parse_timestamp("2026-10-01T00:00:00", kT0));
    EXPECT_EQ(reset_boundary(now, "YEARLY"), drover::parse_timestamp("2026-01-01T00:00:00", kT0));
    EXPECT_EQ(reset_boundary(now, "NONE"), 0);

    UsageLedger l;
    l.charge({"a"}, 10);
    EXPECT_FALSE(l.reset_if_due(now, "DAILY", true)) << "a new period counts from now";
    EXPECT_FALSE(l.reset_if_due(now + 3600, "DAILY", false));
    EXPECT_EQ(l.usage("a"), 10);
    std::vector<std::string> cleared;
    EXPECT_TRUE(l.reset_if_due(now + int64_t(kDay), "DAILY", false, &cleared)) << "past midnight";
    EXPECT_EQ(l.usage("a"), 0);
    EXPECT_EQ(cleared, std::vector<std::string>{"a"}) << "the records to remove";
    l.charge({"a"}, 10);
    EXPECT_FALSE(l.reset_if_due(now + int64_t(kDay) + 60, "DAILY", false));
    EXPECT_FALSE(l.reset_if_due(now, "NOW", false));
    EXPECT_TRUE(l.reset_if_due(now, "NOW", true)) << "NOW: at the controller's start";
    EXPECT_FALSE(l.reset_if_due(now, "NONE", true));
}

const LocalCluster kLocal{"local", "head", 6817};

class Tree : public ::testing::Test {
  protected:
    void SetUp() override {
        db_.replace({});
        plan("add", "cluster", {{"name", "local"}});
        plan("add", "account", {{"name", "physics"}, {"fairshare", "3"}});
        plan("add", "account", {{"name", "chem"}});
        plan("add", "account", {{"name", "theory"}, {"parent", "physics"}});
        plan("add", "user", {{"name", "zoe"}, {"account", "physics"}, {"fairshare", "parent"}});
        plan("add", "user", {{"name", "alice"}, {"account", "theory"}, {"priority", "7"}});
        plan("add", "user", {{"name", "carl"}, {"account", "chem"}});
    }
    void plan(std::string verb, std::string entity, AdminFields set) {
        AdminPlan p =
            plan_admin(db_, {std::move(verb), std::move(entity), std::move(set), {}}, kLocal);
        ASSERT_EQ(p.error, "");
        db_.apply(p.change);
    }
    static std::string name(const drover_priority_assoc &a) {
        return a.user.len ? std::string(a.user.ptr, a.user.len)
                          : std::string(a.account.ptr, a.account.len);
    }
    AssocDb db_;
};

TEST_F(Tree, ParentsFirstUsersBeforeSubAccountsWithSharesAndUsage) {
    UsageLedger l;
    const AssocRec *alice = db_.job_assoc("local", "alice", "theory", "");
    ASSERT_NE(alice, nullptr);
    l.charge({alice->key()}, 30);
    FsTree t(db_, "local", l);
    std::vector<std::string> order;
    std::vector<uint32_t> depth;
    for (uint32_t i = 0; i < t.nodes().size(); ++i) {
        order.push_back(name(t.nodes()[i]));
        depth.push_back(t.depth(i));
        if (i) {
            EXPECT_LT(t.nodes()[i].parent, i) << "parents come first";
        }
    }
    EXPECT_EQ(order, (std::vector<std::string>{"root", "root", "chem", "carl", "physics", "zoe",
                                               "theory", "alice"}));
    EXPECT_EQ(depth, (std::vector<uint32_t>{0, 1, 1, 2, 1, 2, 2, 3}));
    EXPECT_EQ(t.nodes()[0].parent, DROVER_NO_VAL);
    EXPECT_EQ(t.nodes()[4].shares_raw, 3u) << "physics: FairShare=3";
    EXPECT_EQ(t.nodes()[5].shares_raw, DROVER_PRIORITY_SHARES_PARENT) << "zoe: parent";
    EXPECT_EQ(t.nodes()[3].shares_raw, 1u) << "unset: 1";
    EXPECT_EQ(t.nodes()[7].usage_raw, 30);
    EXPECT_EQ(t.nodes()[7].priority, 7u);
    EXPECT_EQ(t.max_priority(), 7u);
    EXPECT_EQ(t.index(alice->key()), 7u);
    EXPECT_EQ(t.index("nothing"), DROVER_NO_VAL);
    EXPECT_EQ(t.rec(7), alice);
    EXPECT_TRUE(FsTree(db_, "elsewhere", l).nodes().size() == 1) << "another cluster's tree";
}

} // namespace
