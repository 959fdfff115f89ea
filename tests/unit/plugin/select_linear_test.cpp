// select_linear_test.cpp - select/linear through its ops table: weights, holdings, EBUSY/ENOSPC.
#include <cstring>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace drover::plugin::test {
namespace {

struct NodeSpec {
    const char *name;
    uint32_t cpus;
    uint64_t mem_mb;
    uint32_t weight;
};

class PluginSelectLinear : public ::testing::Test {
  protected:
    // n0: heavy; n1, n2: light; n3: big CPUs and memory, middle weight.
    const std::vector<NodeSpec> specs_ = {
        {"n0", 4, 16000, 10}, {"n1", 4, 16000, 1}, {"n2", 4, 16000, 1}, {"n3", 8, 64000, 5}};

    void SetUp() override {
        set_.load("select/linear");
        for (const auto &s : specs_) {
            drover_node_view v{};
            v.struct_size = sizeof v;
            v.name = {s.name, std::strlen(s.name)};
            v.cpus = s.cpus;
            v.real_memory_mb = s.mem_mb;
            v.weight = s.weight;
            v.state = DROVER_NODE_IDLE;
            views_.push_back(v);
        }
        drover_error err{};
        ASSERT_EQ(ops().node_init(state(), views_.data(), views_.size(), &err), DROVER_OK);
    }

    const drover_select_ops &ops() const { return set_.select().ops; }
    void *state() const { return set_.select().state; }

    static drover_job_view job(uint32_t id, uint32_t min_nodes, uint32_t tasks = 1,
                               uint64_t mem_mb = 0, uint32_t max_nodes = DROVER_INFINITE) {
        drover_job_view j{};
        j.struct_size = sizeof j;
        j.job_id = id;
        j.min_nodes = min_nodes;
        j.max_nodes = max_nodes;
        j.num_tasks = tasks;
        j.cpus_per_task = 1;
        j.mem_per_node_mb = mem_mb;
        j.time_limit_min = DROVER_INFINITE;
        return j;
    }

    // job_test over usable; returns the code and, on success, the chosen node indexes.
    int test(const drover_job_view &j, std::vector<uint32_t> *picked = nullptr,
             int mode = DROVER_SELECT_RUN_NOW, const Bits &usable = Bits::all(4)) {
        Bits out(4);
        drover_bitmap w = out.writable();
        drover_error err{};
        int rc = ops().job_test(state(), &j, usable.view(), mode, &w, &err);
        if (picked) *picked = out.indexes();
        return rc;
    }

    void begin(const drover_job_view &j, std::initializer_list<uint32_t> nodes) {
        Bits b(4, nodes);
        drover_error err{};
        ASSERT_EQ(ops().job_begin(state(), &j, b.view(), &err), DROVER_OK);
    }

    Config conf_ = real_plugin_config();
    PluginSet set_{conf_, "ctld"};
    std::vector<drover_node_view> views_;
};

using Nodes = std::vector<uint32_t>;

TEST_F(PluginSelectLinear, PicksLowestWeightNodesFirst) {
    Nodes picked;
    ASSERT_EQ(test(job(1, 2), &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{1, 2}));
    ASSERT_EQ(test(job(2, 3), &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{1, 2, 3}));
}

TEST_F(PluginSelectLinear, WithoutMinNodesUsesAsFewNodesAsTheCpusNeed) {
    Nodes picked;
    ASSERT_EQ(test(job(1, 0, 4), &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{1}));
    ASSERT_EQ(test(job(2, 0, 12), &picked), DROVER_OK); // 4 + 4 + 8
    EXPECT_EQ(picked, (Nodes{1, 2, 3}));
    EXPECT_EQ(test(job(3, 0, 21)), DROVER_ENOSPC); // 20 CPUs in all
}

TEST_F(PluginSelectLinear, HonoursMemoryPerNode) {
    Nodes picked;
    ASSERT_EQ(test(job(1, 1, 1, 32000), &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{3}));
    EXPECT_EQ(test(job(2, 2, 1, 32000)), DROVER_ENOSPC);
}

TEST_F(PluginSelectLinear, SwapsForBiggerNodesWhenMaxNodesBinds) {
    Nodes picked;
    ASSERT_EQ(test(job(1, 0, 8, 0, 1), &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{3}));
    ASSERT_EQ(test(job(2, 0, 12, 0, 2), &picked), DROVER_OK);
    EXPECT_EQ(picked.size(), 2u);
    EXPECT_EQ(picked.back(), 3u);
    EXPECT_EQ(test(job(3, 0, 13, 0, 2)), DROVER_ENOSPC);
    EXPECT_EQ(test(job(4, 3, 1, 0, 2)), DROVER_ENOSPC); // min_nodes > max_nodes
}

TEST_F(PluginSelectLinear, BusyWhenHeldAndNeverWhenTooBig) {
    begin(job(1, 2), {1, 2});
    Nodes picked;
    ASSERT_EQ(test(job(2, 2), &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0, 3})); // n3 (weight 5), then n0 (weight 10)
    EXPECT_EQ(test(job(3, 4)), DROVER_EBUSY);
    ASSERT_EQ(test(job(3, 4), &picked, DROVER_SELECT_TEST_ONLY), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0, 1, 2, 3}));
    EXPECT_EQ(test(job(4, 5)), DROVER_ENOSPC);
    EXPECT_EQ(test(job(4, 5), nullptr, DROVER_SELECT_TEST_ONLY), DROVER_ENOSPC);

    drover_job_view j1 = job(1, 2);
    drover_error err{};
    ASSERT_EQ(ops().job_fini(state(), &j1, &err), DROVER_OK);
    EXPECT_EQ(test(job(3, 4)), DROVER_OK);
}

