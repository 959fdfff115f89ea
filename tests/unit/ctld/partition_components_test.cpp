// partition_components_test.cpp - scontrol create, update and delete partition in the
// controller's parts: only the settings given change, a refusal changes nothing, the scheduler
// and submission see the change at once, a partition with jobs is not deleted, and the records
// bring every change back after a restart. What is checked is what scontrol show partition,
// sinfo and squeue would show.
#include "components_fixture.hpp"

namespace drover::ctld {
namespace {

Status update(Cluster &c, PartitionFields fields) {
    return c.nodes.update_partition("batch", fields);
}

TEST(CtldPartitions, UpdateChangesOnlyTheSettingsGiven) {
    Cluster c;
    ASSERT_TRUE(update(c, {{"MaxTime", "30"}, {"AllowAccounts", "unit,other"}}).ok());
    const Partition *p = c.nodes.partition("batch");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->conf->max_time_min, 30u);
    EXPECT_EQ(p->conf->allow_accounts, (std::vector<std::string>{"unit", "other"}));
    EXPECT_EQ(p->state, "UP");
    EXPECT_EQ(p->nodes.count(), 2u);
    EXPECT_EQ(p->total_cpus, 8u);
    EXPECT_TRUE(p->conf->is_default);
}

TEST(CtldPartitions, ARefusalChangesNothing) {
    Cluster c;
    Status s = update(c, {{"MaxTime", "5"}, {"State", "SLEEPY"}});
    EXPECT_EQ(s.text(),
              "partition batch: bad value for State: 'SLEEPY' (expected UP, DOWN, DRAIN or "
              "INACTIVE)");
    s = update(c, {{"MaxTime", "5"}, {"Hidden", "YES"}});
    EXPECT_EQ(s.text(), "Update of this parameter is not supported: Hidden=YES");
    s = update(c, {{"MaxTime", "5"}, {"Nodes", "n[1-9]"}});
    EXPECT_EQ(s.text(), "Invalid node name specified");
    EXPECT_EQ(c.nodes.partition("batch")->conf->max_time_min, 60u);
    EXPECT_EQ(c.nodes.partition("batch")->nodes.count(), 2u);
    EXPECT_EQ(c.nodes.update_partition("nosuch", {{"MaxTime", "5"}}).text(),
              "Invalid partition name specified");
}

TEST(CtldPartitions, DefaultTimeAboveMaxTimeIsNotTaken) {
    Cluster c;
    ASSERT_TRUE(update(c, {{"DefaultTime", "10"}}).ok());
    ASSERT_TRUE(update(c, {{"DefaultTime", "90"}, {"State", "DRAIN"}}).ok()); // MaxTime=60
    EXPECT_EQ(c.nodes.partition("batch")->conf->default_time_min, 10u) << "as Slurm: kept";
    EXPECT_EQ(c.nodes.partition("batch")->state, "DRAIN") << "the rest is taken";
}

TEST(CtldPartitions, StateAndLimitsReachTheSchedulerAtOnce) {
    Cluster c;
    ASSERT_TRUE(update(c, {{"State", "DOWN"}}).ok());
    Job &j = c.submit();
    c.sched.pass();
    EXPECT_EQ(j.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(j.reason, "PartitionDown");
    ASSERT_TRUE(update(c, {{"State", "UP"}, {"MaxTime", "5"}}).ok());
    c.sched.pass();
    EXPECT_EQ(j.reason, "PartitionTimeLimit"); // it asked for 10 minutes
    ASSERT_TRUE(update(c, {{"MaxTime", "UNLIMITED"}}).ok());
    c.sched.pass();
    EXPECT_EQ(j.state, uint32_t(DROVER_JOB_RUNNING));
}

TEST(CtldPartitions, NodesChange) {
    Cluster c;
    ASSERT_TRUE(update(c, {{"Nodes", "n1"}}).ok());
    const Partition *p = c.nodes.partition("batch");
    EXPECT_EQ(p->nodes.count(), 1u);
    EXPECT_EQ(p->total_cpus, 4u);
    Job &a = c.submit(), &b = c.submit();
    c.sched.pass();
    EXPECT_EQ(c.nodes.names(a.nodes), "n1");
    EXPECT_EQ(b.reason, "Resources");
    ASSERT_TRUE(update(c, {{"Nodes", "ALL"}}).ok());
    EXPECT_EQ(c.nodes.partition("batch")->nodes.count(), 2u);
    ASSERT_TRUE(update(c, {{"Nodes", ""}}).ok());
    EXPECT_EQ(c.nodes.partition("batch")->nodes.count(), 0u);
    EXPECT_EQ(c.nodes.partition("batch")->total_cpus, 0u);
}

TEST(CtldPartitions, CreateAndDelete) {
    Cluster c;
    ASSERT_TRUE(c.nodes.create_partition("gpu", {{"Nodes", "n2"}, {"MaxTime", "20"}}).ok());
    const Partition *p = c.nodes.partition("gpu");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(c.nodes.names({1}), "n2");
    EXPECT_TRUE(p->nodes.test(1));
    EXPECT_EQ(p->conf->max_time_min, 20u);
    EXPECT_EQ(p->state, "UP");
    EXPECT_FALSE(p->conf->is_default);
    EXPECT_EQ(c.nodes.create_partition("gpu", {}).text(), "Invalid partition name specified");
    EXPECT_EQ(c.nodes.create_partition("batch", {}).text(), "Invalid partition name specified");
    EXPECT_EQ(c.nodes.create_partition("", {}).text(), "Invalid partition name specified");
    EXPECT_EQ(c.nodes.create_partition("x", {{"Nodes", "n7"}}).text(),
              "Invalid node name specified");
    EXPECT_EQ(c.nodes.partition("x"), nullptr);

    Job &j = c.submit();
    j.partition = "gpu";
    EXPECT_EQ(c.nodes.delete_partition("gpu").text(), "Partition is in use") << "pending";
    c.sched.pass();
    ASSERT_EQ(j.state, uint32_t(DROVER_JOB_RUNNING));
    EXPECT_EQ(c.nodes.names(j.nodes), "n2");
    EXPECT_EQ(c.nodes.delete_partition("gpu").text(), "Partition is in use") << "running";
    c.jobs.end_job(j, DROVER_JOB_COMPLETE, 0);
    EXPECT_TRUE(c.nodes.delete_partition("gpu").ok());
    EXPECT_EQ(c.nodes.partition("gpu"), nullptr);
    EXPECT_EQ(c.nodes.delete_partition("gpu").text(), "Invalid partition name specified");
}

TEST(CtldPartitions, OneDefaultOrNone) {
    Cluster c;
    ASSERT_TRUE(c.nodes.create_partition("gpu", {{"Nodes", "n2"}, {"Default", "YES"}}).ok());
    EXPECT_EQ(c.nodes.default_partition()->conf->name, "gpu");
    EXPECT_FALSE(c.nodes.partition("batch")->conf->is_default) << "the mark moves";
    ASSERT_TRUE(update(c, {{"Default", "YES"}}).ok());
    EXPECT_EQ(c.nodes.default_partition()->conf->name, "batch");
    EXPECT_FALSE(c.nodes.partition("gpu")->conf->is_default);
    ASSERT_TRUE(c.nodes.update_partition("gpu", {{"Default", "NO"}}).ok()); // not the default
    EXPECT_EQ(c.nodes.default_partition()->conf->name, "batch");
    ASSERT_TRUE(update(c, {{"Default", "NO"}}).ok());
    EXPECT_EQ(c.nodes.default_partition(), nullptr) << "as Slurm: no default left";
    ASSERT_TRUE(update(c, {{"Default", "YES"}}).ok());
    ASSERT_TRUE(c.nodes.delete_partition("batch").ok());
    EXPECT_EQ(c.nodes.default_partition(), nullptr);
}

TEST(CtldPartitions, TheStoreBringsThemBack) {
    Cluster c;
    ASSERT_TRUE(update(c, {{"State", "DRAIN"}, {"MaxTime", "45"}, {"Nodes", "n1"}}).ok());
    ASSERT_TRUE(c.nodes
                    .create_partition("gpu", {{"Nodes", "n2"},
                                              {"Default", "YES"},
                                              {"PriorityJobFactor", "5"},
                                              {"AllowAccounts", "physics"}})
                    .ok());
    ASSERT_TRUE(c.nodes.create_partition("gone", {{"Nodes", "ALL"}}).ok());
    ASSERT_TRUE(c.nodes.delete_partition("gone").ok());
    c.commit.flush();

    NodeManager again{c.ctx};
    again.recover();
    ASSERT_EQ(again.partitions().size(), 2u);
    const Partition *batch = again.partition("batch");
    ASSERT_NE(batch, nullptr);
    EXPECT_EQ(batch->state, "DRAIN");
    EXPECT_EQ(batch->conf->max_time_min, 45u);
    EXPECT_EQ(batch->nodes.count(), 1u);
    EXPECT_TRUE(batch->nodes.test(0));
    EXPECT_FALSE(batch->conf->is_default);
    const Partition *gpu = again.partition("gpu");
    ASSERT_NE(gpu, nullptr);
    EXPECT_TRUE(gpu->nodes.test(1));
    EXPECT_EQ(gpu->total_cpus, 4u);
    EXPECT_EQ(gpu->conf->priority_job_factor, 5u);
    EXPECT_EQ(gpu->conf->allow_accounts, std::vector<std::string>{"physics"});
    EXPECT_EQ(again.default_partition(), gpu);
    EXPECT_EQ(again.partition("gone"), nullptr);

    // A partition of slurm.conf deleted stays deleted.
    ASSERT_TRUE(c.nodes.update_partition("gpu", {{"Default", "NO"}}).ok());
    ASSERT_TRUE(c.nodes.delete_partition("batch").ok());
    c.commit.flush();
    NodeManager third{c.ctx};
    third.recover();
    EXPECT_EQ(third.partition("batch"), nullptr);
    ASSERT_NE(third.partition("gpu"), nullptr);
    EXPECT_EQ(third.default_partition(), nullptr);
}

// -p a,b: the job waits in both, starts in the first that takes it, and belongs to that one.
TEST(CtldPartitions, AJobInSeveralStartsInTheFirstThatTakesIt) {
    Cluster c;
    ASSERT_TRUE(c.nodes.create_partition("one", {{"Nodes", "n1"}}).ok());
    ASSERT_TRUE(c.nodes.create_partition("two", {{"Nodes", "n2"}}).ok());
    Job &a = c.submit(), &b = c.submit(), &w = c.submit();
    a.partition = b.partition = "one,two";
    w.partition = "two,one";
    c.sched.pass();
    EXPECT_EQ(a.partition, "one");
    EXPECT_EQ(c.nodes.names(a.nodes), "n1");
    EXPECT_EQ(b.partition, "two") << "the first was full";
    EXPECT_EQ(c.nodes.names(b.nodes), "n2");
    EXPECT_EQ(w.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(w.partition, "two,one") << "waiting, it keeps the list";
    EXPECT_EQ(w.reason, "Resources");
    ASSERT_TRUE(c.nodes.update_partition("two", {{"State", "DOWN"}}).ok());
    c.jobs.end_job(a, DROVER_JOB_COMPLETE, 0);
    c.jobs.end_job(b, DROVER_JOB_COMPLETE, 0);
    c.sched.pass();
    EXPECT_EQ(w.partition, "one") << "a partition that is down is passed over";
}

} // namespace
} // namespace drover::ctld
