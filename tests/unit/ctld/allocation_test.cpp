// allocation_test.cpp - a job's hold on its nodes against a fake select plugin (a table of local
// functions, no plugin file, no state store): a refused job_begin leaves the job unallocated, and
// an accepted one fills the job's nodes and CPUs from what the plugin tells.
#include <gtest/gtest.h>

#include <cstring>

#include "ctld/sched/allocation.hpp"
#include "ctld/jobs/job.hpp"

namespace drover::ctld {
namespace {

uint32_t begun = 0, finished = 0; // job ids the fake saw

int begin_ok(void *, const drover_job_view *j, drover_bitmap_view, drover_error *) {
    begun = j->job_id;
    return DROVER_OK;
}
int begin_refused(void *, const drover_job_view *, drover_bitmap_view, drover_error *err) {
    std::strcpy(err->text, "allocation table is inconsistent");
    return DROVER_EIO;
}
int fini_refused(void *, const drover_job_view *j, drover_error *err) {
    finished = j->job_id;
    std::strcpy(err->text, "job was never begun");
    return DROVER_ENOENT;
}
uint32_t cpus_by_index(void *, uint32_t, uint32_t node) {
    return node + 1;
}

plugin::Bound<drover_select_ops> fake_select(bool accept) {
    begun = finished = 0;
    plugin::Bound<drover_select_ops> b;
    b.id = "select/fake";
    b.ops.struct_size = sizeof b.ops;
    b.ops.job_begin = accept ? begin_ok : begin_refused;
    b.ops.job_fini = fini_refused;
    b.ops.job_cpus_on_node = cpus_by_index;
    return b;
}

uint32_t whole_node(uint32_t) {
    return 8;
}

TEST(CtldAllocation, RefusedBeginLeavesTheJobUnallocated) {
    auto b = fake_select(false);
    Job job;
    job.id = 12;
    job.state = DROVER_JOB_PENDING;
    Status s = allocate(b, job, {0, 2}, 4, whole_node);
    EXPECT_EQ(s.code(), DROVER_EIO);
    EXPECT_EQ(s.text(), "select/fake job_begin: allocation table is inconsistent");
    EXPECT_TRUE(job.nodes.empty());
    EXPECT_TRUE(job.node_cpus.empty());
    EXPECT_EQ(job.alloc_cpus, 0u);
    EXPECT_EQ(job.state, uint32_t(DROVER_JOB_PENDING));
}

TEST(CtldAllocation, AcceptedBeginFillsNodesAndCpus) {
    auto b = fake_select(true);
    Job job;
    job.id = 13;
    ASSERT_TRUE(allocate(b, job, {0, 2}, 4, whole_node).ok());
    EXPECT_EQ(begun, 13u);
    EXPECT_EQ(job.nodes, (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(job.node_cpus, (std::vector<uint32_t>{1, 3})); // job_cpus_on_node's answers
    EXPECT_EQ(job.alloc_cpus, 4u);
    EXPECT_TRUE(job.node_alloc.empty()); // job_alloc_detail absent: no detail

    b.ops.job_cpus_on_node = nullptr; // absent: the whole node
    ASSERT_TRUE(allocate(b, job, {1}, 4, whole_node).ok());
    EXPECT_EQ(job.alloc_cpus, 8u);
}

TEST(CtldAllocation, ReleaseReportsAndGoesOn) {
    auto b = fake_select(true);
    Job job;
    job.id = 14;
    release(b, job, "requeue"); // the refusal is logged; nothing throws
    EXPECT_EQ(finished, 14u);
    release(plugin::SelectCalls(), job, "end"); // no plugin: nothing to release
}

} // namespace
} // namespace drover::ctld
