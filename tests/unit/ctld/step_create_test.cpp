// step_create_test.cpp - a step's creation parts without a controller: the shape srun's request
// asks for (-w/-x inside the job, --gres checked, one task per node by default), its memory on
// each node (--mem, --mem-per-cpu, else the job's; more than the job has is refused with Slurm's
// text), and the new step (its name, time limit and --signal).
#include <gtest/gtest.h>

#include <drover/plugin.h>

#include <string>
#include <vector>

#include "ctld/steps/step_create.hpp"

using namespace drover;
using namespace drover::ctld;

namespace {

const std::vector<std::string> kNames = {"n0", "n1", "n2", "n3"};

const std::string &name_of(uint32_t i) {
    return kNames.at(i);
}

// A job on n1 and n3 with 4 CPUs on each and 1000 MB per node.
Job sample_job() {
    Job j;
    j.id = 42;
    j.name = "sim";
    j.nodes = {1, 3};
    j.node_cpus = {4, 4};
    j.mem_per_node_mb = 1000;
    return j;
}

// srun's request, as the controller reads it.
struct Request {
    explicit Request(const proto::StepCreateRequestT &t) {
        fbb.Finish(proto::StepCreateRequest::Pack(fbb, &t));
    }
    const proto::StepCreateRequest &operator*() const {
        return *flatbuffers::GetRoot<proto::StepCreateRequest>(fbb.GetBufferPointer());
    }
    flatbuffers::FlatBufferBuilder fbb;
};

TEST(StepShape, OneTaskPerJobNodeByDefault) {
    proto::StepCreateRequestT t;
    StepShape shape;
    ASSERT_TRUE(step_shape(sample_job(), *Request(t), name_of, &shape).ok());
    EXPECT_EQ(shape.num_tasks, 2u);
    EXPECT_TRUE(shape.allowed.empty());
}

TEST(StepShape, NodeListPicksPositionsInsideTheJob) {
    proto::StepCreateRequestT t;
    t.node_list = "n3";
    StepShape shape;
    ASSERT_TRUE(step_shape(sample_job(), *Request(t), name_of, &shape).ok());
    EXPECT_EQ(shape.allowed, (std::vector<bool>{false, true}));
    EXPECT_EQ(shape.min_nodes, 1u);
    EXPECT_EQ(shape.num_tasks, 1u);

    t.node_list.clear();
    t.exc_nodes = "n1";
    StepShape excluded;
    ASSERT_TRUE(step_shape(sample_job(), *Request(t), name_of, &excluded).ok());
    EXPECT_EQ(excluded.allowed, (std::vector<bool>{false, true}));
}

TEST(StepShape, ArbitraryFollowsTheListNameByName) {
    proto::StepCreateRequestT t;
    t.node_list = "n3,n1,n3";
    t.arbitrary = true;
    StepShape shape;
    ASSERT_TRUE(step_shape(sample_job(), *Request(t), name_of, &shape).ok());
    EXPECT_EQ(shape.num_tasks, 3u); // one task per name unless -n says fewer
    EXPECT_EQ(shape.arbitrary, (std::vector<uint32_t>{1, 0, 1}));
    t.num_tasks = 4;
    StepShape more;
    Status s = step_shape(sample_job(), *Request(t), name_of, &more);
    EXPECT_EQ(s.code(), DROVER_EINVAL);
    EXPECT_EQ(s.text(), "Requested node configuration is not available (the host list names 3 "
                        "hosts for 4 tasks)");
}

TEST(StepShape, NodeOutsideTheJobOrBadGresIsRefused) {
    proto::StepCreateRequestT t;
    t.node_list = "n2";
    StepShape shape;
    Status s = step_shape(sample_job(), *Request(t), name_of, &shape);
    EXPECT_EQ(s.code(), DROVER_EINVAL);
    EXPECT_EQ(s.text(), "Requested node configuration is not available (n2 is not in job 42)");

    proto::StepCreateRequestT g;
    g.gres = "gpu:-1";
    EXPECT_EQ(step_shape(sample_job(), *Request(g), name_of, &shape).text(),
              "Invalid generic resource (gres) specification");
}

TEST(StepMemory, MemPerNodeMemPerCpuOrAllTheJobHas) {
    StepLayout lay;
    lay.nodes = {0, 1};
    lay.cpus_per_node = {2, 3};
    proto::StepCreateRequestT t;
    std::vector<uint64_t> mem;
    ASSERT_TRUE(step_memory(sample_job(), *Request(t), lay, &mem).ok());
    EXPECT_EQ(mem, (std::vector<uint64_t>{1000, 1000}));

    t.mem_per_cpu_mb = 100;
    mem.clear();
    ASSERT_TRUE(step_memory(sample_job(), *Request(t), lay, &mem).ok());
    EXPECT_EQ(mem, (std::vector<uint64_t>{200, 300}));

    t.mem_per_node_mb = 1500;
    mem.clear();
    Status s = step_memory(sample_job(), *Request(t), lay, &mem);
    EXPECT_EQ(s.code(), DROVER_ENOSPC);
    EXPECT_EQ(
        s.text(),
        "Memory required by task is not available (1500M asked, the job has 1000M on a node)");
}

TEST(NewStep, NamedAfterTheJobUnlessGivenAndUnlimitedByDefault) {
    StepLayout lay;
    lay.nodes = {0};
    lay.cpus_per_node = {4};
    lay.tasks_per_node = {4};
    StepShape shape;
    shape.num_tasks = 4;
    proto::StepCreateRequestT t;
    t.command = "hostname";
    Step st;
    ASSERT_TRUE(new_step(sample_job(), 3, *Request(t), shape, lay, &st).ok());
    EXPECT_EQ(st.job_id, 42u);
    EXPECT_EQ(st.id, 3u);
    EXPECT_EQ(st.name, "sim");
    EXPECT_EQ(st.command, "hostname");
    EXPECT_EQ(st.num_tasks, 4u);
    EXPECT_EQ(st.time_limit_min, uint32_t(DROVER_INFINITE));

    t.name = "post";
    t.time_limit_min = 5;
    t.signal = "USR1@30";
    Step named;
    ASSERT_TRUE(new_step(sample_job(), 4, *Request(t), shape, lay, &named).ok());
    EXPECT_EQ(named.name, "post");
    EXPECT_EQ(named.time_limit_min, 5u);
    EXPECT_EQ(named.signal_secs, 30u);

    t.signal = "NOSUCHSIG@x";
    Step bad;
    Status s = new_step(sample_job(), 5, *Request(t), shape, lay, &bad);
    EXPECT_EQ(s.code(), DROVER_EINVAL);
    EXPECT_EQ(s.text(), "Invalid --signal specification: NOSUCHSIG@x");
}

} // namespace
