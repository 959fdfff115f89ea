// squeue_test.cpp - format specs and widths, state codes, time columns, filters, sort, exact lines.
#include <gtest/gtest.h>

#include "cli/format_spec.hpp"
#include "cli/job_states.hpp"
#include "cli/options.hpp"
#include "cli/squeue_args.hpp"
#include "cli/squeue_fields.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Job;
using drover::cli::test::Records;

namespace {

constexpr int64_t kNow = 1700000000;

Job running() {
    Job j;
    j.id = 5;
    j.name = "sleeper";
    j.state = DROVER_JOB_RUNNING;
    j.submit = kNow - 100;
    j.start = kNow - 65;
    j.nodes = "n1";
    j.batch_host = "n1";
    j.limit = 30;
    return j;
}

Job pending() {
    Job j;
    j.id = 6;
    j.name = "averyverylongname";
    j.state = DROVER_JOB_PENDING;
    j.reason = "Resources";
    j.priority = 50;
    j.submit = kNow - 10;
    return j;
}

std::string render(const std::vector<const proto::JobInfo *> &jobs,
                   const char *fmt = kSqueueDefaultFormat) {
    SqueueFormat f = squeue_percent_format(fmt);
    std::string out = squeue_header(f) + "\n";
    for (const auto *j : jobs) out += squeue_line(f, *j, kNow) + "\n";
    return out;
}

} // namespace

TEST(FormatSpec, PercentFields) {
    FormatSpec f = parse_percent_format("id=%.18i %9P%j|%%%T");
    EXPECT_EQ(f.prefix, "id=");
    ASSERT_EQ(f.fields.size(), 4u);
    EXPECT_EQ(f.fields[0].type, 'i');
    EXPECT_TRUE(f.fields[0].right);
    EXPECT_EQ(f.fields[0].width, 18);
    EXPECT_EQ(f.fields[0].suffix, " ");
    EXPECT_FALSE(f.fields[1].right);
    EXPECT_EQ(f.fields[1].width, 9);
    EXPECT_EQ(f.fields[1].suffix, "");
    EXPECT_EQ(f.fields[2].suffix, "|%");
    EXPECT_EQ(f.fields[3].width, 0);
    FormatSpec h = parse_percent_format("%#P %.#N");
    EXPECT_TRUE(h.fields[0].hash);
    EXPECT_TRUE(h.fields[1].hash && h.fields[1].right);
    EXPECT_THROW(parse_percent_format("%.5"), ParseError);
    EXPECT_THROW(parse_percent_format("abc%"), ParseError);
}

TEST(FormatSpec, LongFields) {
    FormatSpec f = parse_long_format("JobID:6,Name:.5,State, Partition:12|");
    ASSERT_EQ(f.fields.size(), 4u);
    EXPECT_EQ(f.fields[0].width, 6);
    EXPECT_TRUE(f.fields[1].right);
    EXPECT_EQ(f.fields[2].width, 20);
    EXPECT_EQ(f.fields[3].name, "Partition");
    EXPECT_EQ(f.fields[3].suffix, "|");
    EXPECT_THROW(parse_long_format("JobID:.x"), ParseError);
}

TEST(FormatSpec, FitCutsAndPads) {
    EXPECT_EQ(fit("abc", 5, false), "abc  ");
    EXPECT_EQ(fit("abc", 5, true), "  abc");
    EXPECT_EQ(fit("abcdefgh", 3, true), "abc");
    EXPECT_EQ(fit("abcdefgh", 3, false), "abc");
    EXPECT_EQ(fit("abcdefgh", 3, false, false), "abcdefgh");
    EXPECT_EQ(fit("abc", 0, true), "abc");
}

