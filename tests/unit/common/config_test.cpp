// config_test.cpp - slurm.conf parsing: keys, node and partition lines, Includes, errors.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "common/config.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover {
namespace {

namespace fs = std::filesystem;

Config parse(const std::string &text) {
    return parse_config(text, "slurm.conf");
}

// The names of a partition's nodes (it keeps their positions in the config's node list).
std::vector<std::string> node_names(const Config &c, const PartitionConf *p) {
    std::vector<std::string> out;
    for (uint32_t i : p->nodes) out.push_back(c.nodes.at(i).name);
    return out;
}

std::string error_of(const std::string &text) {
    try {
        parse(text);
    } catch (const ParseError &e) {
        return e.what();
    }
    return "(no error)";
}

TEST(Config, Defaults) {
    Config c = parse("");
    EXPECT_EQ(c.path, "slurm.conf");
    EXPECT_EQ(c.slurmctld_port, 6817);
    EXPECT_EQ(c.slurmd_port, 6818);
    EXPECT_EQ(c.auth_type, "auth/key");
    EXPECT_TRUE(c.nodes.empty());
    EXPECT_TRUE(c.controllers.empty());
    EXPECT_EQ(c.default_partition(), nullptr);
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_EQ(c.max_script_size, 4194304u);
    EXPECT_EQ(c.state_save_max_size_mb, 32768u);
}

TEST(Config, TopLevelKeys) {
    struct Case {
        std::string line;
        std::function<void(const Config &)> check;
    };
    const Case cases[] = {
        {"ClusterName=Alpha", [](const Config &c) { EXPECT_EQ(c.cluster_name, "alpha"); }},
        {"clustername=beta", [](const Config &c) { EXPECT_EQ(c.cluster_name, "beta"); }},
        {"SlurmctldPort=7000", [](const Config &c) { EXPECT_EQ(c.slurmctld_port, 7000); }},
        {"SlurmctldPort=7000-7004", [](const Config &c) { EXPECT_EQ(c.slurmctld_port, 7000); }},
        {"SlurmdPort=7001", [](const Config &c) { EXPECT_EQ(c.slurmd_port, 7001); }},
        {"StateSaveLocation=/var/s",
         [](const Config &c) { EXPECT_EQ(c.state_save_location, "/var/s"); }},
        {"SlurmdSpoolDir=/var/d", [](const Config &c) { EXPECT_EQ(c.slurmd_spool_dir, "/var/d"); }},
        {"SlurmUser=slurm", [](const Config &c) { EXPECT_EQ(c.slurm_user, "slurm"); }},
        {"AuthType=auth/slurm", [](const Config &c) { EXPECT_EQ(c.auth_type, "auth/key"); }},
        {"AuthType=auth/munge", [](const Config &c) { EXPECT_EQ(c.auth_type, "auth/munge"); }},
        {"AuthInfo=socket=/x,ttl=60",
         [](const Config &c) { EXPECT_EQ(c.auth_info, "socket=/x,ttl=60"); }},
        {"SelectType=select/cons_tres",
         [](const Config &c) { EXPECT_EQ(c.select_type, "select/cons_tres"); }},
        {"SelectTypeParameters=CR_Core_Memory",
         [](const Config &c) { EXPECT_EQ(c.select_type_parameters, "CR_Core_Memory"); }},
        {"SchedulerType=sched/backfill",
         [](const Config &c) { EXPECT_EQ(c.scheduler_type, "sched/backfill"); }},
        {"SchedulerParameters=bf_interval=30,max_job_bf=100",
         [](const Config &c) {
             EXPECT_EQ(c.scheduler_parameters, "bf_interval=30,max_job_bf=100");
             EXPECT_EQ(c.max_script_size, 4194304u); // Slurm's default, 4 MiB
         }},
        {"SchedulerParameters=bf_interval=30,max_script_size=1000",
         [](const Config &c) {
             EXPECT_EQ(c.scheduler_parameters, "bf_interval=30,max_script_size=1000");
             EXPECT_EQ(c.max_script_size, 1000u);
         }},
        {"SchedulerParameters=Max_Script_Size=536870912",
         [](const Config &c) { EXPECT_EQ(c.max_script_size, 536870912u); }},
        {"SchedulerParameters=max_script_size=1000\nSchedulerParameters=bf_interval=30",
         [](const Config &c) {
             EXPECT_EQ(c.max_script_size, 4194304u);
         }}, // the last line wins, whole
        {"StateSaveMaxSize=1", [](const Config &c) { EXPECT_EQ(c.state_save_max_size_mb, 1u); }},
        {"StateSaveMaxSize=2G",
         [](const Config &c) { EXPECT_EQ(c.state_save_max_size_mb, 2048u); }},
        {"AccountingStorageType=accounting_storage/slurmdbd",
         [](const Config &c) {
             EXPECT_EQ(c.accounting_storage_type, "accounting/lmdb"); // the controller's own
             ASSERT_EQ(c.warnings.size(), 1u);
             EXPECT_NE(c.warnings[0].find("no slurmdbd is needed"), std::string::npos);
         }},
        {"AccountingStorageType=accounting_storage/none",
         [](const Config &c) { EXPECT_EQ(c.accounting_storage_type, ""); }}, // no accounting
        {"AccountingStorageType=accounting/none",
         [](const Config &c) { EXPECT_EQ(c.accounting_storage_type, ""); }},
        {"AccountingStorageType=accounting/lmdb",
         [](const Config &c) { EXPECT_EQ(c.accounting_storage_type, "accounting/lmdb"); }},
        {"SwitchType=switch/none",
         [](const Config &c) { EXPECT_EQ(c.switch_type, "switch/none"); }},
        {"ProctrackType=proctrack/cgroup",
         [](const Config &c) { EXPECT_EQ(c.proctrack_type, "proctrack/cgroup"); }},
        {"PluginDir=/usr/lib/drover",
         [](const Config &c) { EXPECT_EQ(c.plugin_dir, "/usr/lib/drover"); }},
        {"TreeWidth=16", [](const Config &c) { EXPECT_EQ(c.tree_width, 16u); }},
        {"SlurmctldTimeout=60", [](const Config &c) { EXPECT_EQ(c.slurmctld_timeout, 60u); }},
        {"SlurmdTimeout=100", [](const Config &c) { EXPECT_EQ(c.slurmd_timeout, 100u); }},
        {"KillWait=10", [](const Config &c) { EXPECT_EQ(c.kill_wait, 10u); }},
        {"MaxJobCount=500", [](const Config &c) { EXPECT_EQ(c.max_job_count, 500u); }},
        {"FirstJobId=1000", [](const Config &c) { EXPECT_EQ(c.first_job_id, 1000u); }},
        {"MaxJobId=99999", [](const Config &c) { EXPECT_EQ(c.max_job_id, 99999u); }},
        {"Prolog=/etc/prolog.sh", [](const Config &c) { EXPECT_EQ(c.prolog, "/etc/prolog.sh"); }},
        {"Epilog=\"/etc/my epilog.sh\"",
         [](const Config &c) { EXPECT_EQ(c.epilog, "/etc/my epilog.sh"); }},
        {"SlurmctldLogFile=/var/log/c.log",
         [](const Config &c) { EXPECT_EQ(c.slurmctld_log_file, "/var/log/c.log"); }},
        {"SlurmdLogFile=/var/log/d.log",
         [](const Config &c) { EXPECT_EQ(c.slurmd_log_file, "/var/log/d.log"); }},
        {"ClusterName=a SlurmctldPort=7100 # trailing comment",
         [](const Config &c) {
             EXPECT_EQ(c.cluster_name, "a");
             EXPECT_EQ(c.slurmctld_port, 7100);
         }},
        {"  ClusterName = spaced  ", [](const Config &c) { EXPECT_EQ(c.cluster_name, "spaced"); }},
        {"Prolog=\"/a#b\"", [](const Config &c) { EXPECT_EQ(c.prolog, "/a#b"); }},
        {"Prolog=/a\\#b", [](const Config &c) { EXPECT_EQ(c.prolog, "/a#b"); }},
        {"Prolog=/a#b", [](const Config &c) { EXPECT_EQ(c.prolog, "/a"); }},
        {"Prolog=\"\"", [](const Config &c) { EXPECT_EQ(c.prolog, ""); }},
        {"ClusterName=x \\\n SlurmdPort=7200",
         [](const Config &c) {
             EXPECT_EQ(c.cluster_name, "x");
             EXPECT_EQ(c.slurmd_port, 7200);
         }},
        {"ClusterName=crlf\r\nSlurmdPort=7300\r\n",
         [](const Config &c) {
             EXPECT_EQ(c.cluster_name, "crlf");
             EXPECT_EQ(c.slurmd_port, 7300);
         }},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.line);
        c.check(parse(c.line));
    }
}

