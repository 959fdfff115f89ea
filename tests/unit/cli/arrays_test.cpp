// arrays_test.cpp - job arrays and dependencies across the commands: job specs ("12_3",
// "12_[1-3]"), squeue's array and dependency columns and -r, scontrol show job for arrays and
// with -d, scontrol's requeue/top/update words, scancel's specs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <functional>

#include "cli/job_ids.hpp"
#include "cli/options.hpp"
#include "cli/scancel_args.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/scontrol_show.hpp"
#include "cli/squeue_args.hpp"
#include "cli/squeue_fields.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Job;
using drover::cli::test::plain_job;
using drover::cli::test::Records;

namespace {

constexpr int64_t kNow = 1700000000; // 2023-11-14T22:13:20 UTC

void utc() {
    setenv("TZ", "UTC", 1);
    tzset();
}

// The pending record of array 123 with tasks 4-15 waiting and a %2 throttle.
Job record() {
    Job j;
    j.id = 123;
    j.name = "arr";
    j.array_job_id = 123;
    j.array_tasks = "4-15";
    j.array_max_running = 2;
    j.reason = "JobArrayTaskLimit";
    j.submit = kNow - 30;
    return j;
}

// Task 3 of array 123, running as job 126.
Job task3() {
    Job j;
    j.id = 126;
    j.name = "arr";
    j.array_job_id = 123;
    j.array_task_id = 3;
    j.state = DROVER_JOB_RUNNING;
    j.submit = kNow - 30;
    j.start = kNow - 10;
    j.nodes = j.batch_host = "n1";
    return j;
}

std::string line(const char *fmt, const proto::JobInfo &j, uint32_t task = DROVER_NO_VAL) {
    return squeue_line(squeue_percent_format(fmt), j, kNow, task);
}

std::vector<std::string> rows_of(const std::vector<const proto::JobInfo *> &jobs, bool expand,
                                 const std::vector<JobSpec> &specs, const char *fmt = "%i") {
    std::vector<std::string> out;
    SqueueFormat f = squeue_percent_format(fmt);
    for (const auto &r : squeue_rows(jobs, expand, specs)) out.push_back(squeue_line(f, r, kNow));
    return out;
}

std::string error_of(const std::function<void()> &fn) {
    try {
        fn();
    } catch (const ParseError &e) {
        return e.what();
    } catch (const UsageError &e) {
        return std::string("usage: ") + e.what();
    }
    return "no error";
}

} // namespace

TEST(JobSpecs, Parse) {
    auto s = parse_job_spec("123");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->job_id, 123u);
    EXPECT_FALSE(s->has_tasks);
    s = parse_job_spec(" 123_4 ");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->text, "123_4");
    EXPECT_TRUE(s->has_tasks);
    EXPECT_EQ(s->tasks, (std::vector<TaskRange>{{4, 4}}));
    s = parse_job_spec("123_[1-3,7]");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->tasks, (std::vector<TaskRange>{{1, 3}, {7, 7}}));
    s = parse_job_spec("123_[4-15%2]"); // as squeue prints a record
    ASSERT_TRUE(s);
    EXPECT_EQ(s->tasks, (std::vector<TaskRange>{{4, 15}}));
    // Steps: "J.S", "J.batch", "J_T.S".
    s = parse_job_spec("12.3");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->job_id, 12u);
    EXPECT_EQ(s->step_id, 3u);
    s = parse_job_spec("12_4.batch");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->tasks, (std::vector<TaskRange>{{4, 4}}));
    EXPECT_EQ(s->step_id, 0xfffffffbu);
    EXPECT_EQ(parse_job_spec("12")->step_id, 0xfffffffeu);
    for (const char *bad : {"", "0", "x", "12_", "12_x", "12_[3-1]", "12_[1-2", "12_1-3", "12_[]",
                            "12_[1,,2]", "-1", "12.x", "12.", ".1", "12_[1-2%x]"})
        EXPECT_FALSE(parse_job_spec(bad)) << bad;
    EXPECT_EQ(split_job_specs("1,2_[3,4],5"), (std::vector<std::string>{"1", "2_[3,4]", "5"}));
    auto list = parse_job_spec_list("7, 8_[1,3]", "bad: ");
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[1].text, "8_[1,3]");
    EXPECT_EQ(error_of([] { parse_job_spec_list("7,8_y", "Invalid job id: "); }),
              "Invalid job id: 8_y");
    EXPECT_EQ(spec_job_ids(parse_job_spec_list("7,8_1,7_2", "")), (std::vector<uint32_t>{7, 8}));
    EXPECT_EQ(expand_tasks({{3, 5}, {4, 6}}, 10), (std::vector<uint32_t>{3, 4, 5, 6}));
    EXPECT_FALSE(expand_tasks({{0, 4000000}}, 100000));
}

