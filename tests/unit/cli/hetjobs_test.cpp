// hetjobs_test.cpp - heterogeneous jobs in the read-only commands: "L+K" ids in squeue -j,
// scancel, scontrol and sacct -j; squeue's %i and -O HetJob* columns; scontrol show job's
// HetJobId=, HetJobOffset= and HetJobIdSet=; the het_job_* keys of --json and --yaml.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "cli/job_ids.hpp"
#include "cli/json_records.hpp"
#include "cli/sacct_args.hpp"
#include "cli/sacct_select.hpp"
#include "cli/scancel_args.hpp"
#include "cli/scancel_select.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/scontrol_show.hpp"
#include "cli/squeue_args.hpp"
#include "cli/squeue_fields.hpp"
#include "cli/yaml_writer.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Acct;
using drover::cli::test::error_of;
using drover::cli::test::Job;
using drover::cli::test::plain_job;
using drover::cli::test::Records;

namespace {

constexpr int64_t kNow = 1700000000; // 2023-11-14T22:13:20 UTC

// Component offset of the three-component heterogeneous job 93 (ids 93, 94, 95), pending.
Job component(uint32_t offset) {
    Job j;
    j.id = 93 + offset;
    j.name = "het";
    j.het_job_id = 93;
    j.het_job_offset = offset;
    j.het_size = 3;
    j.reason = "Priority";
    j.submit = kNow - 30;
    return j;
}

// The leader, its two other components and plain job 96.
const std::vector<const proto::JobInfo *> &het_jobs(Records &rec) {
    return rec.jobs({component(0), component(1), component(2), plain_job(96)});
}

std::vector<uint32_t> ids_of(const std::vector<const proto::JobInfo *> &v) {
    std::vector<uint32_t> out;
    for (const auto *j : v) out.push_back(j->job_id());
    return out;
}

std::string line(const char *fmt, const proto::JobInfo &j) {
    return squeue_line(squeue_percent_format(fmt), j, kNow);
}

} // namespace

TEST(HetJobSpecs, ParseComponentIds) {
    auto s = parse_job_spec(" 93+1 ");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->job_id, 94u); // the components' ids are consecutive from the leader's
    EXPECT_EQ(s->het_offset, 1u);
    EXPECT_EQ(s->text, "93+1");
    EXPECT_FALSE(s->has_tasks);
    EXPECT_EQ(s->step_id, 0xfffffffeu);
    s = parse_job_spec("93+0");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->job_id, 93u);
    EXPECT_EQ(s->het_offset, 0u);
    s = parse_job_spec("93+2.batch");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->job_id, 95u);
    EXPECT_EQ(s->step_id, 0xfffffffbu);
    s = parse_job_spec("93+1.4");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->job_id, 94u);
    EXPECT_EQ(s->step_id, 4u);
    EXPECT_EQ(parse_job_spec("93")->het_offset, 0xfffffffeu);
    for (const char *bad : {"12+", "+1", "12+x", "12+1_3", "12_3+1", "0+1", "12++1", "12+-1",
                            "12 +1", "12+1+1", "4294967290+10", "12+.0"})
        EXPECT_FALSE(parse_job_spec(bad)) << bad;
    auto list = parse_job_spec_list("7,93+1, 93+2", "bad: ");
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[1].job_id, 94u);
    EXPECT_EQ(list[2].text, "93+2");
    EXPECT_EQ(spec_job_ids(list), (std::vector<uint32_t>{7, 94, 95}));
    // A bad form gets the refusal any bad id gets.
    EXPECT_EQ(error_of([] { parse_job_spec_list("7,12+", "Invalid job id: "); }),
              "Invalid job id: 12+");
}

