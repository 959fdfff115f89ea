// step_layout_test.cpp - where a step's tasks go inside its job's allocation.
#include <gtest/gtest.h>

#include <drover/plugin.h>

#include "ctld/steps/step_layout.hpp"

using namespace drover::ctld;
using drover::Status;

namespace {
std::vector<NodeCpus> idle(std::vector<uint32_t> cpus) {
    std::vector<NodeCpus> out;
    for (uint32_t c : cpus) out.push_back({c, c});
    return out;
}
} // namespace

TEST(StepLayout, BlockFillsNodesInOrderAfterOneTaskEach) {
    StepShape s;
    s.num_tasks = 5;
    StepLayout l;
    ASSERT_EQ(layout_step(s, idle({4, 4}), &l).code(), DROVER_OK);
    EXPECT_EQ(l.nodes, (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(l.tasks_per_node, (std::vector<uint32_t>{4, 1}));
    EXPECT_EQ(l.task_ids[1], (std::vector<uint32_t>{4}));
    EXPECT_EQ(l.cpus_per_node, (std::vector<uint32_t>{4, 4})); // not --exact: all the job's CPUs
}

TEST(StepLayout, CyclicDealsTasksRoundTheNodes) {
    StepShape s;
    s.num_tasks = 4;
    s.cyclic = true;
    StepLayout l;
    ASSERT_EQ(layout_step(s, idle({2, 2}), &l).code(), DROVER_OK);
    EXPECT_EQ(l.task_ids[0], (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(l.task_ids[1], (std::vector<uint32_t>{1, 3}));
}

TEST(StepLayout, PlaneDealsBlocksOfTasksRoundTheNodes) {
    // Slurm's example of -N2 -n10 -m plane=4: tasks 0-3 and 8-9 on the first node, 4-7 on the
    // second.
    StepShape s;
    s.num_tasks = 10;
    s.min_nodes = 2;
    s.plane = 4;
    StepLayout l;
    ASSERT_EQ(layout_step(s, idle({8, 8}), &l).code(), DROVER_OK);
    EXPECT_EQ(l.task_ids[0], (std::vector<uint32_t>{0, 1, 2, 3, 8, 9}));
    EXPECT_EQ(l.task_ids[1], (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(l.tasks_per_node, (std::vector<uint32_t>{6, 4}));
}

TEST(StepLayout, ArbitraryPutsEachTaskWhereTheListSays) {
    StepShape s;
    s.num_tasks = 4;
    s.arbitrary = {1, 0, 1, 1};
    s.exact = true;
    StepLayout l;
    ASSERT_EQ(layout_step(s, idle({2, 4}), &l).code(), DROVER_OK);
    EXPECT_EQ(l.nodes, (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(l.task_ids[0], (std::vector<uint32_t>{1}));
    EXPECT_EQ(l.task_ids[1], (std::vector<uint32_t>{0, 2, 3}));
    EXPECT_EQ(l.cpus_per_node, (std::vector<uint32_t>{1, 3}));
    s.arbitrary = {0, 0, 0, 1}; // three tasks on a node of two CPUs
    EXPECT_EQ(layout_step(s, idle({2, 4}), &l).code(), DROVER_ENOSPC);
}

TEST(StepLayout, ExactTakesOnlyWhatItAsksForAndFewestNodes) {
    StepShape s;
    s.num_tasks = 2;
    s.exact = true;
    StepLayout l;
    ASSERT_EQ(layout_step(s, idle({4, 4}), &l).code(), DROVER_OK);
    EXPECT_EQ(l.nodes, (std::vector<uint32_t>{0}));
    EXPECT_EQ(l.cpus_per_node, (std::vector<uint32_t>{2}));
}

TEST(StepLayout, BusyWhenItWouldFitLaterImpossibleWhenNever) {
    StepShape s;
    s.num_tasks = 1;
    StepLayout l;
    // Without --exact a step needs every CPU the job has on a node: one CPU in use is busy.
    Status busy = layout_step(s, {{4, 3}}, &l);
    EXPECT_EQ(busy.code(), DROVER_EBUSY);
    EXPECT_EQ(busy.text(), "Requested nodes are busy");
    s.exact = true;
    EXPECT_EQ(layout_step(s, {{4, 3}}, &l).code(), DROVER_OK);
    s.num_tasks = 9;
    Status never = layout_step(s, idle({4, 4}), &l);
    EXPECT_EQ(never.code(), DROVER_ENOSPC);
    EXPECT_NE(never.text().find("Requested node configuration is not available"),
              std::string::npos);
    // --overlap uses CPUs without taking them.
    StepShape o;
    o.overlap = true;
    EXPECT_EQ(layout_step(o, {{4, 0}}, &l).code(), DROVER_OK);
}

TEST(StepLayout, NodeListsAndCountsAreKept) {
    StepShape s;
    s.num_tasks = 2;
    s.min_nodes = 2;
    s.allowed = {false, true, true};
    StepLayout l;
    ASSERT_EQ(layout_step(s, idle({1, 1, 1}), &l).code(), DROVER_OK);
    EXPECT_EQ(l.nodes, (std::vector<uint32_t>{1, 2}));
    // Three nodes asked for when -w/-x leave two: never.
    s.num_tasks = 3;
    s.min_nodes = 3;
    EXPECT_EQ(layout_step(s, idle({1, 1, 1}), &l).code(), DROVER_ENOSPC);
}

TEST(StepLayout, OvercommitFillsTheCpusThenDealsTheRestRoundTheNodes) {
    StepShape s;
    s.num_tasks = 7;
    StepLayout l;
    // Without -O seven one-CPU tasks never fit two nodes of two CPUs.
    EXPECT_EQ(layout_step(s, idle({2, 2}), &l).code(), DROVER_ENOSPC);
    s.overcommit = true;
    ASSERT_EQ(layout_step(s, idle({2, 2}), &l).code(), DROVER_OK);
    EXPECT_EQ(l.nodes, (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(l.tasks_per_node, (std::vector<uint32_t>{4, 3}));
    EXPECT_EQ(l.task_ids[0], (std::vector<uint32_t>{0, 1, 2, 3})); // block: consecutive ids
    EXPECT_EQ(l.cpus_per_node, (std::vector<uint32_t>{2, 2}));
    s.exact = true; // the tasks' CPUs, never more than the node has
    ASSERT_EQ(layout_step(s, idle({2, 2}), &l).code(), DROVER_OK);
    EXPECT_EQ(l.cpus_per_node, (std::vector<uint32_t>{2, 2}));
}

TEST(StepLayout, OvercommitStillWaitsForBusyNodes) {
    StepShape s;
    s.num_tasks = 4;
    s.overcommit = true;
    StepLayout l;
    EXPECT_EQ(layout_step(s, {{2, 0}}, &l).code(), DROVER_EBUSY);
}
