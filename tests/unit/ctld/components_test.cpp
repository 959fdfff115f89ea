// components_test.cpp - the controller's node, job, step and scheduler parts built as the
// controller builds them, over an in-memory store and fake select, sched and auth plugins (tables
// of local functions): no LMDB file, no plugin file, no network. What is checked is what squeue and
// scontrol would show (job state and reason, node state) and what the parts above hear (events).
#include <gtest/gtest.h>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>

#include <cstring>
#include <map>
#include <set>

#include "common/config.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "ctld/acct/acct_recorder.hpp"
#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/sched/placement.hpp"
#include "ctld/sched/scheduler.hpp"
#include "ctld/steps/step_mgr.hpp"
#include "ctld/store/committer.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace drover::ctld {
namespace {

// The fake select plugin: a job takes its min_nodes lowest free usable nodes, whole.
std::map<uint32_t, std::vector<uint32_t>> held; // job id -> its nodes
std::set<uint32_t> busy;
uint32_t finished_jobs = 0;

int fake_node_init(void *, const drover_node_view *, uint32_t, drover_error *) {
    held.clear();
    busy.clear();
    finished_jobs = 0;
    return DROVER_OK;
}
int fake_job_test(void *, const drover_job_view *job, drover_bitmap_view usable, int mode,
                  drover_bitmap *picked, drover_error *) {
    uint32_t need = std::max(job->min_nodes, 1u), found = 0;
    for (uint32_t i = 0; i < usable.nbits && found < need; ++i) {
        bool free_now = mode == DROVER_SELECT_TEST_ONLY || !busy.count(i);
        if (((usable.words[i / 64] >> (i % 64)) & 1) && free_now) {
            picked->words[i / 64] |= uint64_t{1} << (i % 64);
            ++found;
        }
    }
    return found == need ? DROVER_OK : DROVER_EBUSY;
}
int fake_job_begin(void *, const drover_job_view *job, drover_bitmap_view nodes, drover_error *) {
    for (uint32_t i = 0; i < nodes.nbits; ++i)
        if ((nodes.words[i / 64] >> (i % 64)) & 1) {
            busy.insert(i);
            held[job->job_id].push_back(i);
        }
    return DROVER_OK;
}
int fake_job_fini(void *, const drover_job_view *job, drover_error *) {
    ++finished_jobs;
    for (uint32_t i : held[job->job_id]) busy.erase(i);
    held.erase(job->job_id);
    return DROVER_OK;
}

// The fake sched plugin: every pending job in the order given, as sched/builtin without its
// stop at the first that does not fit.
int fake_schedule(void *, const drover_sched_host *host, drover_sched_pass *pass, drover_error *) {
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < host->pending_count(pass); ++i)
        ids.push_back(host->pending_job(pass, i)->job_id);
    for (uint32_t id : ids) host->try_start(pass, id);
    return DROVER_OK;
}

plugin::Bound<drover_select_ops> fake_select() {
    plugin::Bound<drover_select_ops> b;
    b.id = "select/fake";
    b.ops.struct_size = sizeof b.ops;
    b.ops.node_init = fake_node_init;
    b.ops.job_test = fake_job_test;
    b.ops.job_begin = fake_job_begin;
    b.ops.job_fini = fake_job_fini;
    return b;
}

// The fake auth plugin: a credential is the signer's uid, then the hash.
int fake_cred_create(void *, uint32_t uid, uint32_t, const uint8_t hash[32], uint8_t *cred,
                     uint32_t *len, drover_error *) {
    std::memcpy(cred, &uid, 4);
    std::memcpy(cred + 4, hash, 32);
    *len = 36;
    return DROVER_OK;
}

bool inject_fakes(plugin::PluginSet &plugins) {
    plugin::Bound<drover_auth_ops> auth;
    auth.id = "auth/fake";
    auth.ops.struct_size = sizeof auth.ops;
    auth.ops.cred_create = fake_cred_create;
    plugins.inject(auth);
    plugin::Bound<drover_sched_ops> b;
    b.id = "sched/fake";
    b.ops.struct_size = sizeof b.ops;
    b.ops.schedule = fake_schedule;
    plugins.inject(b);
    plugins.inject(fake_select());
    return true;
}

constexpr const char *kConf = "ClusterName=unit\n"
                              "SlurmctldHost=localhost\n"
                              "NodeName=n[1-2] CPUs=4 RealMemory=1000 State=UNKNOWN\n"
                              "PartitionName=batch Nodes=n[1-2] Default=YES MaxTime=60 State=UP\n";

// The controller's parts, built in the order InControl builds them.
struct Cluster {
    Config conf = parse_config(kConf, "slurm.conf");
    boost::asio::io_context io{1};
    plugin::PluginSet plugins{conf, "ctld"};
    bool fakes = inject_fakes(plugins);
    net::Authenticator auth{plugins.auth()};
    state::Store store{state::Store::InMemory{}};
    Committer commit{io, store};
    net::CallPool pool{io, 1};
    AcctQueue acct{io, plugins.acct_calls(), conf.cluster_name, [](uint64_t) {}};
    AcctRecorder recorder{commit, store, acct};
    Events events;
    Ctx ctx{io, conf, plugins, auth, store, commit, pool, acct, events, 0, "unit", &recorder};
    NodeManager nodes{ctx};
    Placement place{plugins.select_calls(), nodes};
    JobManager jobs{ctx, nodes, place};
    StepManager steps{ctx, nodes, jobs};
    Scheduler sched{ctx, nodes, jobs, place};
    std::vector<uint32_t> started, ended;
    int queue_changes = 0;

    Cluster() {
        for (uint32_t i = 0; i < nodes.size(); ++i) nodes.mark_up(i);
        sched.init_select();
        events.job_started.subscribe([this](const Job &j) { started.push_back(j.id); });
        events.job_ended.subscribe([this](const Job &j) { ended.push_back(j.id); });
        events.queue_changed.subscribe([this] { ++queue_changes; });
    }
    // A one-node batch job of user 1000 (srun's allocation when interactive), pending in
    // partition batch.
    Job &submit(uint32_t limit_min = 10, bool interactive = false) {
        auto j = std::make_unique<Job>();
        j->uid = j->gid = 1000;
        j->user_name = j->name = j->account = "unit";
        j->partition = "batch";
        j->min_nodes = j->max_nodes = j->num_tasks = 1;
        j->time_limit_min = limit_min;
        j->submit_time = j->eligible_time = Ctx::now();
        j->work_dir = "/tmp";
        j->interactive = interactive;
        return *jobs.find(jobs.adopt(std::move(j)));
    }
};

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

} // namespace
} // namespace drover::ctld
