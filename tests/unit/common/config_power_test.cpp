// config_power_test.cpp - slurm.conf's power saving keys: each key and its default, SuspendTime's
// INFINITE forms, SuspendExcNodes' sets and counts, the options of SlurmctldParameters,
// CommunicationParameters and ReconfigFlags, a partition's own times, the values refused, and
// how scontrol show config shows them.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "common/config.hpp"
#include "common/config_report.hpp"
#include "common/error.hpp"
#include "common/power_conf.hpp"

namespace drover {
namespace {

const char *kNodes = "NodeName=n[1-4] CPUs=2\n";

Config parse(const std::string &text) {
    return parse_config(std::string(kNodes) + text, "slurm.conf");
}

const PowerSaveConf &power(const Config &c) {
    return c.power;
}

// The error a line gives, or "(no error)".
std::string error_of(const std::string &text) {
    try {
        parse(text);
    } catch (const ParseError &e) {
        return e.what();
    }
    return "(no error)";
}

std::optional<std::string> shown(const std::string &text, const std::string &key) {
    for (const auto &[k, v] : config_report(parse(text), ConfigFacts{}))
        if (k == key) return v;
    return std::nullopt;
}

TEST(ConfigPower, Defaults) {
    Config c = parse("");
    const PowerSaveConf &p = power(c);
    EXPECT_EQ(p.suspend_program, "");
    EXPECT_EQ(p.resume_program, "");
    EXPECT_EQ(p.resume_fail_program, "");
    EXPECT_EQ(p.suspend_time, kPowerInfinite);
    EXPECT_EQ(p.suspend_timeout, 30u);
    EXPECT_EQ(p.resume_timeout, 60u);
    EXPECT_EQ(p.resume_rate, 300u);
    EXPECT_EQ(p.suspend_rate, 60u);
    EXPECT_EQ(p.exc_nodes, "");
    EXPECT_TRUE(p.exc_parts.empty());
    EXPECT_TRUE(p.exc_states.empty());
    EXPECT_EQ(p.batch_start_timeout, 10u);
    EXPECT_EQ(p.interval, 10u);
    EXPECT_EQ(p.min_interval, 0u);
    EXPECT_FALSE(p.idle_on_node_suspend || p.cloud_reg_addrs || p.cloud_dns);
    EXPECT_FALSE(p.no_addr_cache);
    EXPECT_FALSE(p.keep_power_save_settings);
    EXPECT_FALSE(power_save_enabled(c));
    EXPECT_TRUE(c.warnings.empty());
}

TEST(ConfigPower, EachKey) {
    Config c = parse("SuspendProgram=/sbin/node-off\nResumeProgram=\"/sbin/node on\"\n"
                     "ResumeFailProgram=/sbin/node-failed\nSuspendTime=600 SuspendTimeout=45\n"
                     "ResumeTimeout=300 ResumeRate=0 SuspendRate=20 BatchStartTimeout=30\n"
                     "SuspendExcNodes=n[1-2]:1,n4 SuspendExcParts=debug,gpu\n"
                     "SuspendExcStates=down,Drain,CLOUD\n");
    const PowerSaveConf &p = power(c);
    EXPECT_EQ(p.suspend_program, "/sbin/node-off");
    EXPECT_EQ(p.resume_program, "/sbin/node on");
    EXPECT_EQ(p.resume_fail_program, "/sbin/node-failed");
    EXPECT_EQ(p.suspend_time, 600);
    EXPECT_EQ(p.suspend_timeout, 45u);
    EXPECT_EQ(p.resume_timeout, 300u);
    EXPECT_EQ(p.resume_rate, 0u) << "0: no limit";
    EXPECT_EQ(p.suspend_rate, 20u);
    EXPECT_EQ(p.batch_start_timeout, 30u);
    EXPECT_EQ(p.exc_nodes, "n[1-2]:1,n4");
    EXPECT_EQ(p.exc_parts, (std::vector<std::string>{"debug", "gpu"}));
    EXPECT_EQ(p.exc_states, (std::vector<std::string>{"DOWN", "DRAIN", "CLOUD"}));
    EXPECT_TRUE(power_save_enabled(c));
    EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
    // The raw map keeps what was written, as for every key.
    EXPECT_EQ(c.raw.at("suspendexcstates"), "down,Drain,CLOUD");
    EXPECT_EQ(c.raw.at("resumetimeout"), "300");
}

TEST(ConfigPower, SuspendTimeInfiniteForms) {
    for (const char *v : {"INFINITE", "infinite", "NONE", "none", "-1"})
        EXPECT_EQ(power(parse(std::string("SuspendTime=") + v + "\n")).suspend_time, kPowerInfinite)
            << v;
    EXPECT_EQ(power(parse("SuspendTime=0\n")).suspend_time, 0) << "powered down once idle";
    EXPECT_TRUE(power_save_enabled(parse("SuspendTime=0\n")));
    EXPECT_EQ(error_of("SuspendTime=-5\n"),
              "slurm.conf:2: bad value for SuspendTime: '-5' (expected seconds, INFINITE, NONE or "
              "-1)");
    EXPECT_NE(error_of("SuspendTime=soon\n").find("bad value for SuspendTime"), std::string::npos);
    EXPECT_NE(error_of("SuspendTime=GLOBAL\n").find("bad value for SuspendTime"), std::string::npos)
        << "GLOBAL is a partition's";
}

TEST(ConfigPower, RefusedNumbers) {
    EXPECT_EQ(error_of("ResumeTimeout=0\n"),
              "slurm.conf:2: bad value for ResumeTimeout: '0' (expected seconds from 1 to 65533)");
    EXPECT_NE(error_of("ResumeTimeout=70000\n").find("bad value for ResumeTimeout"),
              std::string::npos);
    EXPECT_EQ(power(parse("SuspendTimeout=0\n")).suspend_timeout, 0u) << "Slurm shows NONE";
    EXPECT_NE(error_of("SuspendTimeout=-1\n").find("(expected seconds from 0 to 65533)"),
              std::string::npos);
    EXPECT_EQ(error_of("ResumeRate=fast\n"),
              "slurm.conf:2: bad value for ResumeRate: 'fast' (expected a number)");
    EXPECT_NE(error_of("SuspendRate=65534\n").find("expected a number from 0 to 65533"),
              std::string::npos);
    EXPECT_NE(error_of("BatchStartTimeout=x\n").find("bad value for BatchStartTimeout"),
              std::string::npos);
}

TEST(ConfigPower, SuspendExcNodesSets) {
    using Sets = std::vector<std::pair<std::string, uint32_t>>;
    EXPECT_EQ(suspend_exc_node_sets("n[1-8]:2,m1"), (Sets{{"n[1-8]", 2}, {"m1", 0}}));
    // A comma inside brackets belongs to the hostlist.
    EXPECT_EQ(suspend_exc_node_sets("n[1,3-5]:2,g[01-02,07]"),
              (Sets{{"n[1,3-5]", 2}, {"g[01-02,07]", 0}}));
    EXPECT_EQ(suspend_exc_node_sets("a1, b2:3 ,"), (Sets{{"a1", 0}, {"b2", 3}}));
    EXPECT_EQ(suspend_exc_node_sets("rack[1-2]-n[1-4]:1"), (Sets{{"rack[1-2]-n[1-4]", 1}}));
    EXPECT_TRUE(suspend_exc_node_sets("").empty());
    for (const char *bad : {"n[1-4]:0", "n1:x", "n1:", ":2", "a:b:2", "n[1-2]:3:4", "n[1-4",
                            "n[4-1]", "n1]", "n[1:2]"})
        EXPECT_THROW(suspend_exc_node_sets(bad), ParseError) << bad;

    EXPECT_EQ(power(parse("SuspendExcNodes= n[1,3]:1 \n")).exc_nodes, "n[1,3]:1");
    std::string e = error_of("SuspendExcNodes=n[1-4]:0\n");
    EXPECT_TRUE(e.starts_with("slurm.conf:2: bad value for SuspendExcNodes: 'n[1-4]:0' (expected "
                              "hostlists, each with an optional :count: "))
        << e;
    EXPECT_NE(error_of("SuspendExcNodes=n[1-4\n").find("bad value for SuspendExcNodes"),
              std::string::npos);
}

TEST(ConfigPower, SuspendExcStates) {
    Config c = parse("SuspendExcStates=cloud,DOWN,drain,dynamic_future,dynamic_norm,fail,"
                     "invalid_reg,maintenance,not_responding,perfctrs,planned,reserved\n");
    EXPECT_EQ(power(c).exc_states.size(), 12u);
    EXPECT_EQ(power(c).exc_states.front(), "CLOUD");
    EXPECT_EQ(power(c).exc_states.back(), "RESERVED");
    std::string e = error_of("SuspendExcStates=DOWN,IDLE\n");
    EXPECT_TRUE(e.starts_with("slurm.conf:2: bad value for SuspendExcStates: 'DOWN,IDLE' ('IDLE': "
                              "expected a comma list of CLOUD, DOWN, DRAIN, "))
        << e;
    EXPECT_TRUE(e.ends_with("PLANNED or RESERVED)")) << e;
}

TEST(ConfigPower, SlurmctldParameters) {
    const PowerSaveConf p =
        power(parse("SlurmctldParameters=enable_configless,power_save_interval=30,"
                    "power_save_min_interval=5,IDLE_ON_NODE_SUSPEND,cloud_reg_addrs,cloud_dns\n"));
    EXPECT_EQ(p.interval, 30u);
    EXPECT_EQ(p.min_interval, 5u);
    EXPECT_TRUE(p.idle_on_node_suspend && p.cloud_reg_addrs && p.cloud_dns);
    // A later line replaces an earlier one, as for every key.
    const PowerSaveConf again = power(parse("SlurmctldParameters=power_save_interval=30,cloud_dns\n"
                                            "SlurmctldParameters=idle_on_node_suspend\n"));
    EXPECT_EQ(again.interval, 10u);
    EXPECT_FALSE(again.cloud_dns);
    EXPECT_TRUE(again.idle_on_node_suspend);
    EXPECT_TRUE(parse("SlurmctldParameters=enable_configless\n").warnings.empty());
    EXPECT_EQ(parse("SlurmctldParameters=enable_configless\n").raw.at("slurmctldparameters"),
              "enable_configless");
    EXPECT_EQ(error_of("SlurmctldParameters=power_save_interval=0\n"),
              "slurm.conf:2: bad value for SlurmctldParameters: 'power_save_interval=0' "
              "(power_save_interval: expected a number of seconds, at least 1)");
    EXPECT_NE(error_of("SlurmctldParameters=power_save_min_interval\n")
                  .find("(power_save_min_interval: expected a number of seconds)"),
              std::string::npos);
    EXPECT_NE(error_of("SlurmctldParameters=power_save_interval=ten\n").find("bad value"),
              std::string::npos);
}

TEST(ConfigPower, CommunicationParametersAndReconfigFlags) {
    EXPECT_TRUE(
        power(parse("CommunicationParameters=block_null_hash,noaddrcache\n")).no_addr_cache);
    EXPECT_FALSE(power(parse("CommunicationParameters=EnableIPv6\n")).no_addr_cache);
    EXPECT_TRUE(power(parse("ReconfigFlags=KeepPartState,keeppowersavesettings\n"))
                    .keep_power_save_settings);
    Config other = parse("ReconfigFlags=KeepPartInfo,KeepNodeStateFuture\n");
    EXPECT_FALSE(power(other).keep_power_save_settings);
    EXPECT_TRUE(other.warnings.empty());
    EXPECT_EQ(error_of("ReconfigFlags=KeepEverything\n"),
              "slurm.conf:2: bad value for ReconfigFlags: 'KeepEverything' (expected a comma list "
              "of KeepPartInfo, KeepPartState, KeepPowerSaveSettings or KeepNodeStateFuture)");
}

TEST(ConfigPower, PartitionKeysInSlurmConf) {
    Config c = parse("PartitionName=DEFAULT SuspendTimeout=90\n"
                     "PartitionName=cloud Nodes=n[1-2] SuspendTime=300 ResumeTimeout=600 "
                     "PowerDownOnIdle=YES\n"
                     "PartitionName=never Nodes=n3 SuspendTime=INFINITE SuspendTimeout=GLOBAL\n"
                     "PartitionName=plain Nodes=n4\n");
    const PartitionConf *cloud = c.find_partition("cloud");
    ASSERT_NE(cloud, nullptr);
    EXPECT_EQ(cloud->suspend_time, 300);
    EXPECT_EQ(cloud->suspend_timeout, 90) << "from PartitionName=DEFAULT";
    EXPECT_EQ(cloud->resume_timeout, 600);
    EXPECT_TRUE(cloud->power_down_on_idle);
    const PartitionConf *never = c.find_partition("never");
    EXPECT_EQ(never->suspend_time, kPowerInfinite);
    EXPECT_EQ(never->suspend_timeout, kPowerGlobal);
    const PartitionConf *plain = c.find_partition("plain");
    EXPECT_EQ(plain->suspend_time, kPowerGlobal);
    EXPECT_EQ(plain->resume_timeout, kPowerGlobal);
    EXPECT_FALSE(plain->power_down_on_idle);
    EXPECT_TRUE(c.warnings.empty());
    // A partition's own SuspendTime turns power saving on; INFINITE or none does not.
    EXPECT_TRUE(power_save_enabled(c));
    EXPECT_FALSE(power_save_enabled(parse("PartitionName=p Nodes=n1 SuspendTime=-1\n")));
    EXPECT_NE(
        error_of("PartitionName=p Nodes=n1 SuspendTime=-7\n").find("bad value for SuspendTime"),
        std::string::npos);
    EXPECT_NE(error_of("PartitionName=p Nodes=n1 PowerDownOnIdle=maybe\n")
                  .find("bad value for PowerDownOnIdle"),
              std::string::npos);
}

TEST(ConfigPower, ShowConfigDefaults) {
    EXPECT_EQ(shown("", "SuspendProgram"), "(null)");
    EXPECT_EQ(shown("", "ResumeProgram"), "(null)");
    EXPECT_EQ(shown("", "ResumeFailProgram"), "(null)");
    EXPECT_EQ(shown("", "SuspendTime"), "INFINITE");
    EXPECT_EQ(shown("", "SuspendTimeout"), "30 sec");
    EXPECT_EQ(shown("", "ResumeTimeout"), "60 sec");
    EXPECT_EQ(shown("", "ResumeRate"), "300 nodes/min");
    EXPECT_EQ(shown("", "SuspendRate"), "60 nodes/min");
    EXPECT_EQ(shown("", "SuspendExcNodes"), "(null)");
    EXPECT_EQ(shown("", "SuspendExcParts"), "(null)");
    EXPECT_EQ(shown("", "SuspendExcStates"), "(null)");
    EXPECT_EQ(shown("", "BatchStartTimeout"), "10 sec");
    EXPECT_EQ(shown("", "SlurmctldParameters"), "(null)");
    EXPECT_EQ(shown("", "CommunicationParameters"), "(null)");
    EXPECT_EQ(shown("", "ReconfigFlags"), "(null)");
}

TEST(ConfigPower, ShowConfigValues) {
    const std::string text =
        "SuspendProgram=/sbin/off ResumeProgram=/sbin/on ResumeFailProgram=/sbin/failed\n"
        "SuspendTime=600 SuspendTimeout=0 ResumeTimeout=300 ResumeRate=0 SuspendRate=20\n"
        "SuspendExcNodes=n[1,3]:1 SuspendExcParts=debug,gpu SuspendExcStates=down,drain\n"
        "BatchStartTimeout=30 SlurmctldParameters=idle_on_node_suspend,cloud_dns\n"
        "CommunicationParameters=NoAddrCache\n"
        "ReconfigFlags=keeppowersavesettings,KEEPPARTINFO\n";
    EXPECT_EQ(shown(text, "SuspendProgram"), "/sbin/off");
    EXPECT_EQ(shown(text, "ResumeProgram"), "/sbin/on");
    EXPECT_EQ(shown(text, "ResumeFailProgram"), "/sbin/failed");
    EXPECT_EQ(shown(text, "SuspendTime"), "600 sec");
    EXPECT_EQ(shown(text, "SuspendTimeout"), "NONE");
    EXPECT_EQ(shown(text, "ResumeTimeout"), "300 sec");
    EXPECT_EQ(shown(text, "ResumeRate"), "0 nodes/min");
    EXPECT_EQ(shown(text, "SuspendRate"), "20 nodes/min");
    EXPECT_EQ(shown(text, "SuspendExcNodes"), "n[1,3]:1");
    EXPECT_EQ(shown(text, "SuspendExcParts"), "debug,gpu");
    EXPECT_EQ(shown(text, "SuspendExcStates"), "DOWN,DRAIN");
    EXPECT_EQ(shown(text, "BatchStartTimeout"), "30 sec");
    EXPECT_EQ(shown(text, "SlurmctldParameters"), "idle_on_node_suspend,cloud_dns");
    EXPECT_EQ(shown(text, "CommunicationParameters"), "NoAddrCache");
    EXPECT_EQ(shown(text, "ReconfigFlags"), "KeepPartInfo,KeepPowerSaveSettings")
        << "Slurm's spelling and order";
    EXPECT_EQ(shown("SuspendTime=NONE\n", "SuspendTime"), "INFINITE");
}

} // namespace
} // namespace drover
