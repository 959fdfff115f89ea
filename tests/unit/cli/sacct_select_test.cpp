// sacct_select_test.cpp - sacct -j items and the lines they keep, -S/-E time forms, Slurm's fatal
// mistakes, ReqMem and DerivedExitCode.
#include <drover/proctrack.h>
#include <gtest/gtest.h>

#include <ctime>

#include "cli/sacct_args.hpp"
#include "cli/sacct_select.hpp"
#include "cli/sacct_time.hpp"
#include "common/timefmt.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Acct;
using drover::cli::test::AcctStepSpec;
using drover::cli::test::Records;

namespace {

constexpr int64_t kNow = 1700000000;

SacctArgs args(std::vector<std::string> v) {
    return parse_sacct_args(v);
}

std::string fatal_of(std::vector<std::string> v) {
    try {
        args(std::move(v));
    } catch (const SacctFatal &e) {
        return e.what();
    }
    return "(none)";
}

// Job 5 with batch, extern and step 0; array task 40_4 (job 50) with step 0.
std::vector<const proto::AcctJob *> history(Records &rec) {
    Acct j;
    j.id = 5;
    AcctStepSpec batch, ext, zero;
    batch.id = DROVER_STEP_BATCH;
    ext.id = DROVER_STEP_EXTERN;
    zero.id = 0;
    j.steps = {batch, ext, zero};
    Acct t;
    t.id = 50;
    t.array_job_id = 40;
    t.array_task_id = 4;
    t.steps = {zero};
    return rec.acct({j, t});
}

std::string lines(const std::vector<const proto::AcctJob *> &jobs, const char *sel) {
    auto rows = sacct_select_rows(sacct_rows(jobs, false), parse_sacct_jobs(sel));
    return sacct_render(parse_sacct_fields("JobID"), rows, SacctLayout::parsable2, "|", false,
                        kNow);
}

} // namespace

TEST(SacctSelect, JobsAndStepsByName) {
    Records rec;
    auto jobs = history(rec);
    EXPECT_EQ(lines(jobs, "5"), "5\n5.batch\n5.extern\n5.0\n");
    EXPECT_EQ(lines(jobs, "5.batch"), "5.batch\n");
    EXPECT_EQ(lines(jobs, "5.extern,5.0"), "5.extern\n5.0\n");
    EXPECT_EQ(lines(jobs, "5.7"), "");
    EXPECT_EQ(lines(jobs, "40"), "40_4\n40_4.0\n");
    EXPECT_EQ(lines(jobs, "40_4.0"), "40_4.0\n");
    EXPECT_EQ(lines(jobs, "40_[1-5]"), "40_4\n40_4.0\n");
    EXPECT_EQ(lines(jobs, "40_3"), "");
    EXPECT_EQ(lines(jobs, "50"), "40_4\n40_4.0\n"); // a task by its own id
    EXPECT_EQ(sacct_job_ids(parse_sacct_jobs("5.batch,40_4,5")), (std::vector<uint32_t>{5, 40}));
}

TEST(SacctSelect, MalformedIdsAreFatalAsInSlurm) {
    EXPECT_EQ(fatal_of({"-j", "abc"}), "Bad job/step specified: abc");
    EXPECT_EQ(fatal_of({"-j", "12,x1"}), "Bad job/step specified: x1");
    EXPECT_EQ(fatal_of({"-j", "0"}), "Bad job/step specified: 0");
    EXPECT_EQ(fatal_of({"-j", "12_[3"}), "Bad job/step specified: 12_[3");
    EXPECT_EQ(fatal_of({"-j", "12.bogus"}), "Bad step specified: 12.bogus");
    EXPECT_EQ(fatal_of({"-s", "CD,nope"}), "unrecognized job state value 'nope'");
    EXPECT_EQ(fatal_of({"--units", "X"}), "Invalid unit type");
    EXPECT_EQ(fatal_of({"-j", "12.batch,13_2.0", "-s", "cd,F,to,ca,nf,oom,rq"}), "(none)");
}

TEST(SacctSelect, ClustersAndDuplicates) {
    SacctArgs a = args({"-M", "Alpha,beta", "-D"});
    EXPECT_EQ(a.clusters, (std::vector<std::string>{"alpha", "beta"}));
    EXPECT_TRUE(a.duplicates);
    EXPECT_FALSE(a.all_clusters);
    EXPECT_TRUE(args({"-M", "alpha", "-M", "all"}).clusters.empty());
    EXPECT_TRUE(args({"-M", "alpha", "-M", "all"}).all_clusters);
    EXPECT_TRUE(args({"-M", "alpha", "-L"}).clusters.empty());
    EXPECT_TRUE(args({"-M", "alpha", "-L"}).all_clusters);
    EXPECT_FALSE(args({"-L", "-M", "alpha"}).all_clusters) << "a later -M names its clusters";
    EXPECT_FALSE(args({}).all_clusters) << "no -M: the controller's own cluster";
}