TEST(Config, Controllers) {
    struct Case {
        std::string text;
        std::vector<std::pair<std::string, std::string>> want;
    };
    const Case cases[] = {
        {"SlurmctldHost=head", {{"head", "head"}}},
        {"SlurmctldHost=head(10.0.0.1)\nSlurmctldHost=backup(10.0.0.2)",
         {{"head", "10.0.0.1"}, {"backup", "10.0.0.2"}}},
        {"ControlMachine=old\nControlAddr=10.1.1.1", {{"old", "10.1.1.1"}}},
        {"ControlAddr=10.1.1.1\nControlMachine=old\nBackupController=b2",
         {{"old", "10.1.1.1"}, {"b2", "b2"}}},
        {"ControlMachine=old\nBackupController=b2\nBackupAddr=10.2.2.2",
         {{"old", "old"}, {"b2", "10.2.2.2"}}},
    };
    for (const auto &c : cases) {
        Config cfg = parse(c.text);
        ASSERT_EQ(cfg.controllers.size(), c.want.size()) << c.text;
        for (std::size_t i = 0; i < c.want.size(); ++i) {
            EXPECT_EQ(cfg.controllers[i].name, c.want[i].first) << c.text;
            EXPECT_EQ(cfg.controllers[i].addr, c.want[i].second) << c.text;
        }
    }
    EXPECT_EQ(parse("SlurmctldHost=a\nSlurmctldHost=b").raw.at("slurmctldhost"), "b");
}

