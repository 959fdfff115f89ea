// step_gpus_test.cpp - the GPUs a step gets out of its job's, and when it must wait.
#include <gtest/gtest.h>

#include <drover/plugin.h>

#include "ctld/steps/step_gpus.hpp"

using namespace drover::ctld;
using drover::Status;
using Ids = std::vector<uint32_t>;

namespace {
StepLayout layout(std::vector<uint32_t> nodes, std::vector<uint32_t> tasks) {
    StepLayout l;
    l.nodes = std::move(nodes);
    l.tasks_per_node = std::move(tasks);
    return l;
}
} // namespace

TEST(StepGpus, AskComesFromCountsOrTheGpuPartOfGres) {
    EXPECT_FALSE(step_gpu_ask(0, 0, 0, "").given);
    EXPECT_FALSE(step_gpu_ask(0, 0, 0, "nic:1").given); // says nothing of GPUs
    StepGpuAsk g = step_gpu_ask(0, 0, 0, "gpu:2");
    EXPECT_TRUE(g.given);
    EXPECT_EQ(g.per_node, 2u);
    EXPECT_TRUE(step_gpu_ask(0, 0, 0, "none").given); // none at all
    EXPECT_EQ(step_gpu_ask(0, 0, 0, "none").per_node, 0u);
    EXPECT_EQ(step_gpu_ask(0, 0, 1, "").per_task, 1u);
}

TEST(StepGpus, NoAskSeesEveryGpuOfTheJobAndHoldsNone) {
    StepGpus out;
    std::vector<NodeGpus> job{{{0, 1}, {0}}};
    ASSERT_EQ(pick_step_gpus({}, layout({0}, {2}), job, false, &out).code(), DROVER_OK);
    EXPECT_EQ(out.seen[0], (Ids{0, 1}));
    EXPECT_TRUE(out.held[0].empty());
}

TEST(StepGpus, PerTaskTakesFreeGpusAndHoldsThem) {
    StepGpus out;
    std::vector<NodeGpus> job{{{0, 1, 2, 3}, {1}}, {{0, 1}, {}}};
    StepGpuAsk ask = step_gpu_ask(0, 0, 1, "");
    ASSERT_EQ(pick_step_gpus(ask, layout({0, 1}, {2, 1}), job, false, &out).code(), DROVER_OK);
    EXPECT_EQ(out.seen[0], (Ids{0, 2}));
    EXPECT_EQ(out.held[0], (Ids{0, 2}));
    EXPECT_EQ(out.seen[1], (Ids{0}));
}

TEST(StepGpus, MoreThanTheJobHasIsImpossibleHeldOnesAreBusy) {
    StepGpus out;
    std::vector<NodeGpus> job{{{0, 1}, {0}}};
    Status never = pick_step_gpus(step_gpu_ask(0, 3, 0, ""), layout({0}, {1}), job, false, &out);
    EXPECT_EQ(never.code(), DROVER_ENOSPC);
    EXPECT_EQ(never.text(), "Requested node configuration is not available");
    Status busy = pick_step_gpus(step_gpu_ask(0, 2, 0, ""), layout({0}, {1}), job, false, &out);
    EXPECT_EQ(busy.code(), DROVER_EBUSY);
    EXPECT_EQ(busy.text(), "Requested nodes are busy");
    // --overlap shares the held one and holds nothing.
    ASSERT_EQ(pick_step_gpus(step_gpu_ask(0, 2, 0, ""), layout({0}, {1}), job, true, &out).code(),
              DROVER_OK);
    EXPECT_EQ(out.seen[0], (Ids{0, 1}));
    EXPECT_TRUE(out.held[0].empty());
}

TEST(StepGpus, TotalSpreadsOverNodesInOrder) {
    StepGpus out;
    std::vector<NodeGpus> job{{{0, 1}, {1}}, {{0, 1}, {}}};
    ASSERT_EQ(
        pick_step_gpus(step_gpu_ask(4, 0, 0, ""), layout({0, 1}, {1, 1}), job, false, &out).code(),
        DROVER_EBUSY); // the job has 4 but one is held
    ASSERT_EQ(
        pick_step_gpus(step_gpu_ask(2, 0, 0, ""), layout({0, 1}, {1, 1}), job, false, &out).code(),
        DROVER_OK);
    EXPECT_EQ(out.seen[0], (Ids{0}));
    EXPECT_EQ(out.seen[1], (Ids{0}));
    EXPECT_EQ(
        pick_step_gpus(step_gpu_ask(5, 0, 0, ""), layout({0, 1}, {1, 1}), job, false, &out).code(),
        DROVER_ENOSPC);
}