TEST(HetJobSpecs, Matches) {
    Records rec;
    const auto &jobs = het_jobs(rec);
    auto spec = [](const char *t) { return *parse_job_spec(t); };
    // The leader's bare id names every component, as in Slurm.
    for (const auto *j : {jobs[0], jobs[1], jobs[2]}) EXPECT_TRUE(spec("93").matches(*j));
    EXPECT_FALSE(spec("93").matches(*jobs[3]));
    // "L+K" names component K alone; "L+0" the leader alone.
    EXPECT_TRUE(spec("93+0").matches(*jobs[0]));
    EXPECT_FALSE(spec("93+0").matches(*jobs[1]));
    EXPECT_TRUE(spec("93+1").matches(*jobs[1]));
    EXPECT_FALSE(spec("93+1").matches(*jobs[0]));
    EXPECT_FALSE(spec("93+1").matches(*jobs[2]));
    // A component's own id names it only.
    EXPECT_TRUE(spec("94").matches(*jobs[1]));
    EXPECT_FALSE(spec("94").matches(*jobs[2]));
    EXPECT_TRUE(spec("96").matches(*jobs[3]));
}

TEST(HetJobSqueue, JobIdColumns) {
    Records rec;
    const auto &jobs = het_jobs(rec);
    // %i: "LEADER+OFFSET"; %A the component's own id; %F its id too (not an array); %K N/A.
    EXPECT_EQ(line("%i", *jobs[0]), "93+0");
    EXPECT_EQ(line("%i", *jobs[1]), "93+1");
    EXPECT_EQ(line("%i", *jobs[3]), "96");
    EXPECT_EQ(line("%A|%F|%K", *jobs[2]), "95|95|N/A");
    EXPECT_EQ(line("%.18i|", *jobs[2]), "              93+2|");
    SqueueFormat d = squeue_percent_format(kSqueueDefaultFormat);
    EXPECT_TRUE(
        squeue_line(d, *jobs[1], kNow).starts_with("              93+1     debug      het "))
        << squeue_line(d, *jobs[1], kNow);
    // -O JobArrayID is %i, JobID is %A.
    SqueueFormat f = squeue_long_format("JobArrayID:8,JobID:5");
    EXPECT_EQ(squeue_line(f, *jobs[1], kNow), "93+1    94   ");
}

TEST(HetJobSqueue, HetJobFields) {
    Records rec;
    const auto &jobs = het_jobs(rec);
    SqueueFormat f = squeue_long_format("HetJobID:12,HetJobIDSet:16,HetJobOffset:16");
    EXPECT_EQ(squeue_header(f), "HET_JOB_ID  HET_JOB_ID_SET  HET_JOB_OFFSET  ");
    EXPECT_EQ(squeue_line(f, *jobs[0], kNow), "93          93-95           0               ");
    EXPECT_EQ(squeue_line(f, *jobs[2], kNow), "93          93-95           2               ");
    // A job that is not heterogeneous: N/A in each.
    EXPECT_EQ(squeue_line(f, *jobs[3], kNow), "N/A         N/A             N/A             ");
    // The names are Slurm's, in any case.
    EXPECT_EQ(squeue_header(squeue_long_format("hetjobid:.11")), " HET_JOB_ID");
    EXPECT_EQ(het_job_id_set(*jobs[1]), "93-95");
    EXPECT_EQ(het_job_id_set(*jobs[3]), "");
}

TEST(HetJobSqueue, JobsOption) {
    Records rec;
    const auto &jobs = het_jobs(rec);
    auto kept = [&](std::vector<std::string> args) {
        SqueueFilter f = make_squeue_filter(parse_squeue_args(args), 1000);
        std::vector<uint32_t> out;
        for (const auto *j : jobs)
            if (f.keep(*j)) out.push_back(j->job_id());
        return out;
    };
    EXPECT_EQ(kept({"-j", "93"}), (std::vector<uint32_t>{93, 94, 95}));
    EXPECT_EQ(kept({"-j", "93+1"}), (std::vector<uint32_t>{94}));
    EXPECT_EQ(kept({"--jobs=93+0,96"}), (std::vector<uint32_t>{93, 96}));
    EXPECT_EQ(error_of([] {
                  parse_squeue_args(std::vector<std::string>{"-j", "93+"});
              }),
              "Invalid job id: 93+");
}