TEST(SacctTime, SlurmsFormsReadAsPast) {
    // A fixed "now": 2023-11-14 22:13:20 UTC; compare in local time through parse_timestamp.
    auto at = [](const char *iso) { return parse_timestamp(iso, kNow); };
    std::tm tm{};
    std::time_t t = kNow;
    localtime_r(&t, &tm);
    char today[16], yday[16];
    std::strftime(today, sizeof today, "%Y-%m-%d", &tm);
    std::time_t y = kNow - 86400;
    std::tm ytm{};
    localtime_r(&y, &ytm);
    std::strftime(yday, sizeof yday, "%Y-%m-%d", &ytm);
    int year = tm.tm_year + 1900;
    EXPECT_EQ(parse_sacct_time("2023-01-02T03:04:05", kNow), at("2023-01-02T03:04:05"));
    EXPECT_EQ(parse_sacct_time("2023-01-02", kNow), at("2023-01-02"));
    EXPECT_EQ(parse_sacct_time("0102", kNow), at((std::to_string(year) + "-01-02").c_str()));
    EXPECT_EQ(parse_sacct_time("010223", kNow), at("2023-01-02"));
    EXPECT_EQ(parse_sacct_time("01.02.23", kNow), at("2023-01-02"));
    EXPECT_EQ(parse_sacct_time("01/02/23-10:30", kNow), at("2023-01-02T10:30"));
    EXPECT_EQ(parse_sacct_time("01/02", kNow), at((std::to_string(year) + "-01-02").c_str()));
    // A date still ahead this year means last year's; a clock time still ahead, yesterday's.
    EXPECT_EQ(parse_sacct_time("12/31", kNow), at((std::to_string(year - 1) + "-12-31").c_str()));
    EXPECT_EQ(parse_sacct_time("00:00", kNow), at((std::string(today) + "T00:00").c_str()));
    EXPECT_EQ(parse_sacct_time("23:59:59", kNow) <= kNow, true);
    EXPECT_EQ(parse_sacct_time("23:59:59", kNow),
              tm.tm_hour == 23 && tm.tm_min == 59 && tm.tm_sec == 59
                  ? kNow
                  : at((std::string(yday) + "T23:59:59").c_str()));
    EXPECT_EQ(parse_sacct_time("now-1hour", kNow), kNow - 3600);
    EXPECT_EQ(parse_sacct_time("today", kNow), at((std::string(today) + "T00:00").c_str()));
    EXPECT_THROW(parse_sacct_time("yesterdayish", kNow), ParseError);
    try {
        parse_sacct_time("13/45", kNow);
        FAIL();
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Invalid time specification: 13/45");
    }
}

TEST(SacctFields, ReqMemAndDerivedExitCode) {
    Records rec;
    Acct j;
    j.id = 9;
    j.req_mem = 4096; // per node, on 2 nodes: 8G in all
    j.alloc_nodes = 2;
    AcctStepSpec s0, s1, batch;
    s0.id = 0;
    s0.exit_status = 2 << 8;
    s1.id = 1;
    s1.exit_status = 9; // a signal, exit code 0: lower than 2:0
    batch.id = DROVER_STEP_BATCH;
    batch.exit_status = 7 << 8; // the batch step does not count
    j.steps = {s0, s1, batch};
    Acct k;
    k.id = 10;
    k.req_mem = 1536;
    auto jobs = rec.acct({j, k});
    auto out = sacct_render(parse_sacct_fields("JobID,ReqMem,DerivedExitCode"),
                            sacct_rows(jobs, false), SacctLayout::parsable2, "|", false, kNow);
    EXPECT_EQ(out, "9|8G|2:0\n9.batch||\n9.0||\n9.1||\n10|1.50G|0:0\n10.batch||\n");
    out = sacct_render(parse_sacct_fields("JobID,ReqMem"), sacct_rows(jobs, true),
                       SacctLayout::parsable2, "|", false, kNow, 'M');
    EXPECT_EQ(out, "9|8192M\n10|1536M\n");
}
