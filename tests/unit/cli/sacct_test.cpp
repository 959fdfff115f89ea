// sacct_test.cpp - sacct fields and widths, job and batch-step lines, the three layouts.
#include <gtest/gtest.h>

#include "cli/options.hpp"
#include "cli/sacct_args.hpp"
#include "cli/sacct_rows.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Acct;
using drover::cli::test::Records;

namespace {

constexpr int64_t kNow = 1700000000;

std::string render(const std::vector<const proto::AcctJob *> &jobs, const char *fields,
                   SacctLayout layout = SacctLayout::fixed, bool allocations = false,
                   bool header = true) {
    return sacct_render(parse_sacct_fields(fields), sacct_rows(jobs, allocations), layout, "|",
                        header, kNow);
}

Acct completed() {
    Acct a;
    a.id = 7;
    a.name = "test";
    return a;
}

} // namespace

TEST(Sacct, DefaultLayoutExact) {
    Records rec;
    auto jobs = rec.acct({completed()});
    EXPECT_EQ(render(jobs, kSacctDefaultFields),
              "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n"
              "------------ ---------- ---------- ---------- ---------- ---------- -------- \n"
              "7                  test      debug                     1  COMPLETED      0:0 \n"
              "7.batch           batch                                1  COMPLETED      0:0 \n");
    EXPECT_EQ(render(jobs, kSacctDefaultFields, SacctLayout::fixed, /*allocations=*/true, false),
              "7                  test      debug                     1  COMPLETED      0:0 \n");
}

TEST(Sacct, Parsable) {
    Records rec;
    Acct failed = completed();
    failed.id = 8;
    failed.state = DROVER_JOB_FAILED;
    failed.exit_status = 3 << 8;
    auto jobs = rec.acct({failed, completed()});
    EXPECT_EQ(render(jobs, "JobID,State,ExitCode", SacctLayout::parsable2),
              "JobID|State|ExitCode\n"
              "7|COMPLETED|0:0\n7.batch|COMPLETED|0:0\n"
              "8|FAILED|3:0\n8.batch|FAILED|3:0\n");
    EXPECT_EQ(render(jobs, "JobID,ExitCode", SacctLayout::parsable, true),
              "JobID|ExitCode|\n7|0:0|\n8|3:0|\n");
}

TEST(Sacct, CancelledTimeoutAndPending) {
    Records rec;
    Acct cancelled = completed();
    cancelled.state = DROVER_JOB_CANCELLED;
    cancelled.cancelled_by = 1000;
    cancelled.exit_status = 15; // killed by SIGTERM
    Acct timeout = completed();
    timeout.id = 9;
    timeout.state = DROVER_JOB_TIMEOUT;
    Acct pending = completed();
    pending.id = 10;
    pending.state = DROVER_JOB_PENDING;
    pending.start = pending.end = 0;
    pending.nodes = "";
    auto jobs = rec.acct({cancelled, timeout, pending});
    EXPECT_EQ(render(jobs, "JobID,State,ExitCode,Elapsed,NodeList,Start,End",
                     SacctLayout::parsable2, false, false),
              "7|CANCELLED by 1000|0:15|00:01:00|n1|" + std::string() +
                  sacct_value(parse_sacct_fields("Start")[0], {jobs[0], false}, kNow) + "|" +
                  sacct_value(parse_sacct_fields("End")[0], {jobs[0], false}, kNow) + "\n" +
                  "7.batch|CANCELLED|0:15|00:01:00|n1|" +
                  sacct_value(parse_sacct_fields("Start")[0], {jobs[0], true}, kNow) + "|" +
                  sacct_value(parse_sacct_fields("End")[0], {jobs[0], true}, kNow) + "\n" +
                  "9|TIMEOUT|0:0|00:01:00|n1|" +
                  sacct_value(parse_sacct_fields("Start")[0], {jobs[1], false}, kNow) + "|" +
                  sacct_value(parse_sacct_fields("End")[0], {jobs[1], false}, kNow) + "\n" +
                  "9.batch|CANCELLED|0:0|00:01:00|n1|" +
                  sacct_value(parse_sacct_fields("Start")[0], {jobs[1], true}, kNow) + "|" +
                  sacct_value(parse_sacct_fields("End")[0], {jobs[1], true}, kNow) + "\n" +
                  "10|PENDING|0:0|00:00:00|None assigned|Unknown|Unknown\n");
    // A value longer than its column ends in '+'.
    EXPECT_EQ(render(jobs, "JobID,State", SacctLayout::fixed, true, false),
              "7            CANCELLED+ \n9               TIMEOUT \n10              PENDING \n");
}

TEST(Sacct, RunningElapsedUsesNow) {
    Records rec;
    Acct running = completed();
    running.state = DROVER_JOB_RUNNING;
    running.start = kNow - 3725;
    running.end = 0;
    auto jobs = rec.acct({running});
    EXPECT_EQ(
        render(jobs, "JobID,State,Elapsed,End,Timelimit", SacctLayout::parsable2, false, false),
        "7|RUNNING|01:02:05|Unknown|01:00:00\n7.batch|RUNNING|01:02:05|Unknown|\n");
}

TEST(Sacct, Fields) {
    auto f = parse_sacct_fields("jobid,JobName%30,elap,state%-12,ReqMem");
    ASSERT_EQ(f.size(), 5u);
    EXPECT_EQ(f[0].name, "JobID");
    EXPECT_EQ(f[0].width, -12);
    EXPECT_EQ(f[1].width, 30);
    EXPECT_EQ(f[2].name, "Elapsed");
    EXPECT_EQ(f[3].width, -12);
    try {
        parse_sacct_fields("JobID,Bogus");
        FAIL();
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Invalid field requested: \"Bogus\"");
    }
    // Torc's and OxyMake's field lists all parse.
    EXPECT_NO_THROW(
        parse_sacct_fields("JobName,MaxRSS,MaxVMSize,MaxDiskRead,MaxDiskWrite,AveCPU,NodeList"));
    EXPECT_NO_THROW(parse_sacct_fields(kSacctLongFields));
}

TEST(Sacct, Args) {
    SacctArgs a = parse_sacct_args(std::vector<std::string>{
        "-j", "12345,12346.batch", "--parsable2", "-n", "-o", "JobID,State", "-X", "-s", "CD,F"});
    EXPECT_EQ(a.job_ids, (std::vector<uint32_t>{12345, 12346}));
    EXPECT_TRUE(a.parsable2 && a.noheader && a.allocations);
    EXPECT_EQ(*a.format, "JobID,State");
    EXPECT_EQ(a.states.states.size(), 2u);
    a = parse_sacct_args(std::vector<std::string>{"--format", "JobID", "--format=State"});
    EXPECT_EQ(*a.format, "JobID,State");
    EXPECT_THROW(parse_sacct_args(std::vector<std::string>{"-j", "x"}), ParseError);
    EXPECT_THROW(parse_sacct_args(std::vector<std::string>{"--nope"}), UsageError);
}