TEST(JobSpecs, Matches) {
    Records rec;
    auto jobs = rec.jobs({record(), task3(), plain_job(200)});
    const proto::JobInfo &rec_j = *jobs[0], &t3 = *jobs[1], &p = *jobs[2];
    auto spec = [](const char *t) { return *parse_job_spec(t); };
    EXPECT_TRUE(spec("123").matches(rec_j));
    EXPECT_TRUE(spec("123").matches(t3)); // a bare array id names every task
    EXPECT_FALSE(spec("123").matches(p));
    EXPECT_TRUE(spec("126").matches(t3)); // a task's own job id
    EXPECT_TRUE(spec("123_3").matches(t3));
    EXPECT_FALSE(spec("123_3").matches(rec_j));
    EXPECT_TRUE(spec("123_4").matches(rec_j)); // still waiting in the record
    EXPECT_TRUE(spec("123_[1-4]").matches(rec_j));
    EXPECT_TRUE(spec("123_[1-4]").matches(t3));
    EXPECT_FALSE(spec("123_[16-20]").matches(rec_j));
    EXPECT_FALSE(spec("200_1").matches(p));
    EXPECT_TRUE(spec("200").matches(p));
}

TEST(SqueueArrays, JobIdColumns) {
    Records rec;
    auto jobs = rec.jobs({record(), task3(), plain_job(200)});
    // %i: the record compressed, a task as ARRAYID_TASK, a plain job as its id.
    EXPECT_EQ(line("%i", *jobs[0]), "123_[4-15%2]");
    EXPECT_EQ(line("%i", *jobs[1]), "123_3");
    EXPECT_EQ(line("%i", *jobs[2]), "200");
    // %A is the job's own id; %F the array's; %K the task (or the record's waiting tasks).
    EXPECT_EQ(line("%A|%F|%K", *jobs[0]), "123|123|4-15%2");
    EXPECT_EQ(line("%A|%F|%K", *jobs[1]), "126|123|3");
    EXPECT_EQ(line("%A|%F|%K", *jobs[2]), "200|200|N/A");
    EXPECT_EQ(line("%.18i|", *jobs[0]), "      123_[4-15%2]|");
    // The -O names.
    SqueueFormat f = squeue_long_format("ArrayJobID:8,ArrayTaskID:8,JobArrayID:14,JobID:5");
    EXPECT_EQ(squeue_header(f), "ARRAY_JOARRAY_TAJOBID         JOBID");
    EXPECT_EQ(squeue_line(f, *jobs[1], kNow), "123     3       123_3         126  ");
    EXPECT_EQ(squeue_line(f, *jobs[0], kNow), "123     4-15%2  123_[4-15%2]  123  ");
}

TEST(SqueueArrays, RecordWithoutThrottleAndSteps) {
    Records rec;
    Job a = record();
    a.array_max_running = 0;
    a.array_tasks = "0-3,5,9";
    Job b = record();
    b.array_max_running = 0;
    b.array_tasks = "1,5,9,13,17,21"; // an even spread over more than ten ids
    Job c = record();
    c.array_max_running = 0;
    c.array_tasks = "1,3,5,7"; // over fewer: as a list
    auto jobs = rec.jobs({a, b, c});
    EXPECT_EQ(line("%i", *jobs[0]), "123_[0-3,5,9]");
    EXPECT_EQ(line("%i", *jobs[1]), "123_[1-21:4]");
    EXPECT_EQ(line("%i", *jobs[2]), "123_[1,3,5,7]");
}

TEST(SqueueArrays, ExpandWithR) {
    Records rec;
    Job r = record();
    r.array_tasks = "4-6,9";
    auto jobs = rec.jobs({task3(), r, plain_job(200)});
    EXPECT_EQ(rows_of(jobs, false, {}),
              (std::vector<std::string>{"123_3", "123_[4-6,9%2]", "200"}));
    EXPECT_EQ(rows_of(jobs, true, {}),
              (std::vector<std::string>{"123_3", "123_4", "123_5", "123_6", "123_9", "200"}));
    // Each expanded line is that task: %K its id, the rest the record's.
    EXPECT_EQ(rows_of(jobs, true, {}, "%i %A %F %K %t %r")[2],
              "123_5 123 123 5 PD JobArrayTaskLimit");
}

