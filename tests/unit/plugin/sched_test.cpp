// sched_test.cpp - sched/builtin and the SDK's sched/sjf against a fake scheduling pass.
#include <map>

#include <gtest/gtest.h>

#include "test_support.hpp"

// The opaque pass handle of drover/sched.h, defined here as the test's fake core.
struct drover_sched_pass {
    std::vector<drover_job_view> jobs;   // in submit order
    std::vector<std::string> partitions; // storage for jobs[i].partition
    std::map<uint32_t, int> answers;     // try_start's answer per job (default OK)
    std::vector<uint32_t> tried;         // job ids, in the order try_start saw them
};

namespace drover::plugin::test {
namespace {

uint32_t fake_pending_count(drover_sched_pass *pass) {
    return static_cast<uint32_t>(pass->jobs.size());
}

const drover_job_view *fake_pending_job(drover_sched_pass *pass, uint32_t i) {
    return i < pass->jobs.size() ? &pass->jobs[i] : nullptr;
}

int fake_try_start(drover_sched_pass *pass, uint32_t job_id) {
    pass->tried.push_back(job_id);
    auto it = pass->answers.find(job_id);
    return it == pass->answers.end() ? DROVER_OK : it->second;
}

int64_t fake_now(drover_sched_pass *) {
    return 1000;
}

const drover_sched_host kFakeHost = {
    .struct_size = sizeof(drover_sched_host),
    .pending_count = fake_pending_count,
    .pending_job = fake_pending_job,
    .try_start = fake_try_start,
    .now = fake_now,
};

struct JobSpec {
    uint32_t id;
    const char *partition;
    uint32_t priority;
    uint32_t time_limit_min = DROVER_INFINITE;
    uint32_t tier = 0; // the partition's PriorityTier
};

drover_sched_pass make_pass(const std::vector<JobSpec> &specs) {
    drover_sched_pass pass;
    pass.partitions.reserve(specs.size());
    for (const auto &s : specs) {
        pass.partitions.emplace_back(s.partition);
        drover_job_view j{};
        j.struct_size = sizeof j;
        j.job_id = s.id;
        j.priority = s.priority;
        j.time_limit_min = s.time_limit_min;
        j.partition_tier = s.tier;
        j.state = DROVER_JOB_PENDING;
        pass.jobs.push_back(j);
    }
    for (size_t i = 0; i < specs.size(); ++i) pass.jobs[i].partition = str(pass.partitions[i]);
    return pass;
}

int run_pass(const Bound<drover_sched_ops> &b, drover_sched_pass &pass) {
    drover_error err{};
    return b.ops.schedule(b.state, &kFakeHost, &pass, &err);
}

using Ids = std::vector<uint32_t>;

class PluginSchedBuiltin : public ::testing::Test {
  protected:
    void SetUp() override { set_.load("sched/builtin"); }
    Config conf_ = real_plugin_config();
    PluginSet set_{conf_, "ctld"};
};

TEST_F(PluginSchedBuiltin, StartsByPriorityThenJobId) {
    auto pass = make_pass({{5, "batch", 10}, {3, "batch", 20}, {4, "batch", 10}, {1, "batch", 5}});
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{3, 4, 5, 1}));
    EXPECT_EQ(set_.sched().ops.job_priority, nullptr);
}

TEST_F(PluginSchedBuiltin, HigherPartitionTiersGoFirstWhateverTheirPriority) {
    auto pass = make_pass({{1, "low", 90, DROVER_INFINITE, 1},
                           {2, "high", 10, DROVER_INFINITE, 5},
                           {3, "low", 95, DROVER_INFINITE, 1},
                           {4, "high", 20, DROVER_INFINITE, 5}});
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{4, 2, 3, 1}));
}

TEST_F(PluginSchedBuiltin, FirstBusyJobBlocksOnlyItsPartition) {
    auto pass = make_pass(
        {{1, "batch", 50}, {2, "batch", 40}, {3, "debug", 30}, {4, "batch", 20}, {5, "debug", 10}});
    pass.answers[2] = DROVER_EBUSY;
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{1, 2, 3, 5})); // 4 waits behind 2 in batch; debug goes on
}

TEST_F(PluginSchedBuiltin, JobsInAReservationAndOutsideItHoldEachOtherNothing) {
    auto pass = make_pass(
        {{1, "batch", 50}, {2, "batch", 40}, {3, "batch", 30}, {4, "batch", 20}, {5, "batch", 10}});
    const std::string maint = "maint";
    for (int i : {1, 3, 4}) pass.jobs[size_t(i)].reservation = str(maint); // jobs 2, 4 and 5
    pass.answers[1] = DROVER_EBUSY;                                        // outside: holds back 3
    pass.answers[2] = DROVER_EBUSY; // in maint: holds back 4 and 5
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{1, 2}));
    pass.tried.clear();
    pass.answers.erase(2); // the reservation's job starts: the rest of maint's go on
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{1, 2, 4, 5}));
}

TEST_F(PluginSchedBuiltin, IneligibleOrImpossibleJobsBlockNothing) {
    auto pass = make_pass({{1, "batch", 50}, {2, "batch", 40}, {3, "batch", 30}});
    pass.answers[1] = DROVER_EPERM;
    pass.answers[2] = DROVER_ENOSPC;
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{1, 2, 3}));
}

TEST_F(PluginSchedBuiltin, AMultiPartitionJobBlocksEachOfItsPartitions) {
    auto pass = make_pass({{1, "a,b", 50}, {2, "b", 40}, {3, "c", 30}, {4, "c,a", 20}});
    pass.answers[1] = DROVER_EBUSY;
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{1, 3}));
}

TEST_F(PluginSchedBuiltin, AnEmptyQueueIsFine) {
    auto pass = make_pass({});
    EXPECT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_TRUE(pass.tried.empty());
}

// The SDK example (sdk/examples/hello_sched), built in-tree into the test plugin directory.
class PluginSchedSjf : public ::testing::Test {
  protected:
    void SetUp() override { set_.load_file(kTestPluginDir + "/sched_sjf.so", "sched/sjf"); }
    Config conf_;
    PluginSet set_{conf_, "ctld"};
};

TEST_F(PluginSchedSjf, StartsShortestFirstThenByPriorityThenId) {
    auto pass = make_pass({{1, "batch", 90},       // unlimited: last
                           {2, "batch", 10, 60},   //
                           {3, "batch", 20, 60},   // same limit as 2, higher priority
                           {4, "batch", 5, 5},     // shortest
                           {5, "batch", 10, 60}}); // same as 2, later id
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{4, 3, 2, 5, 1}));
}

TEST_F(PluginSchedSjf, FirstBusyJobStopsItsPartition) {
    auto pass = make_pass(
        {{1, "batch", 1, 10}, {2, "batch", 1, 20}, {3, "debug", 1, 30}, {4, "batch", 1, 40}});
    pass.answers[2] = DROVER_EBUSY;
    ASSERT_EQ(run_pass(set_.sched(), pass), DROVER_OK);
    EXPECT_EQ(pass.tried, (Ids{1, 2, 3}));
}

} // namespace
} // namespace drover::plugin::test
