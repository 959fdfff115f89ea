// sacct_steps_test.cpp - sacct's step lines: ids, order, usage figures in Slurm's formats, -X.
#include <drover/proctrack.h>
#include <gtest/gtest.h>

#include "cli/sacct_rows.hpp"
#include "cli/sacct_steps.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Acct;
using drover::cli::test::AcctStepSpec;
using drover::cli::test::Records;

namespace {

constexpr int64_t kNow = 1700000000;

std::string render(const std::vector<const proto::AcctJob *> &jobs, const char *fields,
                   bool allocations = false, char units = 0) {
    return sacct_render(parse_sacct_fields(fields), sacct_rows(jobs, allocations),
                        SacctLayout::parsable2, "|", false, kNow, units);
}

AcctStepSpec batch() {
    AcctStepSpec s;
    s.id = DROVER_STEP_BATCH;
    s.name = "batch";
    s.cpus = 4;
    s.max_rss = uint64_t{2048576} * 1024; // not a whole or half MiB: stays in K
    s.max_rss_node = "n1";
    s.max_rss_task = 0;
    s.ave_rss = uint64_t{3} << 29; // 1.5 GiB
    s.max_vsize = uint64_t{4} << 30;
    s.max_vsize_node = "n1";
    s.ave_vsize = uint64_t{4} << 30;
    s.user_cpu_usec = 61'250'000; // 1:01.250
    s.sys_cpu_usec = 2'500'000;
    s.ave_cpu_usec = 63'750'000;
    s.min_cpu_usec = 63'750'000;
    s.max_disk_read = 1536;
    s.max_disk_read_node = "n1";
    s.max_disk_write = 1 << 20;
    s.max_disk_write_node = "n1";
    s.ave_disk_read = 1536;
    s.ave_disk_write = 1 << 20;
    return s;
}

AcctStepSpec numbered(uint32_t id) {
    AcctStepSpec s;
    s.id = id;
    s.name = "hostname";
    s.nodes = "n[1-2]";
    s.nodes_count = 2;
    s.tasks = 8;
    s.cpus = 8;
    s.start = 1020;
    s.end = 1030;
    s.user_cpu_usec = 3 * 3600 * 1000000ull + 5'000'000; // past an hour: no milliseconds
    s.sys_cpu_usec = 0;
    s.max_rss = 1 << 20;
    s.max_rss_node = "n2";
    s.max_rss_task = 5;
    return s;
}

Acct job_with_steps() {
    Acct a;
    a.id = 42;
    a.name = "sim";
    a.alloc_cpus = 8;
    a.alloc_nodes = 2;
    a.nodes = "n[1-2]";
    AcctStepSpec ext;
    ext.id = DROVER_STEP_EXTERN;
    ext.name = "extern";
    ext.nodes = "n[1-2]";
    ext.nodes_count = 2;
    ext.cpus = 8;
    a.steps = {numbered(1), numbered(0), ext, batch()}; // stored in any order
    return a;
}

} // namespace

TEST(SacctSteps, RowsFollowTheirJobInSlurmsOrder) {
    Records rec;
    auto jobs = rec.acct({job_with_steps()});
    EXPECT_EQ(render(jobs, "JobID,JobIDRaw,JobName,State,ExitCode,NodeList,AllocCPUS,NTasks"),
              "42|42|sim|COMPLETED|0:0|n[1-2]|8|\n"
              "42.batch|42.batch|batch|COMPLETED|0:0|n1|4|1\n"
              "42.extern|42.extern|extern|COMPLETED|0:0|n[1-2]|8|1\n"
              "42.0|42.0|hostname|COMPLETED|0:0|n[1-2]|8|8\n"
              "42.1|42.1|hostname|COMPLETED|0:0|n[1-2]|8|8\n");
    EXPECT_EQ(render(jobs, "JobID", /*allocations=*/true), "42\n");
}

TEST(SacctSteps, ArrayTaskStepIds) {
    Records rec;
    Acct task = job_with_steps();
    task.id = 50;
    task.array_job_id = 40;
    task.array_task_id = 4;
    task.steps = {numbered(0)};
    auto jobs = rec.acct({task});
    EXPECT_EQ(render(jobs, "JobID,JobIDRaw"), "40_4|50\n40_4.0|50.0\n");
}