TEST(SqueueArrays, JobsOptionWithTasks) {
    SqueueArgs a = parse_squeue_args(std::vector<std::string>{"-j", "123_4,123_[5-6],200", "-r"});
    EXPECT_TRUE(a.array);
    EXPECT_EQ(a.job_ids, (std::vector<uint32_t>{123, 200})); // what the controller is asked for
    ASSERT_EQ(a.job_specs.size(), 3u);
    EXPECT_EQ(error_of([] {
                  parse_squeue_args(std::vector<std::string>{"-j", "123_x"});
              }),
              "Invalid job id: 123_x");

    Records rec;
    auto jobs = rec.jobs({task3(), record(), plain_job(200)});
    auto filter = [](std::vector<std::string> args) {
        return make_squeue_filter(parse_squeue_args(args), 1000);
    };
    SqueueFilter f = filter({"-j", "123_3"});
    EXPECT_TRUE(f.keep(*jobs[0]));
    EXPECT_FALSE(f.keep(*jobs[1]));
    EXPECT_FALSE(f.keep(*jobs[2]));
    f = filter({"-j", "123"}); // the whole array: tasks and record
    EXPECT_TRUE(f.keep(*jobs[0]));
    EXPECT_TRUE(f.keep(*jobs[1]));
    EXPECT_FALSE(f.keep(*jobs[2]));

    // Naming waiting tasks shows just those: the record cut down to them (one task as itself).
    SqueueArgs some = parse_squeue_args(std::vector<std::string>{"-j", "123_[5-6,20],123_9"});
    std::vector<const proto::JobInfo *> kept;
    SqueueFilter sf = make_squeue_filter(some, 1000);
    for (const auto *j : jobs)
        if (sf.keep(*j)) kept.push_back(j);
    EXPECT_EQ(rows_of(kept, some.array, some.job_specs, "%i %K %T"),
              (std::vector<std::string>{"123_[5-6,9] 5-6,9 PENDING"}));
    EXPECT_EQ(rows_of(kept, true, some.job_specs, "%i"),
              (std::vector<std::string>{"123_5", "123_6", "123_9"}));
    SqueueArgs one = parse_squeue_args(std::vector<std::string>{"-h", "-j", "123_4", "-o", "%T"});
    EXPECT_EQ(rows_of({jobs[1]}, one.array, one.job_specs, "%i %K"),
              (std::vector<std::string>{"123_4 4"}));
    // Finished jobs show only with -t, even when named (as in Slurm).
    Job done = task3();
    done.state = DROVER_JOB_COMPLETE;
    auto finished = rec.jobs({done});
    EXPECT_FALSE(filter({"-j", "123_3"}).keep(*finished[0]));
    EXPECT_TRUE(filter({"-j", "123_3", "-t", "all"}).keep(*finished[0]));
    // A bare id keeps the record compressed.
    SqueueArgs whole = parse_squeue_args(std::vector<std::string>{"-j", "123"});
    EXPECT_EQ(rows_of({jobs[0], jobs[1]}, whole.array, whole.job_specs),
              (std::vector<std::string>{"123_3", "123_[4-15%2]"}));
}

TEST(SqueueDependency, UnmetTermsAndReasons) {
    Records rec;
    Job waiting = plain_job(20);
    waiting.reason = "Dependency";
    waiting.dependency = "afterok:12";
    Job two = plain_job(21);
    two.reason = "Dependency";
    two.dependency = "afterok:12,afterany:14_3";
    Job either = plain_job(22);
    either.reason = "DependencyNeverSatisfied";
    either.dependency = "afterok:12?afternotok:13";
    Job never = plain_job(23);
    never.reason = "DependencyNeverSatisfied";
    never.dependency = "afterok:12";
    Job single = plain_job(24);
    single.reason = "Dependency";
    single.dependency = "singleton";
    Job delay = plain_job(25);
    delay.reason = "Dependency";
    delay.dependency = "after:12+5";
    auto jobs = rec.jobs({waiting, two, either, never, single, delay, plain_job(26)});
    EXPECT_EQ(line("%E", *jobs[0]), "afterok:12(unfulfilled)");
    EXPECT_EQ(line("%E", *jobs[1]), "afterok:12(unfulfilled),afterany:14_3(unfulfilled)");
    EXPECT_EQ(line("%E", *jobs[2]), "afterok:12(failed)?afternotok:13(failed)");
    EXPECT_EQ(line("%E", *jobs[3]), "afterok:12(failed)");
    EXPECT_EQ(line("%E", *jobs[4]), "singleton(unfulfilled)");
    EXPECT_EQ(line("%E", *jobs[5]), "after:12+5(unfulfilled)");
    EXPECT_EQ(line("%E", *jobs[6]), "(null)");
    EXPECT_EQ(line("%t %r", *jobs[0]), "PD Dependency");
    EXPECT_EQ(line("%t %r", *jobs[3]), "PD DependencyNeverSatisfied");
    EXPECT_EQ(line("%R", *jobs[3]), "(DependencyNeverSatisfied)");
    SqueueFormat f = squeue_long_format("Dependency:30,Reason:12");
    EXPECT_EQ(squeue_header(f), "DEPENDENCY                    REASON      ");
    EXPECT_EQ(squeue_line(f, *jobs[0], kNow), "afterok:12(unfulfilled)       Dependency  ");
}