TEST(JobStates, NamesAndCodes) {
    EXPECT_STREQ(job_state_compact(DROVER_JOB_PENDING), "PD");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_RUNNING), "R");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_COMPLETE), "CD");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_CANCELLED), "CA");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_FAILED), "F");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_TIMEOUT), "TO");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_NODE_FAIL), "NF");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_PREEMPTED), "PR");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_OOM), "OOM");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_SUSPENDED), "S");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_BOOT_FAIL), "BF");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_DEADLINE), "DL");
    EXPECT_STREQ(job_state_long(DROVER_JOB_OOM), "OUT_OF_MEMORY");
    EXPECT_STREQ(job_state_long(DROVER_JOB_RUNNING | kJobFlagCompleting), "COMPLETING");
    EXPECT_STREQ(job_state_compact(DROVER_JOB_RUNNING | kJobFlagCompleting), "CG");
    EXPECT_TRUE(job_is_active(DROVER_JOB_COMPLETE | kJobFlagCompleting));
    EXPECT_FALSE(job_is_active(DROVER_JOB_COMPLETE));
    EXPECT_EQ(parse_job_state("pd"), DROVER_JOB_PENDING);
    EXPECT_EQ(parse_job_state("Running"), DROVER_JOB_RUNNING);
    EXPECT_EQ(parse_job_state("cg"), kStateCompleting);
    EXPECT_FALSE(parse_job_state("sleeping"));
    EXPECT_EQ(exit_code_string(0), "0:0");
    EXPECT_EQ(exit_code_string(3 << 8), "3:0");
    EXPECT_EQ(exit_code_string(9), "0:9");
    try {
        parse_job_state_list("R,bogus");
        FAIL();
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Invalid job state specified: bogus");
    }
}

TEST(Squeue, DefaultFormatExact) {
    Records rec;
    auto jobs = rec.jobs({running(), pending()});
    EXPECT_EQ(
        render(jobs),
        "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n"
        "                 5     debug  sleeper    alice  R       1:05      1 n1\n"
        "                 6     debug averyver    alice PD       0:00      1 (Resources)\n");
}

TEST(Squeue, LongFormatAndTimes) {
    Records rec;
    Job j = running();
    j.start = kNow - 90061;
    j.limit = 2 * 24 * 60;
    auto jobs = rec.jobs({j});
    EXPECT_EQ(render(jobs, kSqueueLongFormat),
              "             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES "
              "NODELIST(REASON)\n"
              "                 5     debug  sleeper    alice  RUNNING 1-01:01:01 2-00:00:00      "
              "1 n1\n");
    EXPECT_EQ(render(jobs, "%M|%l|%L"), "TIME|TIME_LIMIT|TIME_LEFT\n"
                                        "1-01:01:01|2-00:00:00|22:58:59\n");
}

// The time a job spent suspended is not its run time (Slurm's squeue TIME and TIME_LEFT).
TEST(Squeue, SuspendedTimeIsNotRunTime) {
    Records rec;
    Job s = running();
    s.state = DROVER_JOB_SUSPENDED;
    s.start = kNow - 3600;
    s.limit = 120;
    s.suspend_time = kNow - 3000; // suspended after 600 s, 3000 s ago
    s.pre_suspend_secs = 600;
    Job r = s;
    r.id = 7;
    r.state = DROVER_JOB_RUNNING;
    r.suspend_time = kNow - 60; // resumed a minute ago
    auto jobs = rec.jobs({s, r});
    EXPECT_EQ(render(jobs, "%i|%t|%M|%L"), "JOBID|ST|TIME|TIME_LEFT\n"
                                           "5|S|10:00|1:50:00\n"
                                           "7|R|11:00|1:49:00\n");
}

TEST(Squeue, ReasonListAndNodes) {
    Records rec;
    Job none = pending();
    none.reason = "";
    Job failed = running();
    failed.state = DROVER_JOB_FAILED;
    failed.reason = "NonZeroExitCode";
    failed.end = kNow - 5;
    Job big = running();
    big.nodes = "n[1-3]";
    auto jobs = rec.jobs({none, failed, big});
    EXPECT_EQ(squeue_line(squeue_percent_format("%R"), *jobs[0], kNow), "(None)");
    EXPECT_EQ(squeue_line(squeue_percent_format("%R %M"), *jobs[1], kNow),
              "(NonZeroExitCode) 1:00");
    EXPECT_EQ(squeue_line(squeue_percent_format("%.3R %D %5N|"), *jobs[2], kNow),
              "n[1-3] 3 n[1-3]|");
}