TEST(HetJobScontrol, ShowJob) {
    setenv("TZ", "UTC", 1);
    tzset();
    Records rec;
    const auto &jobs = het_jobs(rec);
    // HetJobId= and HetJobOffset= after JobId=; HetJobIdSet= on a line of its own after the
    // first, for every component.
    std::string s = show_job(*jobs[1], kNow, false);
    EXPECT_TRUE(s.starts_with("JobId=94 HetJobId=93 HetJobOffset=1 JobName=het\n"
                              "   HetJobIdSet=93-95\n"
                              "   UserId=alice(1000) "))
        << s;
    std::string leader = show_job(*jobs[0], kNow, true);
    EXPECT_TRUE(leader.starts_with(
        "JobId=93 HetJobId=93 HetJobOffset=0 JobName=het HetJobIdSet=93-95 UserId=alice(1000) "))
        << leader;
    std::string p = show_job(*jobs[3], kNow, false);
    EXPECT_TRUE(p.starts_with("JobId=96 JobName=plain\n   UserId=alice(1000) ")) << p;
    EXPECT_EQ(p.find("HetJob"), std::string::npos);
}

TEST(HetJobScontrol, JobIdsInCommands) {
    // update JobId=, hold/release/requeue/suspend lists: "L+K" is job L+K.
    auto targets = update_targets(parse_hold_ids(std::vector<std::string>{"93+1", "JobId=93+2"}));
    std::vector<std::pair<uint32_t, std::string>> want = {{94, ""}, {95, ""}};
    EXPECT_EQ(targets, want);
    JobUpdate u = parse_job_update(std::vector<std::string>{"JobId=93+1", "TimeLimit=5"});
    ASSERT_EQ(u.jobs.size(), 1u);
    EXPECT_EQ(u.jobs[0].job_id, 94u);
    EXPECT_EQ(u.jobs[0].text, "93+1");
    EXPECT_EQ(error_of([] { parse_hold_ids(std::vector<std::string>{"93+"}); }),
              "Invalid job id specified: 93+");
    EXPECT_EQ(error_of([] {
                  parse_job_update(std::vector<std::string>{"JobId=+1", "TimeLimit=5"});
              }),
              "Invalid job id specified: +1");
}

TEST(HetJobScancel, Ids) {
    ScancelArgs a = parse_scancel_args(std::vector<std::string>{"93+1", "93+2,96"});
    ASSERT_EQ(a.jobs.size(), 3u);
    EXPECT_EQ(a.jobs[0].job_id, 94u);
    EXPECT_EQ(a.jobs[0].text, "93+1"); // sent, and reported, as written
    EXPECT_EQ(a.jobs[1].job_id, 95u);
    EXPECT_EQ(error_of([] { parse_scancel_args(std::vector<std::string>{"93+x"}); }),
              "Invalid job id 93+x");

    Records rec;
    const auto &jobs = het_jobs(rec);
    ScancelArgs one = parse_scancel_args(std::vector<std::string>{"93+1"});
    EXPECT_EQ(ids_of(scancel_select(one, std::nullopt, jobs)), (std::vector<uint32_t>{94}));
    // The leader's id: the leader alone is sent, whose cancel ends every component.
    ScancelArgs all = parse_scancel_args(std::vector<std::string>{"93"});
    EXPECT_EQ(ids_of(scancel_select(all, std::nullopt, jobs)), (std::vector<uint32_t>{93}));
    ScancelArgs missing = parse_scancel_args(std::vector<std::string>{"93+5"});
    EXPECT_EQ(scancel_unknown_ids(missing, jobs), (std::vector<std::string>{"93+5"}));
}

