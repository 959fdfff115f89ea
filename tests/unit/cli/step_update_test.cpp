// step_update_test.cpp - scontrol update StepId=...: the line that names a step, its words as
// sent to the controller, and Slurm's refusals.
#include <gtest/gtest.h>

#include "cli/scontrol_args.hpp"
#include "cli/step_update_args.hpp"
#include "fixtures.hpp"

using namespace drover::cli;
using drover::cli::test::error_of;

namespace {

using Words = std::vector<std::string>;

StepUpdate parsed(const Words &w) {
    return parse_step_update(w);
}

} // namespace

TEST(StepUpdate, ALineWithStepIdUpdatesAStep) {
    EXPECT_EQ(update_target(Words{"StepId=12.0", "TimeLimit=5"}), UpdateWhat::step);
    EXPECT_EQ(update_target(Words{"TimeLimit=5", "stepid=12"}), UpdateWhat::step);
    EXPECT_EQ(update_target(Words{"JobId=12", "TimeLimit=5"}), UpdateWhat::job);
}

TEST(StepUpdate, WordsAsSent) {
    StepUpdate u = parsed({"StepId=12.3", "TimeLimit=1:30:00"});
    EXPECT_EQ(u.job_id, 12u);
    EXPECT_EQ(u.step_id, 3u);
    EXPECT_EQ(u.time_limit, 90u);
    EXPECT_EQ(u.sign, 0);
    u = parsed({"stepid=12", "ti=+10"});
    EXPECT_EQ(u.step_id, 0xfffffffeu) << "no step: every step of the job";
    EXPECT_EQ(u.time_limit, 10u);
    EXPECT_EQ(u.sign, 1);
    EXPECT_EQ(parsed({"StepId=12.0", "TimeLimit=-2-0"}).sign, -1);
    EXPECT_EQ(parsed({"StepId=12.0", "TimeLimit=UNLIMITED"}).time_limit, 0xffffffffu);
}

TEST(StepUpdate, RefusedAsSlurmRefusesThem) {
    auto err = [](const Words &w) { return error_of([&] { parsed(w); }); };
    EXPECT_EQ(err({"StepId=12.0", "TimeLimit=soon"}), "Invalid TimeLimit value");
    EXPECT_EQ(err({"StepId=12.0", "TimeLimit=+UNLIMITED"}), "Invalid TimeLimit value");
    EXPECT_EQ(err({"StepId=12.0", "Name=x"}), "Update of this parameter is not supported: Name=x");
    EXPECT_EQ(err({"StepId=12.0"}), "No changes specified");
    EXPECT_EQ(err({"StepId=12.batch", "TimeLimit=1"}), "Invalid StepId 12.batch");
    EXPECT_EQ(err({"StepId=12_3.0", "TimeLimit=1"}), "Invalid StepId 12_3.0");
    EXPECT_EQ(err({"StepId=x", "TimeLimit=1"}), "Invalid StepId x");
}