TEST(Config, Nodes) {
    Config c = parse(
        "NodeName=DEFAULT CPUs=4 RealMemory=1000 State=UNKNOWN\n"
        "NodeName=n[1-4] Feature=gpu,big Gres=gpu:2\n"
        "NodeName=DEFAULT RealMemory=4G\n"
        "NodeName=m[01-02] Sockets=2 CoresPerSocket=8 ThreadsPerCore=2 NodeAddr=10.0.0.[1-2] "
        "Port=7000\n"
        "NodeName=solo CPUs=8 Sockets=2 NodeHostname=solo.example TmpDisk=100 Weight=5 "
        "State=future\n"
        "NodeName=big Boards=2 Sockets=2 CoresPerSocket=4 ThreadsPerCore=1 Features=\"a, b\"\n"
        "NodeName=onlycpus CPUs=16 RealMemory=64\n");
    ASSERT_EQ(c.nodes.size(), 9u);
    const NodeConf *n2 = c.find_node("n2");
    ASSERT_NE(n2, nullptr);
    EXPECT_EQ(n2->cpus, 4u);
    EXPECT_EQ(n2->real_memory_mb, 1000u);
    EXPECT_EQ(n2->features, (std::vector<std::string>{"gpu", "big"}));
    EXPECT_EQ(n2->gres, "gpu:2");
    EXPECT_EQ(n2->state, "UNKNOWN");
    EXPECT_EQ(c.node_addr(*n2), "n2");
    EXPECT_EQ(c.node_hostname(*n2), "n2");

    const NodeConf *m2 = c.find_node("m02");
    ASSERT_NE(m2, nullptr);
    EXPECT_EQ(m2->cpus, 4u); // CPUs=4 from DEFAULT still holds
    EXPECT_EQ(m2->sockets, 2u);
    EXPECT_EQ(m2->real_memory_mb, 4096u);
    EXPECT_EQ(c.node_addr(*m2), "10.0.0.2");
    EXPECT_EQ(c.node_hostname(*m2), "m02");
    EXPECT_EQ(m2->port, 7000);

    const NodeConf *solo = c.find_node("solo");
    ASSERT_NE(solo, nullptr);
    EXPECT_EQ(solo->cpus, 8u);
    EXPECT_EQ(c.node_hostname(*solo), "solo.example");
    EXPECT_EQ(c.node_addr(*solo), "solo.example");
    EXPECT_EQ(solo->tmp_disk_mb, 100u);
    EXPECT_EQ(solo->weight, 5u);
    EXPECT_EQ(solo->state, "FUTURE");

    // A DEFAULT line setting CPUs=4 stays in force; a node line that sets topology keeps it.
    const NodeConf *big = c.find_node("big");
    ASSERT_NE(big, nullptr);
    EXPECT_EQ(big->cpus, 4u);
    EXPECT_EQ(big->features, (std::vector<std::string>{"a", "b"}));

    EXPECT_EQ(c.find_node("onlycpus")->sockets, 16u);
    EXPECT_EQ(c.find_node("nope"), nullptr);
    EXPECT_EQ(c.nodes[0].name, "n1");
    EXPECT_EQ(c.nodes[4].name, "m01");
}

TEST(Config, NodeCpusFromTopology) {
    const std::pair<std::string, uint32_t> cases[] = {
        {"NodeName=a", 1},
        {"NodeName=a Sockets=2 CoresPerSocket=8 ThreadsPerCore=2", 32},
        {"NodeName=a Boards=2 SocketsPerBoard=2 CoresPerSocket=4", 16},
        {"NodeName=a Boards=2 Sockets=2 CoresPerSocket=4 ThreadsPerCore=2", 32},
        {"NodeName=a CPUs=6 Sockets=2 CoresPerSocket=4", 6},
        {"NodeName=a Procs=3", 3},
    };
    for (const auto &[line, cpus] : cases) EXPECT_EQ(parse(line).nodes.at(0).cpus, cpus) << line;
}

