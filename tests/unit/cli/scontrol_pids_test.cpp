// scontrol_pids_test.cpp - scontrol listpids: the ids it takes, its table in Slurm's widths (a
// step's tasks first, in local order, then its other processes) and its messages when a node
// has nothing to list.
#include <gtest/gtest.h>

#include "cli/scontrol_pids.hpp"
#include "common/error.hpp"
#include "proto/message_generated.h"

namespace drover::cli {
namespace {

constexpr uint32_t kNoVal = 0xfffffffeu, kBatch = 0xfffffffbu;

TEST(ScontrolPids, TargetsAsSlurmReadsThem) {
    EXPECT_EQ(parse_pids_target("").job_id, kNoVal);
    EXPECT_EQ(parse_pids_target("*").job_id, kNoVal);
    PidsTarget job = parse_pids_target("12");
    EXPECT_EQ(job.job_id, 12u);
    EXPECT_EQ(job.step_id, kNoVal);
    EXPECT_EQ(parse_pids_target("12.3").step_id, 3u);
    EXPECT_EQ(parse_pids_target("12.batch").step_id, kBatch);
    try {
        parse_pids_target("abc");
        ADD_FAILURE() << "not a job id";
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "\"abc\" does not look like a jobid");
    }
    EXPECT_THROW(parse_pids_target("12.x"), ParseError);
}

TEST(ScontrolPids, TheTableAndWhyItIsEmpty) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<uint32_t> tasks{4, 5};
    std::vector<int32_t> task_pids{2001, 0}, pids{2050, 2001, 2002};
    std::vector<uint32_t> batch_tasks{0};
    std::vector<int32_t> batch_pids{1500}, batch_all{1500, 1499};
    std::vector<flatbuffers::Offset<proto::StepPids>> steps{
        proto::CreateStepPidsDirect(fbb, 12, 0, &tasks, &task_pids, &pids),
        proto::CreateStepPidsDirect(fbb, 12, kBatch, &batch_tasks, &batch_pids, &batch_all)};
    fbb.Finish(proto::CreateStepPidsResponse(fbb, fbb.CreateVector(steps)));
    const auto *r = flatbuffers::GetRoot<proto::StepPidsResponse>(fbb.GetBufferPointer());
    EXPECT_EQ(listpids_text(*r), "PID      JOBID    STEPID   LOCALID GLOBALID\n"
                                 "2001     12       0        0       4        \n"
                                 "2002     12       0        -       -        \n"
                                 "2050     12       0        -       -        \n"
                                 "1500     12       batch    0       0        \n"
                                 "1499     12       batch    -       -        \n");
    EXPECT_FALSE(listpids_empty(*r, {}, "n1"));

    flatbuffers::FlatBufferBuilder none;
    none.Finish(proto::CreateStepPidsResponse(none));
    const auto *e = flatbuffers::GetRoot<proto::StepPidsResponse>(none.GetBufferPointer());
    EXPECT_EQ(listpids_text(*e), "PID      JOBID    STEPID   LOCALID GLOBALID\n");
    EXPECT_EQ(listpids_empty(*e, {}, "n1"), "No job steps exist on this node.");
    EXPECT_EQ(listpids_empty(*e, parse_pids_target("7"), "n1"),
              "There are no steps for job 7 on node n1.");
    EXPECT_EQ(listpids_empty(*e, parse_pids_target("7.batch"), "n1"),
              "StepId=7.batch does not exist on node n1.");
}

} // namespace
} // namespace drover::cli