TEST(Squeue, TruncationAndLiterals) {
    Records rec;
    Job j = running();
    j.id = 123456;
    auto jobs = rec.jobs({j});
    EXPECT_EQ(squeue_line(squeue_percent_format("%.3i|%3j|x%t"), *jobs[0], kNow), "123|sle|xR");
    EXPECT_EQ(squeue_line(squeue_percent_format("%i|%j"), *jobs[0], kNow), "123456|sleeper");
    EXPECT_THROW(squeue_percent_format("%i %!"), ParseError);
}

TEST(Squeue, LongFormatOption) {
    Records rec;
    auto jobs = rec.jobs({running()});
    SqueueFormat f = squeue_long_format("JobID:6,Name:.5,State,UserName:6,ReasonList");
    EXPECT_EQ(squeue_header(f), "JOBID  NAMESTATE               USER  NODELIST(REASON)    ");
    EXPECT_EQ(squeue_line(f, *jobs[0], kNow),
              "5     sleepRUNNING             alice n1                  ");
    EXPECT_THROW(squeue_long_format("JobID,Bogus"), ParseError);
}

// %v and -O Reservation: the reservation a job runs in, (null) for none.
TEST(Squeue, ReservationColumn) {
    Records rec;
    Job in = running();
    in.reservation = "maint";
    auto jobs = rec.jobs({in, pending()});
    EXPECT_EQ(render(jobs, "%.5i %v"), "JOBID RESERVATION\n"
                                       "    5 maint\n"
                                       "    6 (null)\n");
    SqueueFormat f = squeue_long_format("JobID:4,Reservation:8");
    EXPECT_EQ(squeue_header(f), "JOBIRESERVAT");
    EXPECT_EQ(squeue_line(f, *jobs[0], kNow), "5   maint   ");
}

TEST(Squeue, DefaultSortPutsPendingFirstThenPriority) {
    Records rec;
    Job a = pending();
    a.id = 10;
    a.priority = 10;
    Job b = pending();
    b.id = 11;
    b.priority = 90;
    Job c = running();
    c.id = 3;
    Job d = running();
    d.id = 4;
    d.partition = "alpha";
    auto jobs = rec.jobs({a, b, c, d});
    std::vector<const proto::JobInfo *> v = jobs;
    squeue_sort(v, kSqueueDefaultSort, kNow);
    std::vector<uint32_t> ids;
    for (const auto *j : v) ids.push_back(j->job_id());
    EXPECT_EQ(ids, (std::vector<uint32_t>{4, 11, 10, 3}));
    squeue_sort(v, "-i", kNow);
    ids.clear();
    for (const auto *j : v) ids.push_back(j->job_id());
    EXPECT_EQ(ids, (std::vector<uint32_t>{11, 10, 4, 3}));
    EXPECT_THROW(squeue_sort(v, "P,?", kNow), ParseError);
}