TEST(Config, Partitions) {
    Config c = parse("NodeName=n[1-4] CPUs=2\n"
                     "NodeName=g[1-2] Feature=gpu\n"
                     "PartitionName=DEFAULT MaxTime=30 State=UP\n"
                     "PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=1-00:00:00 "
                     "DefaultTime=10 MaxNodes=2\n"
                     "PartitionName=batch Nodes=n[1-4],g1 MaxTime=UNLIMITED MinNodes=1 "
                     "AllowGroups=a,b AllowAccounts=ALL\n"
                     "PartitionName=all Nodes=ALL State=drain OverSubscribe=FORCE:4 "
                     "PriorityTier=10 MaxNodes=UNLIMITED\n"
                     "PartitionName=old Nodes=n1 Shared=yes\n"
                     "NodeSet=gpus Feature=gpu\n"
                     "PartitionName=gpu Nodes=gpus,n1\n"
                     "PartitionName=empty\n");
    ASSERT_EQ(c.partitions.size(), 6u);
    const PartitionConf *debug = c.find_partition("debug");
    ASSERT_NE(debug, nullptr);
    EXPECT_TRUE(debug->is_default);
    EXPECT_EQ(node_names(c, debug), (std::vector<std::string>{"n1", "n2"}));
    EXPECT_EQ(debug->nodes_expr, "n[1-2]");
    EXPECT_EQ(debug->max_time_min, 1440u);
    EXPECT_EQ(debug->default_time_min, 10u);
    EXPECT_EQ(debug->max_nodes, 2u);
    EXPECT_EQ(c.default_partition(), debug);

    const PartitionConf *batch = c.find_partition("batch");
    EXPECT_EQ(node_names(c, batch), (std::vector<std::string>{"n1", "n2", "n3", "n4", "g1"}));
    EXPECT_EQ(batch->max_time_min, kInfinite);
    EXPECT_EQ(batch->default_time_min, kNoVal);
    EXPECT_EQ(batch->min_nodes, 1u);
    EXPECT_EQ(batch->allow_groups, (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(batch->allow_accounts.empty());
    EXPECT_FALSE(batch->is_default);

    const PartitionConf *all = c.find_partition("all");
    EXPECT_EQ(all->nodes.size(), 6u);
    EXPECT_EQ(all->nodes_expr, "ALL");
    EXPECT_EQ(all->state, "DRAIN");
    EXPECT_EQ(all->oversubscribe, "FORCE:4");
    EXPECT_EQ(all->priority_tier, 10u);
    EXPECT_EQ(all->max_time_min, 30u); // from DEFAULT
    EXPECT_EQ(all->max_nodes, kInfinite);

    EXPECT_EQ(c.find_partition("old")->oversubscribe, "YES");
    EXPECT_EQ(node_names(c, c.find_partition("gpu")), (std::vector<std::string>{"g1", "g2", "n1"}));
    EXPECT_TRUE(c.find_partition("empty")->nodes.empty());
    EXPECT_EQ(c.find_partition("nope"), nullptr);
}

TEST(Config, DefaultPartitionIsFirstWithoutDefaultYes) {
    Config c = parse("NodeName=a\nPartitionName=p1 Nodes=a\nPartitionName=p2 Nodes=a Default=NO\n");
    ASSERT_NE(c.default_partition(), nullptr);
    EXPECT_EQ(c.default_partition()->name, "p1");
}

TEST(Config, PartitionBeforeNodes) {
    Config c = parse("PartitionName=p Nodes=a[1-2]\nNodeName=a[1-2]\nDownNodes=a2 State=DRAIN "
                     "Reason=\"bad disk\"\n");
    EXPECT_EQ(c.partitions.at(0).nodes.size(), 2u);
    EXPECT_EQ(c.find_node("a2")->state, "DRAIN");
}

TEST(Config, UnknownKeysWarnOnce) {
    Config c = parse("ClusterName=c\n"
                     "MailProg=/usr/bin/mail\n"
                     "HealthCheckInterval=30\n"
                     "SlurmSchedLogFile=/var/log/sched.log\n"
                     "LaunchParameters=use_interactive_step\n"
                     "JobCompType=jobcomp/none\n"
                     "AcctGatherNodeFreq=30\n"
                     "mailprog=/bin/mail\n"
                     "NodeName=n1 CPUs=1 CpuBind=cores\n"
                     "NodeName=n2 CpuBind=cores\n"
                     "PartitionName=p Nodes=n[1-2] QOS=normal AllowQos=normal\n"
                     "FrontendName=fe1\n");
    ASSERT_EQ(c.warnings.size(), 9u);
    // Slurm's keys are said to be Slurm's; only a key Slurm does not have either is unknown.
    EXPECT_EQ(c.warnings[0], "slurm.conf:2: MailProg is a Slurm key Drover does not use; ignored");
    EXPECT_EQ(c.warnings[5],
              "slurm.conf:7: AcctGatherNodeFreq is a Slurm key Drover does not use; ignored");
    EXPECT_EQ(c.raw.at("mailprog"), "/bin/mail");
    EXPECT_EQ(c.raw.at("launchparameters"), "use_interactive_step");
    EXPECT_EQ(c.raw.at("clustername"), "c");
    EXPECT_EQ(c.raw.count("nodename"), 0u);
}

TEST(Config, PriorityAndPreemptKeys) {
    Config d = parse_config("", "slurm.conf");
    EXPECT_EQ(d.priority_type, "") << "priority/basic: no plugin";
    EXPECT_EQ(d.priority_calc_period_s, 300u);
    EXPECT_EQ(d.priority_decay_half_life_s, 7u * 86400);
    EXPECT_EQ(d.priority_usage_reset_period, "NONE");
    EXPECT_EQ(d.preempt_type, "");
    EXPECT_EQ(d.preempt_mode, "OFF");
    Config c = parse_config("PriorityType=priority/multifactor\nPriorityCalcPeriod=0:30\n"
                            "PriorityDecayHalfLife=14-0\nPriorityUsageResetPeriod=monthly\n"
                            "PriorityWeightFairshare=10000\nPriorityFlags=NO_FAIR_TREE\n"
                            "PreemptType=preempt/qos\nPreemptMode=requeue\n"
                            "PreemptExemptTime=5:00\nNodeName=n1\n"
                            "PartitionName=p Nodes=n1 PriorityJobFactor=5 PreemptMode=cancel\n"
                            "PartitionName=q Nodes=n1 Priority=3\n"
                            "PartitionName=s Nodes=n1 PreemptMode=suspend,gang\n",
                            "slurm.conf");
    EXPECT_EQ(c.priority_type, "priority/multifactor");
    EXPECT_EQ(c.priority_calc_period_s, 30u) << "Drover keeps M:S to the second";
    EXPECT_EQ(c.priority_decay_half_life_s, 14u * 86400);
    EXPECT_EQ(c.priority_usage_reset_period, "MONTHLY");
    EXPECT_EQ(c.preempt_type, "preempt/qos");
    EXPECT_EQ(c.preempt_mode, "REQUEUE");
    EXPECT_EQ(c.preempt_exempt_time_s, 300u);
    EXPECT_EQ(c.partitions[0].priority_job_factor, 5u);
    EXPECT_EQ(c.partitions[0].preempt_mode, "CANCEL");
    EXPECT_EQ(c.partitions[1].priority_job_factor, 3u) << "Priority= sets both";
    EXPECT_EQ(c.partitions[1].priority_tier, 3u);
    EXPECT_EQ(c.partitions[2].preempt_mode, "SUSPEND") << "GANG beside it adds nothing here";
    EXPECT_TRUE(c.warnings.empty()) << "the plugin's keys are known: " << c.warnings.front();
    EXPECT_EQ(c.raw.at("priorityweightfairshare"), "10000") << "for the plugin's conf_get";
}

TEST(Config, Errors) {
    struct Case {
        std::string text;
        std::string want; // a piece of the message
    };
    const Case cases[] = {
        {"ClusterName", "slurm.conf:1: expected Key=Value"},
        {"\n\nfoo bar=1", "slurm.conf:3: expected Key=Value"},
        {"=value", "slurm.conf:1: empty key"},
        {"Key-x=1", "slurm.conf:1: expected Key=Value"},
        {"SlurmctldPort=abc", "slurm.conf:1: bad value for SlurmctldPort: 'abc'"},
        {"SlurmctldPort=70000", "slurm.conf:1: bad value for SlurmctldPort"},
        {"TreeWidth=-1", "bad value for TreeWidth"},
        {"MaxJobId=99999999999", "bad value for MaxJobId"},
        {"NodeName=n1 CPUs=x", "slurm.conf:1: bad value for CPUs: 'x'"},
        {"NodeName=n1 RealMemory=lots", "slurm.conf:1: RealMemory: bad size"},
        {"NodeName=n1 Sockets=0", "bad value for Sockets"},
        {"NodeName=n[1-2", "slurm.conf:1: NodeName: bad hostlist"},
        {"NodeName=n[3-1]", "NodeName: bad hostlist"},
        {"NodeName=n[1-3] NodeAddr=a,b", "NodeAddr names 2 hosts for 3 nodes"},
        {"NodeName=n[1-3] Port=[100-101]", "gives 2 ports for 3 nodes"},
        {"NodeName=n1\nNodeName=n1", "slurm.conf:2: node 'n1' is defined twice"},
        {"NodeName=DEFAULT NodeAddr=x", "cannot be given with NodeName=DEFAULT"},
        {"NodeName=a Sockets=65536 CoresPerSocket=65536 ThreadsPerCore=2", "more than"},
        {"ClusterName=\"abc", "slurm.conf:1: unbalanced '\"'"},
        {"NodeName=n1\nPartitionName=p Nodes=n2",
         "slurm.conf:2: partition 'p' names node 'n2', which is not defined"},
        {"NodeName=n1\nPartitionName=p Nodes=n1\nPartitionName=p Nodes=n1",
         "slurm.conf:3: partition 'p' is defined twice"},
        {"PartitionName=p State=SLEEPY", "bad value for State"},
        {"PartitionName=p Default=maybe", "bad value for Default"},
        {"PartitionName=p MaxTime=forever", "slurm.conf:1: MaxTime: bad time limit"},
        {"PartitionName=p OverSubscribe=SOMETIMES", "bad value for OverSubscribe"},
        {"PartitionName=p OverSubscribe=FORCE:x", "bad value for OverSubscribe"},
        {"SlurmctldHost=a(b", "bad value for SlurmctldHost"},
        {"SlurmctldHost=(b)", "bad value for SlurmctldHost"},
        {"ClusterName=a NodeName=n1", "NodeName= must begin its line"},
        {"Include /definitely/not/here.conf", "slurm.conf:1: cannot read Include"},
        {"DownNodes=zz", "DownNodes names node 'zz'"},
        {"SchedulerParameters=bf_interval=30,max_script_size=abc",
         "slurm.conf:1: bad value for SchedulerParameters: 'max_script_size=abc' (max_script_size: "
         "expected a number of bytes from 1 to 536870912)"},
        {"SchedulerParameters=max_script_size=0",
         "bad value for SchedulerParameters: 'max_script_size=0'"},
        {"SchedulerParameters=max_script_size=536870913", "'max_script_size=536870913'"},
        {"SchedulerParameters=max_script_size=", "'max_script_size='"},
        {"SchedulerParameters=max_script_size=4M", "'max_script_size=4M'"},
        {"StateSaveMaxSize=0",
         "bad value for StateSaveMaxSize: '0' (expected a size from 1M to 64T)"},
        {"StateSaveMaxSize=lots", "slurm.conf:1: StateSaveMaxSize: bad size"},
        {"PriorityCalcPeriod=0", "bad value for PriorityCalcPeriod: '0' (expected a time of at "
                                 "least 1 second"},
        {"PriorityDecayHalfLife=soon", "bad value for PriorityDecayHalfLife: 'soon'"},
        {"PriorityUsageResetPeriod=HOURLY",
         "bad value for PriorityUsageResetPeriod: 'HOURLY' (expected NONE, NOW, DAILY, WEEKLY, "
         "MONTHLY, QUARTERLY or YEARLY)"},
        {"PreemptType=preempt/magic",
         "bad value for PreemptType: 'preempt/magic' (expected preempt/none, "
         "preempt/partition_prio or preempt/qos)"},
        {"PreemptMode=GANG",
         "bad value for PreemptMode: 'GANG' (GANG alone (time-slicing) is not supported yet: "
         "use SUSPEND,GANG)"},
        {"PreemptMode=CANCEL,REQUEUE", "(expected one of OFF, CANCEL, REQUEUE or SUSPEND)"},
        {"PartitionName=p PreemptMode=sometimes", "bad value for PreemptMode: 'sometimes'"},
        {"PreemptExemptTime=x", "bad value for PreemptExemptTime: 'x'"},
    };
    for (const auto &c : cases) {
        std::string got = error_of(c.text);
        EXPECT_NE(got.find(c.want), std::string::npos) << "input: " << c.text << "\n got: " << got;
    }
}

class ConfigFiles : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("drover-config-test-" + std::to_string(::getpid()) + "-" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir_ / "conf.d");
    }
    void TearDown() override { fs::remove_all(dir_); }
    void write(const std::string &rel, const std::string &text) {
        std::ofstream(dir_ / rel) << text;
    }
    fs::path dir_;
};