TEST(SacctSteps, UsageFiguresInSlurmsFormats) {
    Records rec;
    auto jobs = rec.acct({job_with_steps()});
    const char *fields =
        "JobID,MaxRSS,MaxRSSNode,MaxRSSTask,AveRSS,MaxVMSize,MaxVMSizeNode,AveVMSize,AveCPU,"
        "MinCPU,TotalCPU,UserCPU,SystemCPU,MaxDiskRead,MaxDiskReadNode,MaxDiskWrite,"
        "MaxDiskWriteNode,AveDiskRead,AveDiskWrite,ConsumedEnergy";
    std::string out = render(jobs, fields);
    // The job's own line: usage blank, CPU totals the sum of its steps.
    EXPECT_EQ(out.substr(0, out.find('\n')), "42||||||||||06:01:13|06:01:11|00:02.500|||||||");
    EXPECT_NE(out.find("42.batch|2048576K|n1|0|1.50G|4G|n1|4G|00:01:03|00:01:03|01:03.750|"
                       "01:01.250|00:02.500|1.50K|n1|1M|n1|1.50K|1M|0\n"),
              std::string::npos)
        << out;
    EXPECT_NE(
        out.find("42.0|1M|n2|5|0|0||0|00:00:00|00:00:00|03:00:05|03:00:05|00:00:00|0||0||0|0|0\n"),
        std::string::npos)
        << out;
}

TEST(SacctSteps, Units) {
    EXPECT_EQ(sacct_size(0, 0), "0");
    EXPECT_EQ(sacct_size(1000, 0), "1000");
    EXPECT_EQ(sacct_size(1536, 0), "1.50K");
    EXPECT_EQ(sacct_size(uint64_t{1} << 30, 0), "1G");
    EXPECT_EQ(sacct_size(uint64_t{2048576} * 1024, 0), "2048576K");
    EXPECT_EQ(sacct_size(uint64_t{2048576} * 1024, 'M'), "2000.56M");
    EXPECT_EQ(sacct_size(uint64_t{1} << 30, 'K'), "1048576K");
    EXPECT_EQ(sacct_size(uint64_t{3} << 29, 'G'), "1.50G");
    Records rec;
    auto jobs = rec.acct({job_with_steps()});
    EXPECT_EQ(render(jobs, "JobID,MaxRSS", true, 'M'), "42|\n");
    std::string out = render(jobs, "JobID,MaxRSS,MaxVMSize", false, 'M');
    EXPECT_NE(out.find("42.batch|2000.56M|4096M\n"), std::string::npos) << out;
}

TEST(SacctSteps, CpuTimes) {
    EXPECT_EQ(sacct_cpu_time(0), "00:00:00");
    EXPECT_EQ(sacct_cpu_time(5'000'000), "00:00:05");
    EXPECT_EQ(sacct_cpu_time(5'123'456), "00:05.123");
    EXPECT_EQ(sacct_cpu_time(5'123'456, true), "00:00:05");
    EXPECT_EQ(sacct_cpu_time(3723'500'000), "01:02:03");
    EXPECT_EQ(sacct_cpu_time(uint64_t{90061} * 1000000), "1-01:01:01");
}

TEST(SacctSteps, RunningAndCancelledSteps) {
    Records rec;
    Acct a = job_with_steps();
    a.state = DROVER_JOB_CANCELLED;
    a.cancelled_by = 0;
    AcctStepSpec run = numbered(0);
    run.state = DROVER_JOB_RUNNING;
    run.start = kNow - 65;
    run.end = 0;
    AcctStepSpec gone = numbered(1);
    gone.state = DROVER_JOB_CANCELLED;
    gone.cancelled_by = 1000;
    gone.exit_status = 9;
    a.steps = {run, gone};
    auto jobs = rec.acct({a});
    // A running step has no usage yet (sstat reports it) and no end.
    EXPECT_EQ(render(jobs, "JobID,State,ExitCode,Elapsed,MaxRSS,TotalCPU"),
              "42|CANCELLED by 0|0:0|00:01:00||03:00:05\n"
              "42.0|RUNNING|0:0|00:01:05||\n"
              "42.1|CANCELLED by 1000|0:9|00:00:10|1M|03:00:05\n");
    EXPECT_EQ(
        sacct_value(parse_sacct_fields("End")[0], {jobs[0], false, jobs[0]->steps()->Get(0)}, kNow),
        "Unknown");
}

TEST(SacctSteps, WithoutStepRecordsTheBatchLineComesFromTheJob) {
    Records rec;
    Acct a;
    a.id = 7;
    auto jobs = rec.acct({a});
    EXPECT_EQ(render(jobs, "JobID,JobName,MaxRSS,TotalCPU"), "7|job||\n7.batch|batch||\n");
}
