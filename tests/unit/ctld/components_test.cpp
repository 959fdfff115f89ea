// components_test.cpp - the controller's node, job, step and scheduler parts built as the
// controller builds them, over an in-memory store and fake select, sched and auth plugins (tables
// of local functions): no LMDB file, no plugin file, no network. What is checked is what squeue and
// scontrol would show (job state and reason, node state) and what the parts above hear (events).
#include "components_fixture.hpp"

namespace drover::ctld {
namespace {

TEST(CtldComponents, PassStartsWhatFitsAndTheRestWaitsForResources) {
    Cluster c;
    Job &a = c.submit(), &b = c.submit(), &d = c.submit();
    c.sched.pass();
    EXPECT_EQ(a.state, uint32_t(DROVER_JOB_RUNNING));
    EXPECT_EQ(b.state, uint32_t(DROVER_JOB_RUNNING));
    EXPECT_EQ(d.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(d.reason, "Resources");
    EXPECT_EQ(c.nodes.names(a.nodes), "n1");
    EXPECT_EQ(c.nodes.names(b.nodes), "n2");
    EXPECT_EQ(c.nodes.at(0).state, uint32_t(DROVER_NODE_ALLOCATED));
    // Starts are heard (the launcher sends scripts) only once they are durable.
    EXPECT_TRUE(c.started.empty());
    c.commit.flush();
    EXPECT_EQ(c.started, (std::vector<uint32_t>{a.id, b.id}));
}

TEST(CtldComponents, EndOfARunningJobFreesItsNodeAndWakesTheQueue) {
    Cluster c;
    Job &a = c.submit();
    Job &b = c.submit();
    Job &waiting = c.submit();
    c.sched.pass();
    ASSERT_EQ(waiting.reason, "Resources");
    c.queue_changes = 0;
    c.jobs.end_job(a, DROVER_JOB_COMPLETE, 0);
    EXPECT_EQ(a.state, uint32_t(DROVER_JOB_COMPLETE));
    EXPECT_EQ(c.ended, std::vector<uint32_t>{a.id}); // the step manager ends its steps
    EXPECT_EQ(finished_jobs, 1u);                    // select job_fini: allocation released
    EXPECT_EQ(c.nodes.at(0).state, uint32_t(DROVER_NODE_IDLE));
    EXPECT_GT(c.queue_changes, 0); // the scheduler asks for a pass
    c.sched.pass();
    EXPECT_EQ(waiting.state, uint32_t(DROVER_JOB_RUNNING));
    EXPECT_EQ(c.nodes.names(waiting.nodes), "n1");
    EXPECT_EQ(b.state, uint32_t(DROVER_JOB_RUNNING));
}

TEST(CtldComponents, PassEndsAJobThatCanNoLongerMeetItsDeadline) {
    Cluster c;
    Job &late = c.submit(30);
    late.mutable_extra().deadline = Ctx::now() + 60; // needs 30 minutes, has one
    c.sched.pass();
    EXPECT_EQ(late.state, uint32_t(DROVER_JOB_DEADLINE));
    EXPECT_EQ(late.reason, "DeadLine");
    EXPECT_TRUE(late.nodes.empty());
    EXPECT_TRUE(c.ended.empty()); // it never ran: no steps to end, no node held
}

TEST(CtldComponents, HeldJobWaitsAndOthersStart) {
    Cluster c;
    Job &held = c.submit();
    held.hold = Hold::User;
    held.reason = "JobHeldUser";
    Job &other = c.submit();
    c.sched.pass();
    EXPECT_EQ(held.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(held.reason, "JobHeldUser");
    EXPECT_EQ(other.state, uint32_t(DROVER_JOB_RUNNING));
    EXPECT_EQ(c.nodes.names(other.nodes), "n1");
}

TEST(CtldComponents, JobOverThePartitionTimeLimitWaitsWithSlurmsReason) {
    Cluster c;
    Job &j = c.submit(120); // MaxTime=60
    c.sched.pass();
    EXPECT_EQ(j.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(j.reason, "PartitionTimeLimit");
}

TEST(CtldComponents, NodeFailureRequeuesItsRequeueableJob) {
    Cluster c;
    Job &j = c.submit();
    j.requeue = true;
    c.sched.pass();
    ASSERT_EQ(j.state, uint32_t(DROVER_JOB_RUNNING));
    c.events.node_failed.publish(j.nodes.front()); // what NodeManager says when a node goes DOWN
    EXPECT_EQ(j.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(j.restart_count, 1u);
    EXPECT_TRUE(j.nodes.empty());
    EXPECT_EQ(c.nodes.at(0).state, uint32_t(DROVER_NODE_IDLE));
}

TEST(CtldComponents, NodeFailureEndsAJobThatMayNotBeRequeued) {
    Cluster c;
    Job &j = c.submit();
    j.requeue = false;
    c.sched.pass();
    c.events.node_failed.publish(j.nodes.front());
    EXPECT_EQ(j.state, uint32_t(DROVER_JOB_NODE_FAIL));
    EXPECT_EQ(c.ended, std::vector<uint32_t>{j.id});
}

TEST(CtldComponents, StartAndEndAreInTheStoreOnceCommitted) {
    Cluster c;
    Job &j = c.submit();
    c.sched.pass();
    c.commit.flush();
    auto rec = c.store.get(state::Table::Jobs, state::job_key(j.id));
    ASSERT_TRUE(rec.has_value());
    EXPECT_GT(rec->size(), 0u);
    c.jobs.end_job(j, DROVER_JOB_COMPLETE, 0);
    c.commit.flush();
    // A controller that recovers from this store has the job, ended.
    Events events2;
    Ctx ctx2{c.io,   c.conf, c.plugins, c.auth, c.store, c.commit,
             c.pool, c.acct, events2,   0,      "unit",  &c.recorder};
    NodeManager nodes2(ctx2);
    JobManager jobs2(ctx2, nodes2, c.place);
    jobs2.recover(false);
    ASSERT_NE(jobs2.find(j.id), nullptr);
    EXPECT_EQ(jobs2.find(j.id)->state, uint32_t(DROVER_JOB_COMPLETE));
}

// What a handler answered: the reply's message, or the error's code and text.
struct Answer : net::Responder {
    std::vector<uint8_t> bytes;
    int code = -1;
    std::string text;
    void reply(std::span<const uint8_t> m) override {
        bytes.assign(m.begin(), m.end());
        const auto *msg = flatbuffers::GetRoot<proto::Message>(bytes.data());
        if (const auto *e = msg->body_as_ErrorResponse()) {
            code = e->code();
            text = e->message() ? e->message()->str() : "";
        } else {
            code = 0;
        }
    }
    const proto::StepCreateResponse *step() const {
        return flatbuffers::GetRoot<proto::Message>(bytes.data())->body_as_StepCreateResponse();
    }
};

// srun's step request in job_id for num_tasks tasks, sent by uid.
std::shared_ptr<Answer> create_step(Cluster &c, uint32_t job_id, uint32_t num_tasks, uint32_t uid) {
    auto req = std::make_shared<net::Request>();
    flatbuffers::FlatBufferBuilder fbb;
    proto::StepCreateRequestBuilder b(fbb);
    b.add_job_id(job_id);
    b.add_num_tasks(num_tasks);
    auto body = b.Finish();
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepCreateRequest, body.Union()));
    req->bytes.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    req->msg = flatbuffers::GetRoot<proto::Message>(req->bytes.data());
    req->peer.uid = uid;
    auto answer = std::make_shared<Answer>();
    c.steps.on_create(req, answer);
    c.commit.flush(); // the reply waits for the step's record to be durable
    return answer;
}

TEST(CtldComponents, StepIsCreatedInARunningAllocationAndEndsWithIt) {
    Cluster c;
    Job &j = c.submit(10, true);
    c.sched.pass();
    ASSERT_EQ(j.state, uint32_t(DROVER_JOB_RUNNING));
    auto a = create_step(c, j.id, 4, 1000);
    ASSERT_EQ(a->code, 0) << a->text;
    ASSERT_NE(a->step(), nullptr);
    EXPECT_EQ(a->step()->step_id(), 0u);
    EXPECT_EQ(a->step()->node_list()->str(), "n1");
    EXPECT_EQ(c.steps.step_ids(j.id), std::vector<uint32_t>{0});
    EXPECT_EQ(c.steps.running_steps(), 1u);
    // The job's end (here: its owner releases the allocation) ends its steps.
    c.jobs.end_job(j, DROVER_JOB_COMPLETE, 0);
    EXPECT_TRUE(c.steps.step_ids(j.id).empty());
    EXPECT_EQ(c.steps.running_steps(), 0u);
}

TEST(CtldComponents, StepIsRefusedToAnotherUserAndBeyondTheAllocation) {
    Cluster c;
    Job &j = c.submit(10, true);
    c.sched.pass();
    auto other = create_step(c, j.id, 1, 1001);
    EXPECT_EQ(other->code, DROVER_EPERM);
    EXPECT_EQ(other->text, "Access/permission denied");
    auto too_big = create_step(c, j.id, 5, 1000); // the job holds one node of 4 CPUs
    EXPECT_NE(too_big->code, 0);
    EXPECT_FALSE(too_big->text.empty());
    auto none = create_step(c, 999, 1, 1000);
    EXPECT_EQ(none->code, DROVER_ENOENT);
    EXPECT_EQ(none->text, "Invalid job id specified");
    EXPECT_TRUE(c.steps.step_ids(j.id).empty());
}

// A heterogeneous job (het_job.cpp): its components start in the same pass or not at all, a
// pending one may not be cancelled alone, and they end with their leader.
TEST(CtldComponents, HeterogeneousJobStartsWholeAndEndsWithItsLeader) {
    Cluster c;
    Job &busy = c.submit();
    c.sched.pass();
    ASSERT_TRUE(busy.running());
    Job &lead = c.submit();
    Job &other = c.submit(10, /*interactive=*/true);
    ASSERT_EQ(other.id, lead.id + 1);
    for (Job *j : {&lead, &other}) {
        JobExtra &x = j->mutable_extra();
        x.het_job_id = lead.id;
        x.het_job_offset = j == &lead ? 0 : 1;
        x.het_size = 2;
    }
    c.sched.pass(); // one node is free: the first component would fit alone
    EXPECT_TRUE(lead.pending());
    EXPECT_TRUE(other.pending());
    EXPECT_EQ(lead.reason, "Resources");
    EXPECT_EQ(other.reason, "Resources");
    EXPECT_EQ(held.count(lead.id), 0u) << "the select plugin was given its node back";
    EXPECT_EQ(JobManager::het_signal_check(other).text(),
              "Operation not permitted on individual component of heterogeneous job");
    EXPECT_TRUE(JobManager::het_signal_check(lead).ok());
    EXPECT_EQ(JobManager::het_leader_only(other).text(), "Job not heterogeneous job leader");
    EXPECT_EQ(c.jobs.het_components(other).size(), 2u);

    c.jobs.end_job(busy, DROVER_JOB_COMPLETE, 0);
    c.sched.pass();
    ASSERT_TRUE(lead.running());
    ASSERT_TRUE(other.running());
    EXPECT_NE(lead.nodes, other.nodes);
    c.jobs.end_job(lead, DROVER_JOB_COMPLETE, 0);
    EXPECT_EQ(other.state, uint32_t(DROVER_JOB_COMPLETE)) << "it ends with its leader";
}

} // namespace
} // namespace drover::ctld