TEST_F(ConfigFiles, IncludeRelativeAndGlob) {
    write("slurm.conf", "ClusterName=main\n"
                        "Include nodes.conf\n"
                        "include conf.d/*.conf\n"
                        "Include=\"parts.conf\"\n");
    write("nodes.conf", "NodeName=n[1-2] CPUs=2\n");
    write("conf.d/a.conf", "SlurmctldPort=7777\n");
    write("conf.d/b.conf", "SlurmdPort=7778\nBogusKey=1\n");
    write("parts.conf", "PartitionName=p Nodes=ALL Default=YES\n");
    Config c = load_config((dir_ / "slurm.conf").string());
    EXPECT_EQ(c.path, (dir_ / "slurm.conf").string());
    EXPECT_EQ(c.nodes.size(), 2u);
    EXPECT_EQ(c.slurmctld_port, 7777);
    EXPECT_EQ(c.slurmd_port, 7778);
    EXPECT_EQ(c.default_partition()->nodes.size(), 2u);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_EQ(c.warnings[0],
              (dir_ / "conf.d/b.conf").string() + ":2: unknown key 'BogusKey' ignored");
}

TEST_F(ConfigFiles, EmptyGlobIsFine) {
    write("slurm.conf", "Include conf.d/*.none\nClusterName=x\n");
    EXPECT_EQ(load_config((dir_ / "slurm.conf").string()).cluster_name, "x");
}

