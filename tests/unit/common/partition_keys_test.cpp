// partition_keys_test.cpp - a partition's keys as slurm.conf, scontrol and the controller's
// partition records read them: each key, UNLIMITED, bad values refused in the parser's words,
// scontrol's abbreviations, and settings that read back as they were.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "common/partition_keys.hpp"
#include "common/timefmt.hpp"

namespace drover {
namespace {

// The setting after one key, from the defaults.
PartitionConf with(std::string_view key, const std::string &value) {
    PartitionConf p;
    EXPECT_TRUE(set_partition_key(p, "partition p", key, value)) << key;
    return p;
}

// What set_partition_key refuses value for key with.
std::string refusal(std::string_view key, const std::string &value) {
    PartitionConf p;
    try {
        set_partition_key(p, "partition p", key, value);
    } catch (const ParseError &e) {
        return e.what();
    }
    return "accepted";
}

TEST(PartitionKeys, EachKey) {
    EXPECT_EQ(with("Nodes", " n[1-2] ").nodes_expr, "n[1-2]");
    EXPECT_TRUE(with("Default", "YES").is_default);
    EXPECT_FALSE(with("default", "no").is_default);
    EXPECT_EQ(with("State", "drain").state, "DRAIN");
    EXPECT_EQ(with("STATE", "Inactive").state, "INACTIVE");
    EXPECT_EQ(with("MaxTime", "1-00:00:00").max_time_min, 1440u);
    EXPECT_EQ(with("MaxTime", "UNLIMITED").max_time_min, kInfinite);
    EXPECT_EQ(with("MaxTime", "infinite").max_time_min, kInfinite);
    EXPECT_EQ(with("DefaultTime", "30").default_time_min, 30u);
    EXPECT_EQ(with("MaxNodes", "UNLIMITED").max_nodes, kInfinite);
    EXPECT_EQ(with("MaxNodes", "4").max_nodes, 4u);
    EXPECT_EQ(with("MinNodes", "2").min_nodes, 2u);
    EXPECT_EQ(with("AllowGroups", "wheel, staff").allow_groups,
              (std::vector<std::string>{"wheel", "staff"}));
    EXPECT_TRUE(with("AllowGroups", "ALL").allow_groups.empty());
    EXPECT_EQ(with("AllowAccounts", "physics").allow_accounts,
              (std::vector<std::string>{"physics"}));
    EXPECT_TRUE(with("AllowAccounts", "all").allow_accounts.empty());
    EXPECT_EQ(with("OverSubscribe", "force:4").oversubscribe, "FORCE:4");
    EXPECT_EQ(with("Shared", "YES").oversubscribe, "YES");
    EXPECT_EQ(with("QOS", "High").qos, "high");
    EXPECT_EQ(with("PreemptMode", "requeue").preempt_mode, "REQUEUE");
    EXPECT_EQ(with("PriorityTier", "5").priority_tier, 5u);
    EXPECT_EQ(with("PriorityJobFactor", "7").priority_job_factor, 7u);
    PartitionConf both = with("Priority", "3");
    EXPECT_EQ(both.priority_tier, 3u);
    EXPECT_EQ(both.priority_job_factor, 3u);
}

TEST(PartitionKeys, PowerSaving) {
    EXPECT_EQ(with("SuspendTime", "600").suspend_time, 600);
    EXPECT_EQ(with("SuspendTime", "0").suspend_time, 0);
    for (const char *v : {"INFINITE", "none", "-1"})
        EXPECT_EQ(with("SuspendTime", v).suspend_time, kPowerInfinite) << v;
    EXPECT_EQ(with("suspendtime", "global").suspend_time, kPowerGlobal);
    EXPECT_EQ(with("SuspendTimeout", "0").suspend_timeout, 0);
    EXPECT_EQ(with("SuspendTimeout", "GLOBAL").suspend_timeout, kPowerGlobal);
    EXPECT_EQ(with("ResumeTimeout", "900").resume_timeout, 900);
    EXPECT_EQ(with("ResumeTimeout", "Global").resume_timeout, kPowerGlobal);
    EXPECT_TRUE(with("PowerDownOnIdle", "yes").power_down_on_idle);
    EXPECT_FALSE(with("PowerDownOnIdle", "NO").power_down_on_idle);
    PartitionConf plain;
    EXPECT_EQ(plain.suspend_time, kPowerGlobal);
    EXPECT_EQ(plain.suspend_timeout, kPowerGlobal);
    EXPECT_EQ(plain.resume_timeout, kPowerGlobal);
    EXPECT_FALSE(plain.power_down_on_idle);
}

TEST(PartitionKeys, PowerSavingRefusals) {
    EXPECT_EQ(refusal("SuspendTime", "-2"),
              "partition p: bad value for SuspendTime: '-2' (expected seconds, INFINITE, NONE, -1 "
              "or GLOBAL)");
    EXPECT_NE(refusal("SuspendTime", "UNLIMITED").find("bad value for SuspendTime"),
              std::string::npos);
    EXPECT_EQ(refusal("ResumeTimeout", "0"),
              "partition p: bad value for ResumeTimeout: '0' (expected seconds from 1 to 65533, or "
              "GLOBAL)");
    EXPECT_EQ(refusal("SuspendTimeout", "INFINITE"),
              "partition p: bad value for SuspendTimeout: 'INFINITE' (expected seconds from 0 to "
              "65533, or GLOBAL)");
    EXPECT_EQ(refusal("SuspendTimeout", "65534").find("partition p: bad value for SuspendTimeout"),
              0u);
    EXPECT_EQ(refusal("PowerDownOnIdle", "sometimes"),
              "partition p: bad value for PowerDownOnIdle: 'sometimes' (expected YES or NO)");
}

TEST(PartitionKeys, OtherKeysAreNotTheirs) {
    PartitionConf p;
    EXPECT_FALSE(set_partition_key(p, "partition p", "Hidden", "YES"));
    EXPECT_FALSE(set_partition_key(p, "partition p", "PartitionName", "x"));
    EXPECT_FALSE(set_partition_key(p, "partition p", "MaxT", "5")) << "slurm.conf spells keys out";
    EXPECT_EQ(p.name, "");
    EXPECT_EQ(p.max_time_min, kInfinite);
}

TEST(PartitionKeys, BadValuesAreRefusedInTheParsersWords) {
    EXPECT_EQ(refusal("State", "SLEEPY"),
              "partition p: bad value for State: 'SLEEPY' (expected UP, DOWN, DRAIN or INACTIVE)");
    EXPECT_EQ(refusal("Default", "maybe"),
              "partition p: bad value for Default: 'maybe' (expected YES or NO)");
    EXPECT_EQ(refusal("MinNodes", "two"),
              "partition p: bad value for MinNodes: 'two' (expected a number)");
    EXPECT_EQ(refusal("PriorityTier", "70000"),
              "partition p: bad value for PriorityTier: '70000' (expected a number from 0 to "
              "65533)");
    EXPECT_NE(refusal("OverSubscribe", "SOMETIMES").find("expected NO, YES, EXCLUSIVE or FORCE"),
              std::string::npos);
    EXPECT_NE(refusal("OverSubscribe", "YES:0").find("bad value for OverSubscribe"),
              std::string::npos);
    EXPECT_TRUE(refusal("MaxTime", "soon").starts_with("partition p: MaxTime: "));
    EXPECT_TRUE(refusal("MaxNodes", "many").starts_with("partition p: bad value for MaxNodes"));
    EXPECT_TRUE(refusal("PreemptMode", "sometimes").starts_with("partition p: bad value for"));
}

TEST(PartitionKeys, ScontrolSpellings) {
    EXPECT_EQ(scontrol_partition_key("PartitionName"), "PartitionName");
    EXPECT_EQ(scontrol_partition_key("pa"), "PartitionName");
    // Slurm's scontrol reads one letter P as PowerDownOnIdle (PartitionName needs two).
    EXPECT_EQ(scontrol_partition_key("p"), "PowerDownOnIdle");
    EXPECT_EQ(scontrol_partition_key("PowerDown"), "PowerDownOnIdle");
    EXPECT_EQ(scontrol_partition_key("Pr"), "") << "neither PreemptMode nor Priority";
    // Slurm's scontrol does not take these (slurm.conf only); Drover takes them spelled out.
    EXPECT_EQ(scontrol_partition_key("SuspendTime"), "SuspendTime");
    EXPECT_EQ(scontrol_partition_key("suspendtimeout"), "SuspendTimeout");
    EXPECT_EQ(scontrol_partition_key("ResumeTimeout"), "ResumeTimeout");
    EXPECT_EQ(scontrol_partition_key("SuspendT"), "");
    EXPECT_EQ(scontrol_partition_key("Resume"), "");
    EXPECT_EQ(scontrol_partition_key("MaxT"), "MaxTime");
    EXPECT_EQ(scontrol_partition_key("Max"), "");
    EXPECT_EQ(scontrol_partition_key("DefaultTime"), "DefaultTime");
    EXPECT_EQ(scontrol_partition_key("default"), "Default");
    EXPECT_EQ(scontrol_partition_key("Shared"), "OverSubscribe");
    EXPECT_EQ(scontrol_partition_key("overs"), "OverSubscribe");
    EXPECT_EQ(scontrol_partition_key("Pri"), "Priority") << "Slurm reads Pri as Priority";
    EXPECT_EQ(scontrol_partition_key("PriorityT"), "PriorityTier");
    EXPECT_EQ(scontrol_partition_key("st"), "State");
    EXPECT_EQ(scontrol_partition_key("N"), "Nodes");
    EXPECT_EQ(scontrol_partition_key("AllowAcc"), "AllowAccounts");
    EXPECT_EQ(scontrol_partition_key("qos"), "QOS");
    // Slurm keys Drover has no setting for, and their abbreviations.
    EXPECT_EQ(scontrol_partition_key("Hidden"), "");
    EXPECT_EQ(scontrol_partition_key("MaxCPUsPerNode"), "");
    EXPECT_EQ(scontrol_partition_key("D"), "") << "DisableRootJobs";
    EXPECT_EQ(scontrol_partition_key("Color"), "");
    EXPECT_EQ(scontrol_partition_key("NodesX"), "") << "longer than the key";
}

// Every canonical key scontrol sends is one set_partition_key takes.
TEST(PartitionKeys, ScontrolKeysAreSettings) {
    for (std::string_view word :
         {"MaxTime", "DefaultTime", "MaxNodes", "MinNodes", "Default", "OverSubscribe",
          "PreemptMode", "Priority", "PriorityJobFactor", "PriorityTier", "State", "Nodes",
          "AllowGroups", "AllowAccounts", "QOS", "PowerDownOnIdle", "SuspendTime", "SuspendTimeout",
          "ResumeTimeout"}) {
        std::string_view key = scontrol_partition_key(word);
        ASSERT_EQ(key, word);
        PartitionConf p;
        const std::string value = key == "State"             ? "UP"
                                  : key == "Default"         ? "NO"
                                  : key == "OverSubscribe"   ? "NO"
                                  : key == "PreemptMode"     ? "OFF"
                                  : key == "PowerDownOnIdle" ? "YES"
                                                             : "1";
        EXPECT_TRUE(set_partition_key(p, "p", key, value)) << key;
    }
}

TEST(PartitionKeys, SettingsReadBack) {
    PartitionConf p;
    for (const auto &[k, v] :
         std::vector<std::pair<std::string, std::string>>{{"Nodes", "n[1-3]"},
                                                          {"Default", "YES"},
                                                          {"State", "DOWN"},
                                                          {"MaxTime", "120"},
                                                          {"DefaultTime", "UNLIMITED"},
                                                          {"MaxNodes", "2"},
                                                          {"MinNodes", "1"},
                                                          {"AllowGroups", "wheel,staff"},
                                                          {"AllowAccounts", "physics"},
                                                          {"OverSubscribe", "YES:2"},
                                                          {"QOS", "high"},
                                                          {"PreemptMode", "CANCEL"},
                                                          {"PriorityTier", "4"},
                                                          {"PriorityJobFactor", "9"},
                                                          {"SuspendTime", "INFINITE"},
                                                          {"SuspendTimeout", "0"},
                                                          {"ResumeTimeout", "900"},
                                                          {"PowerDownOnIdle", "YES"}})
        ASSERT_TRUE(set_partition_key(p, "p", k, v));
    PartitionConf back;
    for (const auto &[k, v] : partition_settings(p))
        ASSERT_TRUE(set_partition_key(back, "p", k, v));
    EXPECT_EQ(back.nodes_expr, "n[1-3]");
    EXPECT_TRUE(back.is_default);
    EXPECT_EQ(back.state, "DOWN");
    EXPECT_EQ(back.max_time_min, 120u);
    EXPECT_EQ(back.default_time_min, kInfinite);
    EXPECT_EQ(back.max_nodes, 2u);
    EXPECT_EQ(back.min_nodes, 1u);
    EXPECT_EQ(back.allow_groups, p.allow_groups);
    EXPECT_EQ(back.allow_accounts, p.allow_accounts);
    EXPECT_EQ(back.oversubscribe, "YES:2");
    EXPECT_EQ(back.qos, "high");
    EXPECT_EQ(back.preempt_mode, "CANCEL");
    EXPECT_EQ(back.priority_tier, 4u);
    EXPECT_EQ(back.priority_job_factor, 9u);
    EXPECT_EQ(back.suspend_time, kPowerInfinite);
    EXPECT_EQ(back.suspend_timeout, 0);
    EXPECT_EQ(back.resume_timeout, 900);
    EXPECT_TRUE(back.power_down_on_idle);
    PartitionConf secs;
    ASSERT_TRUE(set_partition_key(secs, "p", "SuspendTime", "120"));
    PartitionConf secs_back;
    for (const auto &[k, v] : partition_settings(secs))
        ASSERT_TRUE(set_partition_key(secs_back, "p", k, v));
    EXPECT_EQ(secs_back.suspend_time, 120);
    // The defaults read back as defaults (no DefaultTime, no PreemptMode of its own).
    PartitionConf plain, plain_back;
    for (const auto &[k, v] : partition_settings(plain))
        ASSERT_TRUE(set_partition_key(plain_back, "p", k, v));
    EXPECT_EQ(plain_back.default_time_min, kNoVal);
    EXPECT_EQ(plain_back.preempt_mode, "");
    EXPECT_EQ(plain_back.max_time_min, kInfinite);
    EXPECT_EQ(plain_back.max_nodes, kInfinite);
    EXPECT_TRUE(plain_back.allow_groups.empty());
    EXPECT_EQ(plain_back.suspend_time, kPowerGlobal);
    EXPECT_EQ(plain_back.suspend_timeout, kPowerGlobal);
    EXPECT_EQ(plain_back.resume_timeout, kPowerGlobal);
    EXPECT_FALSE(plain_back.power_down_on_idle);
    // The power saving times are written only when the partition has its own.
    for (const auto &[k, v] : partition_settings(plain)) {
        EXPECT_NE(k, "SuspendTime");
        EXPECT_NE(k, "ResumeTimeout");
    }
}

} // namespace
} // namespace drover