TEST_F(PluginSelectLinear, OnlyPicksUsableNodes) {
    Nodes picked;
    ASSERT_EQ(test(job(1, 2), &picked, DROVER_SELECT_RUN_NOW, Bits(4, {0, 2, 3})), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{2, 3}));
    EXPECT_EQ(test(job(2, 2), nullptr, DROVER_SELECT_RUN_NOW, Bits(4, {0})), DROVER_ENOSPC);
}

TEST_F(PluginSelectLinear, ReportsCpusOfHeldNodes) {
    ASSERT_NE(ops().job_cpus_on_node, nullptr);
    begin(job(7, 2), {1, 3});
    EXPECT_EQ(ops().job_cpus_on_node(state(), 7, 3), 8u);
    EXPECT_EQ(ops().job_cpus_on_node(state(), 7, 1), 4u);
    EXPECT_EQ(ops().job_cpus_on_node(state(), 7, 0), 0u);
    EXPECT_EQ(ops().job_cpus_on_node(state(), 8, 1), 0u);
}

TEST_F(PluginSelectLinear, NodeInitForgetsHoldingsUntilReplayed) {
    begin(job(1, 4), {0, 1, 2, 3});
    EXPECT_EQ(test(job(2, 1)), DROVER_EBUSY);
    drover_error err{};
    ASSERT_EQ(ops().node_init(state(), views_.data(), views_.size(), &err), DROVER_OK);
    EXPECT_EQ(test(job(2, 1)), DROVER_OK);
}

// scontrol suspend: a suspended job's nodes are free for others; resumed, it holds them again;
// ended while suspended, it gives back nothing twice.
TEST_F(PluginSelectLinear, ASuspendedJobsNodesAreFreeUntilItResumes) {
    drover_job_view a = job(1, 4), b = job(2, 4), c = job(3, 1);
    drover_error err{};
    begin(a, {0, 1, 2, 3});
    EXPECT_EQ(test(b), DROVER_EBUSY);
    ASSERT_EQ(ops().job_suspend(state(), &a, &err), DROVER_OK);
    EXPECT_EQ(test(b), DROVER_OK);
    begin(b, {0, 1, 2, 3});
    ASSERT_EQ(ops().job_resume(state(), &a, &err), DROVER_OK);
    ASSERT_EQ(ops().job_fini(state(), &b, &err), DROVER_OK);
    EXPECT_EQ(test(c), DROVER_EBUSY) << "the resumed job holds its nodes again";
    ASSERT_EQ(ops().job_suspend(state(), &a, &err), DROVER_OK);
    begin(b, {0, 1, 2, 3});
    ASSERT_EQ(ops().job_fini(state(), &a, &err), DROVER_OK);
    EXPECT_EQ(test(c), DROVER_EBUSY) << "b's nodes stay held: the suspended job freed them once";
}

} // namespace
} // namespace drover::plugin::test