TEST_F(ConfigFiles, IncludeLoopIsBounded) {
    write("slurm.conf", "Include slurm.conf\n");
    try {
        load_config((dir_ / "slurm.conf").string());
        FAIL() << "no error";
    } catch (const ParseError &e) {
        EXPECT_NE(std::string(e.what()).find("nested more than"), std::string::npos) << e.what();
    }
}

TEST_F(ConfigFiles, ErrorsNameTheIncludedFile) {
    write("slurm.conf", "ClusterName=x\nInclude bad.conf\n");
    write("bad.conf", "\nNodeName=n1 CPUs=many\n");
    try {
        load_config((dir_ / "slurm.conf").string());
        FAIL() << "no error";
    } catch (const ParseError &e) {
        EXPECT_EQ(
            std::string(e.what()).rfind((dir_ / "bad.conf").string() + ":2: bad value for CPUs", 0),
            0u)
            << e.what();
    }
}

TEST_F(ConfigFiles, IncludeRefusedWhenOff) {
    write("other.conf", "ClusterName=x\n");
    ConfigParseOptions opts;
    opts.allow_include = false;
    EXPECT_THROW(parse_config("Include other.conf\n", "slurm.conf", dir_.string(), opts),
                 ParseError);
    EXPECT_EQ(parse_config("Include other.conf\n", "slurm.conf", dir_.string()).cluster_name, "x");
}

