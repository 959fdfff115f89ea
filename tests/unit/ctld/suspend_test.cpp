// suspend_test.cpp - scontrol suspend and resume in the controller's parts: a suspended job's
// nodes go to other jobs, its clock stops (run time and time limit leave the suspension out),
// Slurm's refusals, and a suspended job that ends or is requeued.
#include "components_fixture.hpp"

namespace drover::ctld {
namespace {

TEST(CtldSuspend, RunTimeAndLimitLeaveTheSuspensionOut) {
    Job j;
    j.state = DROVER_JOB_RUNNING;
    j.start_time = 1000;
    j.time_limit_min = 10;
    EXPECT_EQ(job_run_secs(j, 1100), 100);
    EXPECT_EQ(job_limit_end(j), 1600);
    // Suspended at 1100 after 100 s of running: its clock stops, no limit runs out.
    j.state = DROVER_JOB_SUSPENDED;
    j.mutable_extra().suspend_time = 1100;
    j.mutable_extra().pre_suspend_secs = 100;
    EXPECT_EQ(job_run_secs(j, 5000), 100);
    EXPECT_EQ(job_limit_end(j), INT64_MAX);
    // Resumed at 1500: 400 s were not run, so the limit is 400 s later.
    j.state = DROVER_JOB_RUNNING;
    j.mutable_extra().suspend_time = 1500;
    EXPECT_EQ(job_run_secs(j, 1600), 200);
    EXPECT_EQ(job_limit_end(j), 2000);
    // Ended at 1700: 300 s of run time.
    j.state = DROVER_JOB_COMPLETE;
    j.end_time = 1700;
    EXPECT_EQ(job_run_secs(j, 9999), 300);
    Job unlimited;
    unlimited.state = DROVER_JOB_RUNNING;
    EXPECT_EQ(job_limit_end(unlimited), INT64_MAX);
}

TEST(CtldSuspend, ASuspendedJobsNodesGoToAnotherJobAndComeBack) {
    Cluster c;
    Job &a = c.submit(), &b = c.submit(), &d = c.submit();
    c.sched.pass();
    ASSERT_EQ(a.state, uint32_t(DROVER_JOB_RUNNING));
    ASSERT_EQ(b.state, uint32_t(DROVER_JOB_RUNNING));
    ASSERT_EQ(d.state, uint32_t(DROVER_JOB_PENDING));
    const int changes = c.queue_changes;
    ASSERT_TRUE(c.jobs.suspend_job(a, false).ok());
    EXPECT_EQ(a.state, uint32_t(DROVER_JOB_SUSPENDED));
    EXPECT_GT(a.ext().suspend_time, 0);
    EXPECT_FALSE(a.ext().suspended_by_preemption);
    EXPECT_GT(c.queue_changes, changes) << "a pass is asked for: the node may start a job";
    c.sched.pass();
    EXPECT_EQ(d.state, uint32_t(DROVER_JOB_RUNNING)) << "the waiting job takes its node";
    EXPECT_EQ(d.nodes, a.nodes);
    ASSERT_TRUE(c.jobs.resume_job(a).ok());
    EXPECT_EQ(a.state, uint32_t(DROVER_JOB_RUNNING));
    EXPECT_EQ(a.nodes.size(), 1u) << "it runs on the node it had, shared as in Slurm";
}

TEST(CtldSuspend, RefusalsAreSlurms) {
    Cluster c;
    Job &a = c.submit(), &b = c.submit(), &p = c.submit();
    c.sched.pass();
    ASSERT_EQ(p.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(c.jobs.suspend_job(p, false).text(), "Job is pending execution");
    EXPECT_EQ(c.jobs.resume_job(a).text(), "Job is not suspended");
    ASSERT_TRUE(c.jobs.suspend_job(a, false).ok());
    EXPECT_EQ(c.jobs.suspend_job(a, false).text(), "Job is not running");
    // Only operators and administrators, not even the job's owner.
    EXPECT_EQ(c.jobs.job_action(b, "suspend", false).text(), "Access/permission denied");
    EXPECT_TRUE(c.jobs.job_action(b, "suspend", true).ok());
    EXPECT_TRUE(c.jobs.job_action(b, "resume", true).ok());
    c.jobs.end_job(b, DROVER_JOB_COMPLETE, 0);
    EXPECT_EQ(c.jobs.suspend_job(b, false).text(), "Job/step already completing or completed");
}

TEST(CtldSuspend, ASuspendedJobThatEndsRanOnlyUntilItsSuspension) {
    Cluster c;
    Job &a = c.submit();
    c.sched.pass();
    ASSERT_EQ(a.state, uint32_t(DROVER_JOB_RUNNING));
    a.start_time -= 50; // it had run 50 s
    ASSERT_TRUE(c.jobs.suspend_job(a, false).ok());
    EXPECT_GE(a.ext().pre_suspend_secs, 50);
    a.mutable_extra().suspend_time -= 1000; // and was suspended for 1000 s
    c.jobs.end_job(a, DROVER_JOB_CANCELLED, 0);
    EXPECT_LT(job_run_secs(a, Ctx::now()), 100) << "the suspension is not run time";
    EXPECT_TRUE(c.ended.size() == 1 && c.ended[0] == a.id);
}

TEST(CtldSuspend, ASuspendedJobRequeuedIsHeldAndForgetsItsSuspension) {
    Cluster c;
    Job &a = c.submit();
    c.sched.pass();
    ASSERT_TRUE(c.jobs.suspend_job(a, false).ok());
    ASSERT_TRUE(c.jobs.job_action(a, "requeue", true).ok());
    EXPECT_TRUE(a.hold_when_requeued) << "as Slurm: a suspended job requeued is held";
    c.jobs.requeue_job(a, a.hold_when_requeued);
    EXPECT_EQ(a.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(a.reason, "JobHeldUser");
    EXPECT_EQ(a.ext().suspend_time, 0);
    EXPECT_EQ(a.ext().pre_suspend_secs, 0);
}

} // namespace
} // namespace drover::ctld
