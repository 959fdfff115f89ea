// scontrol_test.cpp - the show layouts line by line, one-liner mode, update/hold argument parsing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "cli/scontrol_args.hpp"
#include "cli/scontrol_show.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Job;
using drover::cli::test::Node;
using drover::cli::test::Part;
using drover::cli::test::Records;

namespace {

constexpr int64_t kNow = 1700000000; // 2023-11-14T22:13:20 UTC

void utc() {
    setenv("TZ", "UTC", 1);
    tzset();
}

std::string error_of(void (*fn)(std::span<const std::string>), std::vector<std::string> words) {
    try {
        fn(words);
    } catch (const ParseError &e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(ScontrolShow, RunningJob) {
    utc();
    Job j;
    j.id = 5;
    j.name = "sleeper";
    j.uid = j.gid = 0;
    j.user = "root";
    j.state = DROVER_JOB_RUNNING;
    j.submit = kNow - 100;
    j.start = kNow - 65;
    j.end = j.start + 1800;
    j.limit = 30;
    j.nodes = j.batch_host = "n1";
    j.out = "/home/alice/slurm-5.out";
    j.command = "/home/alice/job.sh";
    Records rec;
    auto jobs = rec.jobs({j});
    EXPECT_EQ(
        show_job(*jobs[0], kNow, false),
        "JobId=5 JobName=sleeper\n"
        "   UserId=root(0) GroupId=root(0) MCS_label=N/A\n"
        "   Priority=100 Nice=0 Account=(null) QOS=normal\n"
        "   JobState=RUNNING Reason=None Dependency=(null)\n"
        "   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n"
        "   RunTime=00:01:05 TimeLimit=00:30:00 TimeMin=N/A\n"
        "   SubmitTime=2023-11-14T22:11:40 EligibleTime=Unknown\n"
        "   AccrueTime=Unknown\n"
        "   StartTime=2023-11-14T22:12:15 EndTime=2023-11-14T22:42:15 Deadline=N/A\n"
        "   SuspendTime=None SecsPreSuspend=0 LastSchedEval=2023-11-14T22:12:15 Scheduler=Main\n"
        "   Partition=debug AllocNode:Sid=login1:0\n"
        "   ReqNodeList=(null) ExcNodeList=(null)\n"
        "   NodeList=n1\n"
        "   BatchHost=n1\n"
        "   NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
        "   TRES=cpu=1,node=1,billing=1\n"
        "   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*\n"
        "   MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0\n"
        "   Features=(null) DelayBoot=00:00:00\n"
        "   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)\n"
        "   Command=/home/alice/job.sh\n"
        "   WorkDir=/home/alice\n"
        "   StdErr=/home/alice/slurm-5.out\n"
        "   StdIn=/dev/null\n"
        "   StdOut=/home/alice/slurm-5.out\n"
        "   Power=\n"
        "\n");
}

TEST(ScontrolShow, PendingJobOneLiner) {
    utc();
    Job j;
    j.id = 9;
    j.name = "wait";
    j.uid = j.gid = 0;
    j.user = "root";
    j.reason = "Priority";
    j.min_nodes = 2;
    j.max_nodes = 4;
    j.mem_mb = 2048;
    j.limit = DROVER_NO_VAL;
    j.comment = "hi there";
    j.exit_status = 0;
    Records rec;
    auto jobs = rec.jobs({j});
    std::string s = show_job(*jobs[0], kNow, true);
    EXPECT_EQ(s.find('\n'), s.size() - 1);
    EXPECT_NE(s.find(" JobState=PENDING Reason=Priority "), std::string::npos);
    EXPECT_NE(s.find(" RunTime=00:00:00 TimeLimit=Partition_Limit "), std::string::npos);
    EXPECT_NE(s.find(" StartTime=Unknown EndTime=Unknown "), std::string::npos);
    EXPECT_NE(s.find(" NodeList=(null) NumNodes=2-4 "), std::string::npos);
    EXPECT_NE(s.find(" MinMemoryNode=2G "), std::string::npos);
    EXPECT_NE(s.find(" TRES=cpu=1,mem=4G,node=2,billing=1 "), std::string::npos);
    EXPECT_NE(s.find(" Comment=hi there "), std::string::npos);
    EXPECT_EQ(s.find("BatchHost"), std::string::npos);
}

// Reservation= only for a job in one, between Features= and OverSubscribe=, as Slurm prints it.
TEST(ScontrolShow, JobReservation) {
    utc();
    Job in, out;
    in.reservation = "maint";
    Records rec;
    auto jobs = rec.jobs({in, out});
    EXPECT_NE(show_job(*jobs[0], kNow, false)
                  .find("   Features=(null) DelayBoot=00:00:00\n"
                        "   Reservation=maint\n"
                        "   OverSubscribe=OK "),
              std::string::npos);
    EXPECT_NE(show_job(*jobs[0], kNow, true).find(" DelayBoot=00:00:00 Reservation=maint "),
              std::string::npos);
    EXPECT_EQ(show_job(*jobs[1], kNow, false).find("Reservation="), std::string::npos);
}

TEST(ScontrolShow, DrainedNode) {
    utc();
    Node n{"n4"};
    n.flags = DROVER_NODE_FLAG_DRAIN;
    n.reason = "bad disk";
    n.reason_uid = 0;
    n.reason_time = kNow;
    n.partitions = {"debug", "long"};
    Records rec;
    auto nodes = rec.nodes({n});
    std::string s = show_node(*nodes[0], false);
    EXPECT_TRUE(s.starts_with("NodeName=n4 Arch=(null) CoresPerSocket=4\n   CPUAlloc=0 CPUEfctv=4 "
                              "CPUTot=4 CPULoad=N/A\n"));
    EXPECT_NE(
        s.find(
            "\n   State=IDLE+DRAIN ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n"),
        std::string::npos);
    EXPECT_NE(s.find("\n   Partitions=debug,long \n"), std::string::npos);
    EXPECT_NE(s.find("\n   CfgTRES=cpu=4,mem=1000M,billing=4\n"), std::string::npos);
    EXPECT_TRUE(s.ends_with("\n   Reason=bad disk [root@2023-11-14T22:13:20]\n\n"));
}

TEST(ScontrolShow, Partition) {
    Part p;
    p.name = "debug";
    p.nodes = "n[1-4]";
    p.is_default = true;
    p.total_cpus = 16;
    p.total_nodes = 4;
    Records rec;
    auto parts = rec.parts({p});
    EXPECT_EQ(
        show_partition(*parts[0], false),
        "PartitionName=debug\n"
        "   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL\n"
        "   AllocNodes=ALL Default=YES QoS=N/A\n"
        "   DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO\n"
        "   MaxNodes=UNLIMITED MaxTime=UNLIMITED MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED\n"
        "   Nodes=n[1-4]\n"
        "   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO\n"
        "   OverTimeLimit=NONE PreemptMode=OFF\n"
        "   State=UP TotalCPUs=16 TotalNodes=4 SelectTypeParameters=NONE\n"
        "   JobDefaults=(null)\n"
        "   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n"
        "   TRES=cpu=16,node=4,billing=16\n"
        "   ResumeTimeout=GLOBAL SuspendTimeout=GLOBAL SuspendTime=GLOBAL PowerDownOnIdle=NO\n"
        "\n");
    EXPECT_EQ(minutes_hms(90), "01:30:00");
    EXPECT_EQ(minutes_hms(1440), "1-00:00:00");
}

TEST(ScontrolArgs, CommandsAndEntities) {
    EXPECT_EQ(match_scontrol_command("show"), ScontrolCmd::show);
    EXPECT_EQ(match_scontrol_command("SHO"), ScontrolCmd::show);
    EXPECT_EQ(match_scontrol_command("reconfigure"), ScontrolCmd::reconfigure);
    EXPECT_EQ(match_scontrol_command("uhold"), ScontrolCmd::uhold);
    EXPECT_FALSE(match_scontrol_command("s"));
    EXPECT_FALSE(match_scontrol_command("frobnicate"));
    EXPECT_EQ(match_show_entity("jobs"), ShowWhat::job);
    EXPECT_EQ(match_show_entity("Job"), ShowWhat::job);
    EXPECT_EQ(match_show_entity("nodes"), ShowWhat::node);
    EXPECT_EQ(match_show_entity("partition"), ShowWhat::partition);
    EXPECT_EQ(match_show_entity("config"), ShowWhat::config);
    EXPECT_FALSE(match_show_entity("cats"));
    EXPECT_EQ(match_show_entity("hostnames"), ShowWhat::hostnames);
    EXPECT_EQ(match_show_entity("hostname"), ShowWhat::hostnames); // as scripts write it
    EXPECT_EQ(match_show_entity("hostl"), ShowWhat::hostlist);
    EXPECT_EQ(match_show_entity("HostList"), ShowWhat::hostlist);
    EXPECT_EQ(match_show_entity("hostlists"), ShowWhat::hostlistsorted);
    EXPECT_EQ(match_show_entity("hostlistsorted"), ShowWhat::hostlistsorted);
    EXPECT_FALSE(match_show_entity("host"));
    ScontrolArgs a = parse_scontrol_args(std::vector<std::string>{"-o", "show", "job", "5"});
    EXPECT_TRUE(a.one_liner);
    EXPECT_FALSE(a.future);
    EXPECT_EQ(a.words, (std::vector<std::string>{"show", "job", "5"}));
    EXPECT_TRUE(parse_scontrol_args(std::vector<std::string>{"-F", "show", "nodes"}).future);
    EXPECT_TRUE(parse_scontrol_args(std::vector<std::string>{"--future", "show", "nodes"}).future);
    EXPECT_EQ(match_scontrol_command("write"), ScontrolCmd::write);
    EXPECT_FALSE(match_scontrol_command("wri")); // Slurm takes "write" whole
}

TEST(ScontrolArgs, JobUpdate) {
    JobUpdate u = parse_job_update(std::vector<std::string>{
        "jobid=5,6", "TimeLimit=1:00:00", "jobname=x", "Priority=7", "NumNodes=2-3", "Comment=c"});
    ASSERT_EQ(u.jobs.size(), 2u);
    EXPECT_EQ(u.jobs[0].job_id, 5u);
    EXPECT_EQ(u.jobs[1].job_id, 6u);
    ASSERT_EQ(u.fields.size(), 5u);
    EXPECT_EQ(u.fields[0], (std::pair<std::string, std::string>{"TimeLimit", "1:00:00"}));
    EXPECT_EQ(u.fields[1], (std::pair<std::string, std::string>{"Name", "x"}));
    EXPECT_EQ(u.fields[3].first, "NumNodes");
    EXPECT_EQ(
        parse_job_update(std::vector<std::string>{"JobId=5", "TimeLimit=+30"}).fields[0].second,
        "+30");
    EXPECT_EQ(update_target(std::vector<std::string>{"TimeLimit=5", "JobId=3"}), UpdateWhat::job);
    EXPECT_EQ(update_target(std::vector<std::string>{"nodename=n1"}), UpdateWhat::node);
    EXPECT_EQ(update_target(std::vector<std::string>{"foo=1"}), UpdateWhat::unknown);
    auto job = [](std::span<const std::string> w) { parse_job_update(w); };
    EXPECT_EQ(error_of(job, {"JobId=5", "Color=red"}),
              "Update of this parameter is not supported: Color=red\nRequest aborted");
    EXPECT_EQ(error_of(job, {"JobId=x", "Name=a"}), "Invalid job id specified: x");
    EXPECT_EQ(error_of(job, {"JobId=5", "TimeLimit=soon"}), "Invalid TimeLimit value: soon");
    EXPECT_EQ(error_of(job, {"JobId=5", "Priority=high"}), "Invalid Priority value: high");
}

TEST(ScontrolArgs, NodeUpdate) {
    NodeUpdate u = parse_node_update(
        std::vector<std::string>{"NodeName=n[1-2]", "State=drain", "Reason=disk gone"});
    EXPECT_EQ(u.names, "n[1-2]");
    EXPECT_EQ(u.state, "DRAIN");
    EXPECT_EQ(u.reason, "disk gone");
    EXPECT_EQ(parse_node_update(std::vector<std::string>{"nodename=n1", "state=RESUME"}).state,
              "RESUME");
    auto node = [](std::span<const std::string> w) { parse_node_update(w); };
    EXPECT_EQ(error_of(node, {"NodeName=n1", "State=DRAIN"}),
              "You must specify a reason when DOWNING or DRAINING a node. Request denied");
    EXPECT_EQ(error_of(node, {"NodeName=n1", "State=down", "Reason="}),
              "You must specify a reason when DOWNING or DRAINING a node. Request denied");
    EXPECT_EQ(error_of(node, {"NodeName=n1", "State=sleep"}),
              "Invalid input: State=sleep\nRequest aborted\nValid states are: CANCEL_REBOOT DOWN "
              "DRAIN IDLE POWER_DOWN POWER_DOWN_ASAP POWER_DOWN_FORCE POWER_UP RESUME UNDRAIN");
    EXPECT_EQ(
        parse_node_update(std::vector<std::string>{"NodeName=n1", "State=power_down_asap"}).state,
        "POWER_DOWN_ASAP");
    EXPECT_EQ(error_of(node, {"NodeName=n[2-1]", "State=RESUME"}),
              "Invalid node name specified: n[2-1]");
}

TEST(ScontrolArgs, HoldIds) {
    std::vector<uint32_t> ids;
    for (const auto &j : parse_hold_ids(std::vector<std::string>{"5", "6,7", "JobId=8"}))
        ids.push_back(j.job_id);
    EXPECT_EQ(ids, (std::vector<uint32_t>{5, 6, 7, 8}));
    EXPECT_THROW(parse_hold_ids(std::vector<std::string>{"five"}), ParseError);
}

TEST(ScontrolUpdate, SuspendExcSettingsWithTheirOperators) {
    using Words = std::vector<std::string>;
    EXPECT_EQ(update_target(Words{"SuspendExcNodes+=n1"}), UpdateWhat::power);
    EXPECT_EQ(update_target(Words{"suspendexcstates=DOWN"}), UpdateWhat::power);
    EXPECT_EQ(update_target(Words{"NodeName=n1", "State=DOWN"}), UpdateWhat::node);
    auto c = parse_power_update(
        Words{"SuspendExcNodes+=n[1-2]", "suspendexcparts-=cloud", "SUSPENDEXCSTATES=down,drain"});
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c[0].key, "SuspendExcNodes");
    EXPECT_EQ(c[0].op, "+=");
    EXPECT_EQ(c[0].value, "n[1-2]");
    EXPECT_EQ(c[1].key, "SuspendExcParts");
    EXPECT_EQ(c[1].op, "-=");
    EXPECT_EQ(c[2].key, "SuspendExcStates");
    EXPECT_EQ(c[2].op, "=");
    EXPECT_EQ(c[2].value, "down,drain") << "the controller checks the states";
    EXPECT_EQ(drover::cli::test::error_of([] { parse_power_update(Words{"SuspendExcNode=n1"}); }),
              "Invalid input: SuspendExcNode=n1");
    EXPECT_EQ(drover::cli::test::error_of([] { parse_power_update(Words{"SuspendExcNodes"}); }),
              "Invalid input: SuspendExcNodes");
}