TEST(Config, MaxNodes) {
    ConfigParseOptions opts;
    opts.max_nodes = 10;
    EXPECT_EQ(parse_config("NodeName=n[1-5]\nNodeName=m[1-5]\n", "x", ".", opts).nodes.size(), 10u);
    EXPECT_THROW(parse_config("NodeName=n[1-5]\nNodeName=m[1-6]\n", "x", ".", opts), ParseError);
    EXPECT_THROW(parse_config("NodeName=n[1-10]\nNodeName=m1\n", "x", ".", opts), ParseError);
    EXPECT_THROW(parse_config("NodeName=n[1-1000000000]\n", "x", ".", opts), ParseError);
}

TEST_F(ConfigFiles, MissingMainFile) {
    EXPECT_THROW(load_config((dir_ / "nope.conf").string()), ParseError);
    EXPECT_THROW(load_config(dir_.string()), ParseError);
}

TEST(Config, RealSiteFileLoads) {
    Config c = parse(R"(#
# slurm.conf from a small site
#
ClusterName=cluster
SlurmctldHost=head01(192.168.1.1)
SlurmctldHost=head02(192.168.1.2)
MpiDefault=none
ProctrackType=proctrack/cgroup
ReturnToService=1
SlurmctldPidFile=/var/run/slurmctld.pid
SlurmctldPort=6817
SlurmdPidFile=/var/run/slurmd.pid
SlurmdPort=6818
SlurmdSpoolDir=/var/spool/slurmd
SlurmUser=slurm
StateSaveLocation=/var/spool/slurmctld
SwitchType=switch/none
TaskPlugin=task/affinity,task/cgroup
InactiveLimit=0
KillWait=30
MinJobAge=300
SlurmctldTimeout=120
SlurmdTimeout=300
Waittime=0
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=dbhost
JobCompType=jobcomp/none
JobAcctGatherFrequency=30
JobAcctGatherType=jobacct_gather/cgroup
SlurmctldDebug=info
SlurmctldLogFile=/var/log/slurmctld.log
SlurmdDebug=info
SlurmdLogFile=/var/log/slurmd.log
GresTypes=gpu
AuthType=auth/munge
CredType=cred/munge
NodeName=c[001-128] CPUs=64 Sockets=2 CoresPerSocket=16 ThreadsPerCore=2 RealMemory=257000 State=UNKNOWN
NodeName=gpu[01-04] CPUs=32 RealMemory=512000 Gres=gpu:a100:4 Feature=a100 State=UNKNOWN
PartitionName=compute Nodes=c[001-128] Default=YES MaxTime=2-00:00:00 State=UP
PartitionName=gpu Nodes=gpu[01-04] MaxTime=1-00:00:00 State=UP DefMemPerCPU=4000
)");
    EXPECT_EQ(c.controllers.size(), 2u);
    EXPECT_EQ(c.nodes.size(), 132u);
    EXPECT_EQ(c.find_node("c064")->cpus, 64u);
    EXPECT_EQ(c.default_partition()->name, "compute");
    EXPECT_EQ(c.auth_type, "auth/munge");
    EXPECT_EQ(c.accounting_storage_type, "accounting/lmdb"); // slurmdbd: the controller's own
    EXPECT_GE(c.warnings.size(), 8u);
    for (const auto &w : c.warnings) // the daemons write the pid files these keys name
        EXPECT_EQ(w.find("PidFile"), std::string::npos) << w;
}

TEST(Config, FindNodeScalesAndTracksEdits) {
    Config c = parse("NodeName=n[00001-20000] CPUs=1\n");
    ASSERT_EQ(c.nodes.size(), 20000u);
    for (int i = 1; i <= 20000; i += 997) {
        char name[16];
        std::snprintf(name, sizeof name, "n%05d", i);
        ASSERT_NE(c.find_node(name), nullptr) << name;
        EXPECT_EQ(c.find_node(name)->name, name);
    }
    NodeConf extra;
    extra.name = "extra";
    c.nodes.push_back(extra);
    ASSERT_NE(c.find_node("extra"), nullptr);
    Config copy = c;
    EXPECT_EQ(copy.find_node("extra"), &copy.nodes.back());
    Config hand;
    NodeConf h1;
    h1.name = "h1";
    hand.nodes.push_back(h1);
    EXPECT_NE(hand.find_node("h1"), nullptr);
}

