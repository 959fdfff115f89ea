// priority_multifactor_test.cpp - priority/multifactor: Fair Tree's ranks and ties, classic
// fair-share's formula, each factor and the weighted sum, the slurm.conf keys it reads; and the
// plugin loaded from its file and driven through its operations table as the controller drives
// it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "../../../plugins/priority/multifactor/factors.hpp"
#include "../../../plugins/priority/multifactor/fairshare.hpp"
#include "../../../plugins/priority/multifactor/settings.hpp"
#include "common/config.hpp"
#include "plugin/plugin_set.hpp"

using namespace drover::multifactor;

namespace {

// A tree written as (parent, account, user, shares, usage) rows; names must outlive the tree.
struct Row {
    uint32_t parent;
    const char *account, *user;
    uint32_t shares;
    double usage;
};

std::vector<drover_priority_assoc> tree(const std::vector<Row> &rows) {
    std::vector<drover_priority_assoc> out;
    for (const Row &r : rows) {
        drover_priority_assoc a{};
        a.struct_size = sizeof a;
        a.parent = r.parent;
        a.account = {r.account, std::strlen(r.account)};
        a.user = {r.user, std::strlen(r.user)};
        a.shares_raw = r.shares;
        a.usage_raw = r.usage;
        out.push_back(a);
    }
    return out;
}

constexpr uint32_t kRoot = DROVER_NO_VAL;
constexpr uint32_t kParent = DROVER_PRIORITY_SHARES_PARENT;
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(FairTree, UnderusedAccountsUsersComeFirstWhateverTheirOwnUsage) {
    // root -> a (1 share, used 10) -> u1 (used 10), u2 (used 0)
    //      -> b (1 share, used 90) -> u3 (used 90)
    auto t = tree({{kRoot, "root", "", 1, 100},
                   {0, "a", "", 1, 10},
                   {1, "a", "u1", 1, 10},
                   {1, "a", "u2", 1, 0},
                   {0, "b", "", 1, 90},
                   {4, "b", "u3", 1, 90}});
    fair_tree(t);
    EXPECT_DOUBLE_EQ(t[1].level_fs, 0.5 / 0.1);
    EXPECT_DOUBLE_EQ(t[4].level_fs, 0.5 / 0.9);
    EXPECT_EQ(t[3].level_fs, kInf) << "no usage";
    EXPECT_DOUBLE_EQ(t[3].fairshare, 3.0 / 3) << "u2: first of three users";
    EXPECT_DOUBLE_EQ(t[2].fairshare, 2.0 / 3) << "u1: under the underused account";
    EXPECT_DOUBLE_EQ(t[5].fairshare, 1.0 / 3) << "u3: last";
    EXPECT_DOUBLE_EQ(t[1].usage_eff, 0.1);
    EXPECT_DOUBLE_EQ(t[2].usage_eff, 1.0) << "u1 used all of a's usage";
    EXPECT_DOUBLE_EQ(t[2].shares_norm, 0.25);
    EXPECT_DOUBLE_EQ(t[4].usage_norm, 0.9);
}

TEST(FairTree, TiedUsersShareARankAndTiedAccountsAreMerged) {
    // Two unused accounts tie (infinite LevelFS): their users are ranked as one level.
    auto t = tree({{kRoot, "root", "", 1, 30},
                   {0, "a", "", 1, 0},
                   {1, "a", "u1", 1, 0},
                   {0, "b", "", 1, 0},
                   {3, "b", "u2", 1, 0},
                   {0, "c", "", 1, 30},
                   {5, "c", "u3", 1, 10},
                   {5, "c", "u4", 1, 20}});
    fair_tree(t);
    EXPECT_DOUBLE_EQ(t[2].fairshare, 1.0) << "u1 and u2 tie for the top rank";
    EXPECT_DOUBLE_EQ(t[4].fairshare, 1.0);
    EXPECT_DOUBLE_EQ(t[6].fairshare, 2.0 / 4) << "u3 ranks after both tied users";
    EXPECT_DOUBLE_EQ(t[7].fairshare, 1.0 / 4);
}

TEST(FairTree, ParentSharesAndZeroShares) {
    auto t = tree({{kRoot, "root", "", 1, 10},
                   {0, "a", "", 1, 10},
                   {1, "a", "p", kParent, 5},
                   {1, "a", "z", 0, 0},
                   {1, "a", "u", 1, 5}});
    fair_tree(t);
    EXPECT_EQ(t[2].level_fs, kInf) << "FairShare=parent";
    EXPECT_EQ(t[3].level_fs, 0) << "no shares";
    EXPECT_DOUBLE_EQ(t[2].fairshare, 1.0);
    EXPECT_DOUBLE_EQ(t[4].fairshare, 2.0 / 3);
    EXPECT_DOUBLE_EQ(t[3].fairshare, 1.0 / 3);
    EXPECT_DOUBLE_EQ(t[2].shares_norm, t[1].shares_norm) << "parent: its account's share";
}

TEST(Classic, SlurmsFormulaWithDamping) {
    auto t = tree({{kRoot, "root", "", 1, 100},
                   {0, "acct", "", 1, 100},
                   {1, "acct", "u1", 1, 100},
                   {1, "acct", "u2", 1, 0}});
    classic(t, 1);
    EXPECT_DOUBLE_EQ(t[1].usage_eff, 1.0) << "under the root: its own normalised usage";
    EXPECT_DOUBLE_EQ(t[1].fairshare, 0.5);
    EXPECT_DOUBLE_EQ(t[2].usage_eff, 1.0);
    EXPECT_DOUBLE_EQ(t[2].fairshare, 0.25) << "2^-(1/0.5)";
    EXPECT_DOUBLE_EQ(t[3].usage_eff, 0.5);
    EXPECT_DOUBLE_EQ(t[3].fairshare, 0.5);
    EXPECT_EQ(t[3].level_fs, 0) << "classic has no LevelFS";
    classic(t, 2);
    EXPECT_DOUBLE_EQ(t[2].fairshare, 0.5) << "FairShareDampeningFactor=2";
}

TEST(Classic, NoSharesGivesZeroAndParentCopies) {
    auto t = tree({{kRoot, "root", "", 1, 0},
                   {0, "acct", "", 1, 0},
                   {1, "acct", "z", 0, 0},
                   {1, "acct", "p", kParent, 0}});
    classic(t, 1);
    EXPECT_EQ(t[2].fairshare, 0);
    EXPECT_DOUBLE_EQ(t[3].fairshare, t[1].fairshare);
}

Settings settings(std::map<std::string, std::string> conf,
                  std::vector<std::string> *warn = nullptr) {
    return read_settings(
        [&](std::string_view k) -> std::optional<std::string_view> {
            auto it = conf.find(std::string(k));
            if (it == conf.end()) return std::nullopt;
            return std::string_view(it->second);
        },
        warn);
}

TEST(Settings, SlurmsKeysDefaultsAndRefusals) {
    Settings d = settings({});
    EXPECT_EQ(d.max_age_s, 7 * 86400u);
    EXPECT_TRUE(d.fair_tree);
    EXPECT_EQ(d.weights.fairshare, 0);
    std::vector<std::string> warn;
    Settings s = settings({{"PriorityWeightFairshare", "10000"},
                           {"PriorityWeightTRES", "CPU=1000,Mem=2000,GRES/gpu=3000,bb/x=1"},
                           {"PriorityMaxAge", "1-0"},
                           {"PriorityFavorSmall", "YES"},
                           {"PriorityFlags", "NO_FAIR_TREE,ACCRUE_ALWAYS,CALCULATE_RUNNING"},
                           {"FairShareDampeningFactor", "3"}},
                          &warn);
    EXPECT_EQ(s.weights.fairshare, 10000);
    EXPECT_EQ(s.weights.tres[0], 1000);
    EXPECT_EQ(s.weights.tres[1], 2000);
    EXPECT_EQ(s.weights.tres[3], 3000);
    EXPECT_EQ(s.max_age_s, 86400u);
    EXPECT_TRUE(s.favor_small);
    EXPECT_FALSE(s.fair_tree);
    EXPECT_TRUE(s.accrue_always);
    EXPECT_EQ(s.damping, 3u);
    ASSERT_EQ(warn.size(), 1u);
    EXPECT_NE(warn[0].find("bb/x"), std::string::npos);
    EXPECT_EQ(settings({{"PriorityMaxAge", "30"}}).max_age_s, 1800u) << "minutes";
    EXPECT_THROW(settings({{"PriorityWeightAge", "lots"}}), std::invalid_argument);
    EXPECT_THROW(settings({{"PriorityWeightAge", "-1"}}), std::invalid_argument);
    EXPECT_THROW(settings({{"PriorityFlags", "FAST"}}), std::invalid_argument);
    EXPECT_THROW(settings({{"PriorityFavorSmall", "maybe"}}), std::invalid_argument);
    try {
        settings({{"PriorityWeightQOS", "x"}});
    } catch (const std::invalid_argument &e) {
        EXPECT_STREQ(e.what(), "PriorityWeightQOS=x: expected a whole number from 0 to 4294967295");
    }
}

struct JobFixture {
    drover_job_view view{};
    drover_priority_job job{};
    drover_priority_cluster cluster{};
    JobFixture() {
        view.struct_size = sizeof view;
        view.nice = DROVER_NICE_OFFSET;
        view.submit_time = 1000;
        job.struct_size = sizeof job;
        job.job = &view;
        job.assoc = DROVER_NO_VAL;
        cluster.struct_size = sizeof cluster;
        cluster.now = 1000 + 43200;
        cluster.cpus = 100;
        cluster.nodes = 10;
        cluster.mem_mb = 1000;
        cluster.max_partition_factor = 2;
        cluster.max_qos_priority = 100;
    }
};

TEST(Factors, EachFactorNormalisedThenWeighed) {
    JobFixture f;
    f.job.eligible_time = 1000;
    f.job.cpus = 20;
    f.job.nodes = 2;
    f.job.mem_mb = 500;
    f.job.qos_priority = 50;
    f.job.partition_factor = 2;
    auto t = tree({{kRoot, "root", "", 1, 0}, {0, "a", "u", 1, 0}});
    t[1].fairshare = 0.75;
    f.job.assoc = 1;
    Settings s = settings({{"PriorityMaxAge", "1-0"}});
    auto x = job_factors(s, f.cluster, t, f.job);
    EXPECT_DOUBLE_EQ(x.age, 0.5) << "half a day of a day's PriorityMaxAge";
    EXPECT_DOUBLE_EQ(x.fairshare, 0.75);
    EXPECT_DOUBLE_EQ(x.job_size, (0.2 + 0.2) / 2);
    EXPECT_DOUBLE_EQ(x.partition, 1.0);
    EXPECT_DOUBLE_EQ(x.qos, 0.5);
    EXPECT_DOUBLE_EQ(x.tres[0], 0.2);
    EXPECT_DOUBLE_EQ(x.tres[1], 0.5);
    s.weights.age = 1000;
    s.weights.fairshare = 10000;
    s.weights.qos = 2000;
    s.weights.tres[1] = 100;
    EXPECT_EQ(combine(s, x), 500u + 7500 + 1000 + 50);
    f.view.nice = DROVER_NICE_OFFSET + 100;
    EXPECT_EQ(combine(s, job_factors(s, f.cluster, t, f.job)), 9050u - 100) << "nice subtracts";
    s.favor_small = true;
    EXPECT_DOUBLE_EQ(job_factors(s, f.cluster, t, f.job).job_size, 0.8);
    f.job.eligible_time = 0;
    EXPECT_EQ(job_factors(s, f.cluster, t, f.job).age, 0) << "not eligible yet: no age";
    s.accrue_always = true;
    EXPECT_DOUBLE_EQ(job_factors(s, f.cluster, t, f.job).age, 0.5) << "ACCRUE_ALWAYS: from submit";
    Settings none;
    EXPECT_EQ(combine(none, x), 1u) << "never below 1 (0 is a held job's)";
}

TEST(Plugin, LoadsAndRanksThroughItsTable) {
    drover::Config conf;
    conf.raw["priorityweightfairshare"] = "1000";
    conf.raw["priorityweightage"] = "10";
    drover::plugin::PluginSet set(conf, "ctld");
    set.load_file(std::string(DROVER_TEST_REAL_PLUGIN_DIR) + "/priority_multifactor.so",
                  "priority/multifactor");
    auto calls = set.priority_calls();
    ASSERT_TRUE(calls);
    EXPECT_TRUE(calls.fair_tree());
    EXPECT_EQ(calls.weights().fairshare, 1000);
    auto t = tree({{kRoot, "root", "", 1, 10}, {0, "a", "u1", 1, 10}, {0, "a", "u2", 1, 0}});
    ASSERT_TRUE(calls.fairshare(t).ok());
    JobFixture f;
    f.job.assoc = 2;
    drover_priority_factors out{};
    EXPECT_EQ(calls.job_priority(f.cluster, t, f.job, &out), 1000u);
    EXPECT_DOUBLE_EQ(out.fairshare, 1.0);
    f.job.assoc = 1;
    EXPECT_EQ(calls.job_priority(f.cluster, t, f.job, nullptr), 500u);

    drover::Config bad;
    bad.raw["priorityflags"] = "NOPE";
    drover::plugin::PluginSet set2(bad, "ctld");
    try {
        set2.load_file(std::string(DROVER_TEST_REAL_PLUGIN_DIR) + "/priority_multifactor.so",
                       "priority/multifactor");
        ADD_FAILURE() << "a bad PriorityFlags must stop the plugin";
    } catch (const drover::plugin::LoadError &e) {
        EXPECT_NE(std::string(e.what()).find("PriorityFlags=NOPE: unknown flag NOPE"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