TEST(SqueueFields, StartTimeAndResources) {
    utc();
    Records rec;
    Job pend = plain_job(30);
    pend.start = kNow + 600; // the expected start of a pending job
    Job unknown = plain_job(31);
    Job res = plain_job(32);
    res.nice = 50;
    res.constraint = "a100";
    res.req_nodes = "n[1-2]";
    res.exc_nodes = "n3";
    res.gres = "gpu:2";
    res.tmp_disk_mb = 10240;
    res.mem_per_cpu_mb = 512;
    res.contiguous = true;
    res.share = DROVER_SHARE_OVERSUB;
    res.sched_nodes = "n1";
    auto jobs = rec.jobs({pend, unknown, res});
    EXPECT_EQ(line("%S", *jobs[0]), "2023-11-14T22:23:20");
    EXPECT_EQ(line("%S", *jobs[1]), "N/A");
    SqueueFormat f = squeue_long_format("StartTime:20,Reason:10");
    EXPECT_EQ(squeue_line(f, *jobs[1], kNow), "N/A                 Priority  ");
    EXPECT_EQ(line("%y|%f|%n|%x|%b|%d|%m|%O|%h|%Y", *jobs[2]),
              "50|a100|n[1-2]|n3|gres/gpu:2|10G|512M|1|YES|n1");
    EXPECT_EQ(line("%y|%f|%b|%h|%Y", *jobs[1]), "0|(null)|N/A|OK|(null)");
}

TEST(ScontrolShowArrays, RecordAndTask) {
    utc();
    Records rec;
    Job r = record();
    r.dependency = "afterok:7";
    r.reason = "Dependency";
    r.nice = 10;
    r.start = kNow + 60;
    r.limit = 10;
    r.sched_nodes = "n2";
    Job t = task3();
    t.requeue = false;
    t.restarts = 2;
    auto jobs = rec.jobs({r, t});
    std::string s = show_job(*jobs[0], kNow, false);
    EXPECT_TRUE(s.starts_with(
        "JobId=123 ArrayJobId=123 ArrayTaskId=4-15%2 ArrayTaskThrottle=2 JobName=arr\n"))
        << s;
    EXPECT_NE(s.find("\n   Priority=100 Nice=10 Account=(null) QOS=normal\n"), std::string::npos);
    EXPECT_NE(s.find("\n   JobState=PENDING Reason=Dependency Dependency=afterok:7(unfulfilled)\n"),
              std::string::npos);
    EXPECT_NE(
        s.find("\n   StartTime=2023-11-14T22:14:20 EndTime=2023-11-14T22:24:20 Deadline=N/A\n"),
        std::string::npos);
    EXPECT_NE(s.find("\n   NodeList=(null) SchedNodeList=n2\n"), std::string::npos);
    std::string ts = show_job(*jobs[1], kNow, false);
    EXPECT_TRUE(ts.starts_with("JobId=126 ArrayJobId=123 ArrayTaskId=3 JobName=arr\n")) << ts;
    EXPECT_NE(ts.find("\n   Requeue=0 Restarts=2 BatchFlag=1 Reboot=0 ExitCode=0:0\n"),
              std::string::npos);
    EXPECT_NE(ts.find("\n   Priority=100 Nice=0 "), std::string::npos);
    EXPECT_EQ(ts.find("DerivedExitCode"), std::string::npos);
    EXPECT_EQ(ts.find("ArrayTaskThrottle"), std::string::npos);
}

