// scancel_select_test.cpp - scancel choosing jobs itself: -A, -q, -R, -w with the other filters
// and ids, the specs it sends, the -i question and the -v line when nothing matches.
#include <drover/views.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "cli/scancel_args.hpp"
#include "cli/scancel_select.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Job;
using drover::cli::test::Records;

namespace {

using Args = std::vector<std::string>;

// 10 pending (acct a, qos none), 11 running on n[1-2] (acct b, qos high, user 1001, in
// reservation maint), 12 completed, 20_3 a running array task on n3, 20 its pending record with
// tasks 4-9.
std::vector<const proto::JobInfo *> jobs(Records &rec) {
    Job j10{10}, j11{11}, j12{12}, t3{21}, rec20{20};
    j10.account = "a";
    j11.account = "b";
    j11.qos = "high";
    j11.state = DROVER_JOB_RUNNING;
    j11.nodes = "n[1-2]";
    j11.uid = 1001;
    j11.reservation = "maint";
    j12.state = DROVER_JOB_COMPLETE;
    j12.account = "a";
    t3.array_job_id = 20;
    t3.array_task_id = 3;
    t3.state = DROVER_JOB_RUNNING;
    t3.nodes = "n3";
    rec20.array_job_id = 20;
    rec20.array_tasks = "4-9";
    return rec.jobs({j10, j11, j12, t3, rec20});
}

std::vector<uint32_t> ids(const std::vector<const proto::JobInfo *> &v) {
    std::vector<uint32_t> out;
    for (const auto *j : v) out.push_back(j->job_id());
    return out;
}

std::vector<uint32_t> chosen(const Args &args, std::optional<uint32_t> uid = std::nullopt) {
    Records rec;
    auto all = jobs(rec);
    return ids(scancel_select(parse_scancel_args(args), uid, all));
}

} // namespace

TEST(ScancelSelect, Filters) {
    EXPECT_TRUE(parse_scancel_args(Args{"-A", "a"}).selects_jobs());
    EXPECT_TRUE(parse_scancel_args(Args{"-i", "5"}).selects_jobs());
    EXPECT_TRUE(parse_scancel_args(Args{"-v", "-n", "x"}).selects_jobs());
    EXPECT_FALSE(parse_scancel_args(Args{"-n", "x"}).selects_jobs());
    EXPECT_FALSE(parse_scancel_args(Args{"-v", "5"}).selects_jobs());

    // Only active jobs: 12 (completed, account a) is not chosen.
    EXPECT_EQ(chosen({"-A", "a"}), std::vector<uint32_t>{10});
    EXPECT_EQ(chosen({"-A", "B"}), std::vector<uint32_t>{11});
    EXPECT_EQ(chosen({"-q", "HIGH"}), std::vector<uint32_t>{11});
    EXPECT_EQ(chosen({"-q", "normal"}), (std::vector<uint32_t>{10, 21, 20}));
    EXPECT_EQ(chosen({"-R", "maint"}), std::vector<uint32_t>{11}); // the job in it
    EXPECT_TRUE(chosen({"-R", "other"}).empty());
    EXPECT_EQ(chosen({"-w", "n2"}), std::vector<uint32_t>{11});
    EXPECT_EQ(chosen({"-w", "n[3-4]"}), std::vector<uint32_t>{21});
    EXPECT_EQ(chosen({"-w", "n2", "-t", "PENDING"}), std::vector<uint32_t>{});
    EXPECT_EQ(chosen({"-A", "b", "-u", "x"}, 1000), std::vector<uint32_t>{});
    EXPECT_EQ(chosen({"-A", "b", "-u", "x"}, 1001), std::vector<uint32_t>{11});
    EXPECT_EQ(chosen({"-q", "normal", "-p", "debug", "-n", "job"}),
              (std::vector<uint32_t>{10, 21, 20}));
    // With ids, a job must also be named: the array's id names its task and its record.
    EXPECT_EQ(chosen({"-q", "normal", "20"}), (std::vector<uint32_t>{21, 20}));
    EXPECT_EQ(chosen({"-i", "10", "11"}), (std::vector<uint32_t>{10, 11}));
    EXPECT_THROW(chosen({"-w", "n[1-"}), ParseError);
}