TEST(HetJobSacct, JobsOption) {
    auto sels = parse_sacct_jobs("93+1,93+2.batch");
    ASSERT_EQ(sels.size(), 2u);
    EXPECT_EQ(sels[0].spec.job_id, 94u);
    EXPECT_EQ(sels[0].step, 0xfffffffeu);
    EXPECT_EQ(sels[1].spec.job_id, 95u);
    EXPECT_EQ(sels[1].step, 0xfffffffbu);
    EXPECT_EQ(sacct_job_ids(sels), (std::vector<uint32_t>{94, 95}));
    for (const char *bad : {"93+", "+1", "93+x"}) {
        std::string msg;
        try {
            parse_sacct_jobs(bad);
        } catch (const SacctFatal &e) {
            msg = e.what();
        }
        EXPECT_EQ(msg, std::string("Bad job/step specified: ") + bad);
    }
}

TEST(HetJobSacct, LinesAndJobIds) {
    // Components 93+0 (with step 0) and 93+1, plain job 96.
    Records rec;
    Acct a0, a1, other;
    a0.id = 93;
    a0.het_job_id = 93;
    a0.het_job_offset = 0;
    test::AcctStepSpec zero;
    zero.id = 0;
    a0.steps = {zero};
    a1.id = 94;
    a1.het_job_id = 93;
    a1.het_job_offset = 1;
    a1.steps = {zero};
    other.id = 96;
    other.steps = {zero};
    const auto &acct = rec.acct({a0, a1, other});
    auto lines = [&](const char *sel) {
        auto rows = sacct_select_rows(sacct_rows(acct, false), parse_sacct_jobs(sel));
        return sacct_render(parse_sacct_fields("JobID,JobIDRaw"), rows, SacctLayout::parsable2, "|",
                            false, kNow);
    };
    // JobID "LEADER+OFFSET" (its steps after it), JobIDRaw the component's own id. The leader's
    // id keeps every component's lines; "L+K" that component's only.
    EXPECT_EQ(lines("93"), "93+0|93\n93+0.0|93.0\n93+1|94\n93+1.0|94.0\n");
    EXPECT_EQ(lines("93+1"), "93+1|94\n93+1.0|94.0\n");
    EXPECT_EQ(lines("93+0.0"), "93+0.0|93.0\n");
    EXPECT_EQ(lines("96"), "96|96\n96.0|96.0\n");
}

TEST(HetJobJson, Keys) {
    Records rec;
    const auto &jobs = het_jobs(rec);
    // A component: number objects for the id and offset, the id set as a string (data_parser
    // v0.0.40's UINT32_NO_VAL and STRING), between group_name and hold.
    std::string doc = jobs_json({jobs[1]}, kNow);
    EXPECT_NE(doc.find("      \"het_job_id\": {\n"
                       "        \"set\": true,\n"
                       "        \"infinite\": false,\n"
                       "        \"number\": 93\n"
                       "      },\n"
                       "      \"het_job_id_set\": \"93-95\",\n"
                       "      \"het_job_offset\": {\n"
                       "        \"set\": true,\n"
                       "        \"infinite\": false,\n"
                       "        \"number\": 1\n"
                       "      },\n"
                       "      \"hold\": "),
              std::string::npos)
        << doc;
    // A job that is not heterogeneous: 0, "" and 0, as Slurm's controller keeps them.
    std::string p = jobs_json({jobs[3]}, kNow);
    EXPECT_NE(p.find("      \"het_job_id\": {\n"
                     "        \"set\": true,\n"
                     "        \"infinite\": false,\n"
                     "        \"number\": 0\n"
                     "      },\n"
                     "      \"het_job_id_set\": \"\",\n"
                     "      \"het_job_offset\": {\n"
                     "        \"set\": true,\n"
                     "        \"infinite\": false,\n"
                     "        \"number\": 0\n"
                     "      },\n"),
              std::string::npos)
        << p;
    // --yaml is the same document.
    std::string y = json_or_yaml(doc, true);
    EXPECT_NE(y.find("het_job_id_set: '93-95'\n"), std::string::npos) << y;
    EXPECT_NE(y.find("het_job_offset:\n"), std::string::npos) << y;
}