TEST(ScontrolShowArrays, ResourcesAndDetails) {
    utc();
    Records rec;
    Job j = task3();
    j.id = 40;
    j.array_job_id = 0;
    j.array_task_id = DROVER_NO_VAL;
    j.nodes = "n[1-3]";
    j.num_cpus = 6;
    j.mem_per_cpu_mb = 1024;
    j.tmp_disk_mb = 2048;
    j.gres = "gpu:2";
    j.gpus_per_task = 1;
    j.constraint = "a100";
    j.req_nodes = "n[1-3]";
    j.exc_nodes = "n4";
    j.ntasks_per_node = 2;
    j.deadline = kNow + 3600;
    j.node_alloc = {{"n1", 2, "0-1", 2048, "gpu:0-1"},
                    {"n2", 2, "0-1", 2048, "gpu:0-1"},
                    {"n3", 2, "2-3", 2048, ""}};
    auto jobs = rec.jobs({j});
    std::string s = show_job(*jobs[0], kNow, false, true);
    EXPECT_NE(s.find("\n   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n   "
                     "DerivedExitCode=0:0\n"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find(" Deadline=2023-11-14T23:13:20\n"), std::string::npos);
    EXPECT_NE(s.find("\n   ReqNodeList=n[1-3] ExcNodeList=n4\n"), std::string::npos);
    EXPECT_NE(s.find("\n   TRES=cpu=6,mem=6G,node=3,billing=6,gres/gpu=4\n"), std::string::npos);
    EXPECT_NE(s.find("\n   Socks/Node=* NtasksPerN:B:S:C=2:0:*:* CoreSpec=*\n"
                     "   JOB_GRES=gpu:4\n"
                     "     Nodes=n[1-2] CPU_IDs=0-1 Mem=2048 GRES=gpu:2(IDX:0-1)\n"
                     "     Nodes=n3 CPU_IDs=2-3 Mem=2048 GRES=\n"
                     "   MinCPUsNode=1 MinMemoryCPU=1G MinTmpDiskNode=2G\n"
                     "   Features=a100 DelayBoot=00:00:00\n"),
              std::string::npos)
        << s;
    EXPECT_TRUE(
        s.ends_with("\n   Power=\n   TresPerNode=gres/gpu:2\n   TresPerTask=gres/gpu:1\n\n"))
        << s;
    // Without -d there are no per-node lines.
    std::string plain_s = show_job(*jobs[0], kNow, false);
    EXPECT_EQ(plain_s.find("Nodes=n[1-2]"), std::string::npos);
    EXPECT_EQ(plain_s.find("JOB_GRES"), std::string::npos);
    // One line: the per-node part goes with the rest.
    std::string one = show_job(*jobs[0], kNow, true, true);
    EXPECT_NE(
        one.find(" JOB_GRES=gpu:4 Nodes=n[1-2] CPU_IDs=0-1 Mem=2048 GRES=gpu:2(IDX:0-1) Nodes=n3 "),
        std::string::npos)
        << one;
    EXPECT_EQ(gres_with_indexes("gpu:0-1,nic:3"), "gpu:2(IDX:0-1),nic:1(IDX:3)");
    EXPECT_EQ(gres_with_indexes(""), "");
}

TEST(ScontrolShowArrays, TresPerJobAndMemoryPerNode) {
    Records rec;
    Job j = plain_job(50);
    j.gpus = 4;
    j.gpus_per_node = 2;
    j.mem_mb = 4096;
    auto jobs = rec.jobs({j});
    std::string s = show_job(*jobs[0], kNow, true);
    EXPECT_NE(s.find(" MinCPUsNode=1 MinMemoryNode=4G MinTmpDiskNode=0 "), std::string::npos);
    EXPECT_NE(s.find(" Power= TresPerJob=gres/gpu:4 TresPerNode=gres/gpu:2\n"), std::string::npos)
        << s;
}

TEST(ScontrolArrays, CommandsAndUpdates) {
    EXPECT_EQ(match_scontrol_command("requeue"), ScontrolCmd::requeue);
    EXPECT_EQ(match_scontrol_command("req"), ScontrolCmd::requeue);
    EXPECT_EQ(match_scontrol_command("requeuehold"), ScontrolCmd::requeuehold);
    EXPECT_EQ(match_scontrol_command("top"), ScontrolCmd::top);
    EXPECT_EQ(match_scontrol_command("release"), ScontrolCmd::release);
    EXPECT_FALSE(match_scontrol_command("re"));
    // Slurm's shortest forms: "su" for suspend, "res" for resume.
    EXPECT_EQ(match_scontrol_command("su"), ScontrolCmd::suspend);
    EXPECT_EQ(match_scontrol_command("suspend"), ScontrolCmd::suspend);
    EXPECT_EQ(match_scontrol_command("res"), ScontrolCmd::resume);
    EXPECT_EQ(match_scontrol_command("RESUME"), ScontrolCmd::resume);
    EXPECT_FALSE(match_scontrol_command("s")) << "show or suspend";

    JobUpdate u = parse_job_update(std::vector<std::string>{
        "JobId=123_4", "dependency=afterany:7", "Features=a100", "StartTime=now+1hour", "Nice=-5",
        "requeue=0", "PRIORITY=9", "numnodes=2", "Partition=p", "Name=n", "TimeLimit=5",
        "Comment=c"});
    ASSERT_EQ(u.jobs.size(), 1u);
    EXPECT_EQ(u.jobs[0].text, "123_4");
    std::vector<std::pair<std::string, std::string>> want = {{"Dependency", "afterany:7"},
                                                             {"Features", "a100"},
                                                             {"StartTime", "now+1hour"},
                                                             {"Nice", "-5"},
                                                             {"Requeue", "0"},
                                                             {"Priority", "9"},
                                                             {"NumNodes", "2"},
                                                             {"Partition", "p"},
                                                             {"Name", "n"},
                                                             {"TimeLimit", "5"},
                                                             {"Comment", "c"}};
    EXPECT_EQ(u.fields, want);
    EXPECT_EQ(parse_job_update(std::vector<std::string>{"JobId=5", "Nice"}).fields[0],
              (std::pair<std::string, std::string>{"Nice", "100"}));
    EXPECT_EQ(parse_job_update(std::vector<std::string>{"JobId=5", "Dependency="}).fields[0],
              (std::pair<std::string, std::string>{"Dependency", ""}));
    auto job = [](std::vector<std::string> w) { return [w] { parse_job_update(w); }; };
    EXPECT_EQ(error_of(job({"JobId=5", "Nice=x"})), "Invalid Nice value: x");
    EXPECT_EQ(error_of(job({"JobId=5", "Requeue=yes"})), "Invalid Requeue value: yes");
    EXPECT_EQ(error_of(job({"JobId=5", "StartTime=whenever"})),
              "Invalid StartTime value: whenever");
    EXPECT_EQ(error_of(job({"JobId=5_x", "Nice=1"})), "Invalid job id specified: 5_x");

    // One request per job, or per task of a task list.
    auto targets =
        update_targets(parse_hold_ids(std::vector<std::string>{"5", "6_2", "JobId=7_[1-3]"}));
    std::vector<std::pair<uint32_t, std::string>> want_t = {
        {5, ""}, {6, "6_2"}, {7, "7_1"}, {7, "7_2"}, {7, "7_3"}};
    EXPECT_EQ(targets, want_t);
    EXPECT_EQ(
        error_of([] { update_targets(parse_hold_ids(std::vector<std::string>{"7_[0-4000000]"})); }),
        "Invalid job id specified: 7_[0-4000000]");
    EXPECT_EQ(error_of([] { parse_hold_ids(std::vector<std::string>{"7_"}); }),
              "Invalid job id specified: 7_");
}

TEST(ScancelArrays, Specs) {
    ScancelArgs a =
        parse_scancel_args(std::vector<std::string>{"123_4", "123_[6-8],124", "125_[1,3]"});
    ASSERT_EQ(a.jobs.size(), 4u);
    EXPECT_EQ(a.jobs[0].text, "123_4");
    EXPECT_EQ(a.jobs[1].text, "123_[6-8]");
    EXPECT_EQ(a.jobs[1].tasks, (std::vector<TaskRange>{{6, 8}}));
    EXPECT_EQ(a.jobs[2].text, "124");
    EXPECT_FALSE(a.jobs[2].has_tasks);
    EXPECT_EQ(a.jobs[3].text, "125_[1,3]");
    EXPECT_EQ(error_of([] { parse_scancel_args(std::vector<std::string>{"123_x"}); }),
              "Invalid job id 123_x");
    EXPECT_EQ(error_of([] { parse_scancel_args(std::vector<std::string>{"123_[2-1]"}); }),
              "Invalid job id 123_[2-1]");
}