TEST(ScancelSelect, SpecsAndUnknownIds) {
    Records rec;
    auto all = jobs(rec);
    ScancelArgs a = parse_scancel_args(Args{"-i"});
    EXPECT_EQ(scancel_specs_for(a, *all[0]), Args{"10"});
    EXPECT_EQ(scancel_specs_for(a, *all[3]), Args{"20_3"});
    EXPECT_EQ(scancel_specs_for(a, *all[4]), Args{"20_[4-9]"});
    // Named tasks of a pending record, and steps, go as written.
    a = parse_scancel_args(Args{"-i", "20_[5-6]", "11.2"});
    EXPECT_EQ(scancel_specs_for(a, *all[4]), Args{"20_[5-6]"});
    EXPECT_EQ(scancel_specs_for(a, *all[1]), Args{"11.2"});

    a = parse_scancel_args(Args{"-A", "a", "10", "12", "99", "20_3"});
    EXPECT_EQ(scancel_unknown_ids(a, all), (Args{"12", "99"}));
}

TEST(ScancelSelect, NoMatchMessage) {
    ScancelArgs a = parse_scancel_args(Args{"-v", "-A", "Acct", "-n", "x", "-w", "n1", "-p", "p",
                                            "-q", "q", "-R", "r", "-t", "PD", "-u", "alice"});
    EXPECT_EQ(scancel_no_match_message(a),
              "No active jobs match ALL job filters, including: account=acct job_name=x "
              "nodelist=n1 partition=p qos=q reservation=r state=PENDING user_name=alice ");
    EXPECT_EQ(scancel_no_match_message(parse_scancel_args(Args{"-A", "a"})),
              "No active jobs match ALL job filters, including: account=a ");
}

TEST(ScancelSelect, Confirm) {
    Records rec;
    auto all = jobs(rec);
    auto ask = [&](const proto::JobInfo &job, const char *answers, std::string *asked) {
        std::FILE *in = std::tmpfile();
        std::FILE *out = std::tmpfile();
        std::fputs(answers, in);
        std::rewind(in);
        bool yes = scancel_confirm(job, in, out);
        std::rewind(out);
        char buf[512] = {};
        std::size_t n = std::fread(buf, 1, sizeof buf - 1, out);
        *asked = std::string(buf, n);
        std::fclose(in);
        std::fclose(out);
        return yes;
    };
    std::string asked;
    EXPECT_TRUE(ask(*all[0], "y\n", &asked));
    EXPECT_EQ(asked, "Cancel job_id=10 name=job partition=debug [y/n]? ");
    EXPECT_FALSE(ask(*all[3], "N\n", &asked));
    EXPECT_EQ(asked, "Cancel job_id=20_3 name=job partition=debug [y/n]? ");
    // Anything else asks again; the end of input is a no.
    EXPECT_TRUE(ask(*all[0], "maybe\n\nYes\n", &asked));
    EXPECT_EQ(std::count(asked.begin(), asked.end(), '?'), 3);
    EXPECT_FALSE(ask(*all[0], "", &asked));
}

// With filters, a heterogeneous job's leader is chosen alone: its cancel ends every component
// (a pending component named on its own would be refused).
TEST(ScancelSelect, HeterogeneousJobGoesThroughItsLeader) {
    Records rec;
    Job lead{30}, other{31}, alone{41};
    for (Job *j : {&lead, &other}) {
        j->het_job_id = 30;
        j->het_job_offset = j->id - 30;
        j->het_size = 2;
    }
    alone.het_job_id = 40; // a component whose leader the filters do not reach
    alone.het_job_offset = 1;
    auto all = rec.jobs({lead, other, alone});
    EXPECT_EQ(ids(scancel_select(parse_scancel_args(Args{"-u", "alice"}), 1000, all)),
              (std::vector<uint32_t>{30, 41}));
}