TEST(Config, AuthOption) {
    Config c;
    c.auth_info = "socket=/x, ttl=60,key=/etc/drover.key,use_client_ids";
    EXPECT_EQ(c.auth_option("socket"), "/x");
    EXPECT_EQ(c.auth_option("ttl"), "60");
    EXPECT_EQ(c.auth_option("KEY"), "/etc/drover.key");
    EXPECT_EQ(c.auth_option("use_client_ids"), "");
    EXPECT_EQ(c.auth_option("missing"), std::nullopt);
    EXPECT_EQ(Config{}.auth_option("socket"), std::nullopt);
}

TEST(Config, FindConfigPath) {
    unsetenv("DROVER_CONF");
    unsetenv("SLURM_CONF");
    EXPECT_EQ(find_config_path(std::nullopt), kDefaultConfigPath);
    setenv("SLURM_CONF", "/s.conf", 1);
    EXPECT_EQ(find_config_path(std::nullopt), "/s.conf");
    setenv("DROVER_CONF", "/d.conf", 1);
    EXPECT_EQ(find_config_path(std::nullopt), "/d.conf");
    EXPECT_EQ(find_config_path(std::string("/cli.conf")), "/cli.conf");
    unsetenv("DROVER_CONF");
    unsetenv("SLURM_CONF");
}

TEST(Config, DaemonTuningKeys) {
    Config c = parse("MinJobAge=60\nReturnToService=2\nPrivateData=jobs,usage\nStateSaveSync=yes\n"
                     "AccountingStorageLoc=/var/acct\nTmpFS=/scratch\n");
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_EQ(c.min_job_age, 60u);
    EXPECT_EQ(c.return_to_service, 2u);
    EXPECT_TRUE(c.private_data.jobs);
    EXPECT_TRUE(c.private_data.usage);
    EXPECT_FALSE(c.private_data.nodes);
    EXPECT_EQ(c.state_save_sync, "yes");
    EXPECT_EQ(c.accounting_storage_loc, "/var/acct");
    EXPECT_EQ(c.tmp_fs, "/scratch");
    EXPECT_THROW(parse("ReturnToService=3\n"), ParseError);
}

TEST(Config, PrivateDataWords) {
    Config c = parse("PrivateData=Jobs,node,PARTITIONS,usage,users,accounts,events\n");
    EXPECT_TRUE(c.warnings.empty());
    const PrivateData &pd = c.private_data;
    EXPECT_TRUE(pd.jobs && pd.nodes && pd.partitions && pd.usage && pd.users && pd.accounts &&
                pd.events);
    EXPECT_FALSE(pd.reservations || pd.cloud);
    EXPECT_FALSE(parse("ClusterName=x\n").private_data.any());
}

TEST(Config, PrivateDataAllAndUnknown) {
    PrivateData all = parse("PrivateData=all\n").private_data;
    EXPECT_TRUE(all.jobs && all.nodes && all.partitions && all.usage && all.users && all.accounts &&
                all.events && all.reservations && all.cloud);
    // As in Slurm, an unknown word changes nothing; Drover says so.
    Config c = parse("PrivateData=jobs,jobz\n");
    EXPECT_TRUE(c.private_data.jobs);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("unknown PrivateData value 'jobz' ignored"), std::string::npos);
    std::vector<std::string> unknown;
    PrivateData pd = parse_private_data("jobss, ,Nodes", &unknown);
    EXPECT_TRUE(pd.nodes);
    EXPECT_FALSE(pd.jobs);
    EXPECT_EQ(unknown, std::vector<std::string>{"jobss"});
}

} // namespace
} // namespace drover

// Several node daemons on one host: one address for the whole line, a port each.
TEST(ConfigNodes, PortRangeGivesEachNodeItsPort) {
    drover::Config c =
        drover::parse_config("ClusterName=x\nSlurmctldHost=h\nNodeName=lx[001-100] "
                             "NodeAddr=127.0.0.1 Port=[21001-21100]\n"
                             "NodeName=ly[1-2] Port=21500\nPartitionName=p Nodes=ALL\n",
                             "test.conf");
    ASSERT_EQ(c.nodes.size(), 102u);
    EXPECT_EQ(c.node_port(*c.find_node("lx001")), 21001);
    EXPECT_EQ(c.node_port(*c.find_node("lx100")), 21100);
    EXPECT_EQ(c.node_addr(*c.find_node("lx050")), "127.0.0.1");
    EXPECT_EQ(c.node_port(*c.find_node("ly2")), 21500);
    EXPECT_THROW(drover::parse_config("ClusterName=x\nNodeName=a[1-3] Port=[100-101]\n", "t.conf"),
                 drover::ParseError);
}