TEST(Squeue, ArgsAndFilter) {
    SqueueArgs a = parse_squeue_args(std::vector<std::string>{"-j", "12345", "-h", "-o", "%T"});
    EXPECT_EQ(a.job_ids, (std::vector<uint32_t>{12345}));
    EXPECT_TRUE(a.noheader);
    EXPECT_EQ(*a.format, "%T");
    a = parse_squeue_args(std::vector<std::string>{"--jobs=1,2", "-t", "pd,R", "-p", "a,b"});
    EXPECT_EQ(a.job_ids, (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(a.states.states.size(), 2u);
    EXPECT_EQ(a.partitions, (std::vector<std::string>{"a", "b"}));
    EXPECT_THROW(parse_squeue_args(std::vector<std::string>{"-j", "abc"}), ParseError);
    EXPECT_THROW(parse_squeue_args(std::vector<std::string>{"-t", "nope"}), ParseError);
    EXPECT_THROW(parse_squeue_args(std::vector<std::string>{"--bogus"}), UsageError);
    EXPECT_THROW(parse_squeue_args(std::vector<std::string>{"extra"}), UsageError);

    Records rec;
    Job done = running();
    done.id = 7;
    done.state = DROVER_JOB_COMPLETE;
    auto jobs = rec.jobs({running(), pending(), done});
    SqueueFilter all = make_squeue_filter(parse_squeue_args(std::vector<std::string>{}), 1000);
    EXPECT_TRUE(all.keep(*jobs[0]));
    EXPECT_TRUE(all.keep(*jobs[1]));
    EXPECT_FALSE(all.keep(*jobs[2])); // finished: hidden by default
    SqueueFilter by_id =
        make_squeue_filter(parse_squeue_args(std::vector<std::string>{"-j7"}), 1000);
    EXPECT_FALSE(by_id.keep(*jobs[2])); // ... even when asked for by id, as in Slurm
    EXPECT_FALSE(by_id.keep(*jobs[0]));
    SqueueFilter by_id_all =
        make_squeue_filter(parse_squeue_args(std::vector<std::string>{"-j7", "-tall"}), 1000);
    EXPECT_TRUE(by_id_all.keep(*jobs[2])); // -t shows it
    EXPECT_FALSE(by_id_all.keep(*jobs[0]));
    SqueueFilter states =
        make_squeue_filter(parse_squeue_args(std::vector<std::string>{"-t", "all"}), 1000);
    EXPECT_TRUE(states.keep(*jobs[2]));
    SqueueFilter pd =
        make_squeue_filter(parse_squeue_args(std::vector<std::string>{"-t", "PD"}), 1000);
    EXPECT_FALSE(pd.keep(*jobs[0]));
    EXPECT_TRUE(pd.keep(*jobs[1]));
    SqueueFilter user =
        make_squeue_filter(parse_squeue_args(std::vector<std::string>{"-u", "999"}), 1000);
    EXPECT_FALSE(user.keep(*jobs[0]));
    SqueueFilter me = make_squeue_filter(parse_squeue_args(std::vector<std::string>{"--me"}), 1000);
    EXPECT_TRUE(me.keep(*jobs[0]));
    SqueueFilter nodes =
        make_squeue_filter(parse_squeue_args(std::vector<std::string>{"-w", "n[1-2]"}), 1000);
    EXPECT_TRUE(nodes.keep(*jobs[0]));
    EXPECT_FALSE(nodes.keep(*jobs[1]));
}

TEST(Squeue, QosReservationLicenseFilters) {
    Records rec;
    Job plain{1}, high{2};
    high.qos = "high";
    high.licenses = "fluent:1,matlab:2";
    high.reservation = "maint";
    auto jobs = rec.jobs({plain, high});
    auto kept = [&](std::vector<std::string> args) {
        SqueueFilter f = make_squeue_filter(parse_squeue_args(args), 1000);
        std::vector<uint32_t> ids;
        for (const auto *j : jobs)
            if (f.keep(*j)) ids.push_back(j->job_id());
        return ids;
    };
    EXPECT_EQ(kept({"-q", "high"}), std::vector<uint32_t>{2});
    EXPECT_EQ(kept({"--qos=normal,low"}), std::vector<uint32_t>{1}); // no QOS asked: normal
    EXPECT_EQ(kept({"-q", "low"}), std::vector<uint32_t>{});
    // -R keeps the jobs in the reservation named; -L those asking for a license named.
    EXPECT_EQ(kept({"-R", "maint"}), std::vector<uint32_t>{2});
    EXPECT_EQ(kept({"--reservation=other"}), std::vector<uint32_t>{});
    EXPECT_EQ(kept({"-L", "matlab"}), std::vector<uint32_t>{2});
    EXPECT_EQ(kept({"-L", "ansys,fluent"}), std::vector<uint32_t>{2});
    EXPECT_EQ(kept({"-L", "ansys"}), std::vector<uint32_t>{});
    EXPECT_EQ(kept({}), (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(parse_squeue_args(std::vector<std::string>{"-L", "a,b"}).licenses,
              (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(parse_squeue_args(std::vector<std::string>{"--yaml"}).yaml);
}
