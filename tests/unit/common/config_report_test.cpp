// config_report_test.cpp - `scontrol show config`'s lines: Slurm 23.11's keys in its order, with
// its units and defaults for what Drover does not read, Drover's values for what it does, and the
// keys whose name or presence depends on the configuration.
#include <algorithm>
#include <optional>
#include <string>
#include <gtest/gtest.h>

#include "common/config.hpp"
#include "common/config_report.hpp"

namespace drover {
namespace {

const char *kBase = "ClusterName=c\nSlurmctldHost=head\nNodeName=n[1-3] CPUs=2\n"
                    "PartitionName=p Nodes=n[1-3]\n";

std::vector<ConfigLine> report(const std::string &extra = "") {
    return config_report(parse_config(std::string(kBase) + extra, "/etc/slurm/slurm.conf"),
                         ConfigFacts{});
}

std::optional<std::string> value(const std::vector<ConfigLine> &lines, const std::string &key) {
    for (const auto &[k, v] : lines)
        if (k == key) return v;
    return std::nullopt;
}

std::ptrdiff_t position(const std::vector<ConfigLine> &lines, const std::string &key) {
    auto it =
        std::find_if(lines.begin(), lines.end(), [&](const auto &l) { return l.first == key; });
    return it == lines.end() ? -1 : it - lines.begin();
}

TEST(ConfigReport, SlurmDefaultsWithTheirUnits) {
    auto lines = report();
    EXPECT_EQ(value(lines, "SchedulerTimeSlice"), "30 sec");
    EXPECT_EQ(value(lines, "AcctGatherNodeFreq"), "0 sec");
    EXPECT_EQ(value(lines, "MinJobAge"), "300 sec");
    EXPECT_EQ(value(lines, "OverTimeLimit"), "0 min");
    EXPECT_EQ(value(lines, "MaxArraySize"), "1001");
    EXPECT_EQ(value(lines, "EnforcePartLimits"), "NO");
    EXPECT_EQ(value(lines, "InactiveLimit"), "0 sec");
    EXPECT_EQ(value(lines, "MessageTimeout"), "10 sec");
    EXPECT_EQ(value(lines, "KillWait"), "30 sec");
    EXPECT_EQ(value(lines, "MpiDefault"), "none");
    EXPECT_EQ(value(lines, "JobAcctGatherFrequency"), "30");
    EXPECT_EQ(value(lines, "PreemptType"), "(null)");
    EXPECT_EQ(value(lines, "TaskPlugin"), "(null)");
    EXPECT_EQ(value(lines, "TaskPluginParam"), "(null type)");
    EXPECT_EQ(value(lines, "DefMemPerNode"), "UNLIMITED");
    EXPECT_EQ(value(lines, "MaxNodeCount"), "3");
    EXPECT_EQ(value(lines, "MaxDBDMsgs"), "20012"); // 2 * MaxJobCount + 4 * nodes
    EXPECT_EQ(value(lines, "PlugStackConfig"), "/etc/slurm/plugstack.conf");
    EXPECT_EQ(value(lines, "SlurmctldHost[0]"), "head");
}

TEST(ConfigReport, SlurmOrderWithDroverLinesBesideTheirNeighbours) {
    auto lines = report();
    EXPECT_EQ(lines.front().first, "AccountingStorageBackupHost");
    EXPECT_EQ(lines.back().first, "AccountingRecordsWaiting");
    EXPECT_LT(position(lines, "AcctGatherNodeFreq"), position(lines, "BOOT_TIME"));
    EXPECT_LT(position(lines, "MaxArraySize"), position(lines, "MinJobAge"));
    EXPECT_LT(position(lines, "SchedulerTimeSlice"), position(lines, "SelectType"));
    EXPECT_EQ(position(lines, "DroverVersion"), position(lines, "SLURM_VERSION") + 1);
    EXPECT_EQ(position(lines, "StateSaveMaxSize"), position(lines, "StateSaveLocation") + 1);
    for (const auto &[k, v] : lines) EXPECT_FALSE(v.empty()) << k;
}

TEST(ConfigReport, ValuesFromTheFile) {
    auto lines = report("MinJobAge=60\nMaxArraySize=5000\nKillWait=5\nMessageTimeout=20\n"
                        "MpiDefault=pmi2\nJobAcctGatherFrequency=task=10\nTreeWidth=3\n"
                        "DefMemPerCPU=512\nSlurmctldHost=backup(10.0.0.2)\n");
    EXPECT_EQ(value(lines, "MinJobAge"), "60 sec");
    EXPECT_EQ(value(lines, "MaxArraySize"), "5000");
    EXPECT_EQ(value(lines, "KillWait"), "5 sec");
    EXPECT_EQ(value(lines, "MessageTimeout"), "20 sec");
    EXPECT_EQ(value(lines, "MpiDefault"), "pmi2");
    EXPECT_EQ(value(lines, "JobAcctGatherFrequency"), "task=10");
    EXPECT_EQ(value(lines, "TreeWidth"), "3");
    EXPECT_EQ(value(lines, "DefMemPerCPU"), "512");
    EXPECT_EQ(value(lines, "DefMemPerNode"), std::nullopt);
    EXPECT_EQ(value(lines, "SlurmctldHost[1]"), "backup(10.0.0.2)");
}

// Drover does not read these: Slurm's default shows, not a value Drover would not act on.
TEST(ConfigReport, KeysDroverDoesNotReadKeepSlurmsDefault) {
    auto lines = report("SchedulerTimeSlice=60\nOverTimeLimit=5\n");
    EXPECT_EQ(value(lines, "SchedulerTimeSlice"), "30 sec");
    EXPECT_EQ(value(lines, "OverTimeLimit"), "0 min");
}

TEST(ConfigReport, SelectTypeParameters) {
    EXPECT_EQ(value(report("SelectType=select/linear\n"), "SelectTypeParameters"), std::nullopt);
    EXPECT_EQ(value(report("SelectType=select/cons_tres\n"), "SelectTypeParameters"),
              "CR_CORE_MEMORY");
    EXPECT_EQ(value(report("SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"),
                    "SelectTypeParameters"),
              "CR_CORE");
}

TEST(ConfigReport, RunTimeFacts) {
    ConfigFacts f;
    f.slurm_uid = 64030;
    f.store_map_mb = 32768;
    f.store_used_mb = 12;
    f.acct_waiting = 4;
    auto lines =
        config_report(parse_config(std::string(kBase) + "SlurmUser=slurm\n", "slurm.conf"), f);
    EXPECT_EQ(value(lines, "SlurmUser"), "slurm(64030)");
    EXPECT_EQ(value(lines, "StateSaveMaxSize"), "32768M (12M used)");
    EXPECT_EQ(value(lines, "AccountingRecordsWaiting"), "4");
}

} // namespace
} // namespace drover
