// scheduler.cpp - scheduling passes, job start and batch launch.
#include "ctld/scheduler.hpp"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>
#include <unordered_map>
#include <unordered_set>

#include "common/timefmt.hpp"
#include "ctld/committer.hpp"
#include "ctld/job_env.hpp"
#include "ctld/job_mgr.hpp"
#include "ctld/node_mgr.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "plugin/plugin_set.hpp"
#include "proto/frame.hpp"
#include "state/store.hpp"

// One pass, as the sched plugin sees it through drover_sched_host.
struct drover_sched_pass {
    drover::ctld::Scheduler *sched;
    std::vector<drover::ctld::Job *> jobs;
    std::vector<drover_job_view> views;
    std::unordered_map<uint32_t, drover::ctld::Job *> by_id;
    std::unordered_set<uint32_t> tried;
    int64_t now;
};

namespace drover::ctld {

namespace {

drover_str dstr(const std::string &s) { return {s.data(), s.size()}; }

uint32_t host_pending_count(drover_sched_pass *p) { return uint32_t(p->views.size()); }
const drover_job_view *host_pending_job(drover_sched_pass *p, uint32_t i) {
    return i < p->views.size() ? &p->views[i] : nullptr;
}
int host_try_start(drover_sched_pass *p, uint32_t job_id) {
    auto it = p->by_id.find(job_id);
    if (it == p->by_id.end()) return DROVER_ENOENT;
    p->tried.insert(job_id);
    return p->sched->try_start(*it->second);
}
int64_t host_now(drover_sched_pass *p) { return p->now; }

const drover_sched_host kSchedHost = {sizeof(drover_sched_host), host_pending_count,
                                      host_pending_job, host_try_start, host_now};

}  // namespace

struct Scheduler::Timer {
    explicit Timer(boost::asio::io_context &io) : t(io) {}
    boost::asio::steady_timer t;
};

Scheduler::Scheduler(Ctx &ctx) : ctx_(ctx), timer_(std::make_unique<Timer>(ctx.io)) {}

Scheduler::~Scheduler() = default;

drover_job_view Scheduler::view(const Job &j) {
    drover_job_view v{};
    v.struct_size = sizeof v;
    v.job_id = j.id;
    v.user_id = j.uid;
    v.group_id = j.gid;
    v.name = dstr(j.name);
    v.partition = dstr(j.partition);
    v.priority = j.priority;
    v.state = j.state;
    v.min_nodes = j.min_nodes;
    v.max_nodes = j.max_nodes;
    v.num_tasks = j.num_tasks;
    v.cpus_per_task = j.cpus_per_task;
    v.mem_per_node_mb = j.mem_per_node_mb;
    v.time_limit_min = j.time_limit_min;
    v.submit_time = j.submit_time;
    v.exclusive = j.exclusive;
    return v;
}

void Scheduler::init_select() {
    const auto &sel = ctx_.plugins.select();
    const auto &views = ctx_.nodes->views();
    drover_error err{};
    if (sel.ops.node_init(sel.state, views.data(), uint32_t(views.size()), &err) != DROVER_OK)
        throw std::runtime_error("[" + sel.id + "] node_init: " + err.text);
    // The select plugin owns per-node usage: after a restart it learns it again from the jobs.
    for (Job *j : ctx_.jobs->running()) {
        drover_job_view v = view(*j);
        Bitmap held(views.size());
        for (auto i : j->nodes) held.set(i);
        if (sel.ops.job_begin(sel.state, &v, {held.words(), uint32_t(held.size())}, &err) != DROVER_OK)
            spdlog::error("[{}] job_begin {} on recovery: {}", sel.id, j->id, err.text);
    }
}

void Scheduler::request() {
    if (queued_) return;
    queued_ = true;
    // Passes are spaced so that scheduling takes at most a fifth of the loop's time: a burst
    // of submissions into a long queue shares passes instead of paying one each.
    auto since = std::chrono::steady_clock::now() - last_end_;
    auto gap = last_cost_ * 4;
    if (since >= gap) {
        boost::asio::post(ctx_.io, [this] { pass(); });
        return;
    }
    timer_->t.expires_after(gap - since);
    timer_->t.async_wait([this](boost::system::error_code ec) {
        if (!ec) pass();
    });
}

void Scheduler::pass() {
    queued_ = false;
    ++passes_;
    auto t0 = std::chrono::steady_clock::now();
    run_pass();
    last_end_ = std::chrono::steady_clock::now();
    last_cost_ = last_end_ - t0;
}

void Scheduler::run_pass() {
    drover_sched_pass p;
    p.sched = this;
    p.now = Ctx::now();
    // Held jobs cannot start and already say why: the policy never needs to see them.
    for (Job *j : ctx_.jobs->pending())
        if (j->hold == Hold::None) p.jobs.push_back(j);
    if (p.jobs.empty()) return;
    p.views.reserve(p.jobs.size());
    p.by_id.reserve(p.jobs.size());
    for (Job *j : p.jobs) {
        p.views.push_back(view(*j));
        p.by_id.emplace(j->id, j);
    }
    const auto &sched = ctx_.plugins.sched();
    drover_error err{};
    if (sched.ops.schedule(sched.state, &kSchedHost, &p, &err) != DROVER_OK)
        spdlog::error("[{}] schedule: {}", sched.id, err.text);
    // Jobs the policy did not reach wait behind higher-priority work.
    for (Job *j : p.jobs)
        if (j->pending() && !p.tried.count(j->id) && (j->reason == "None" || j->reason == "Resources"))
            j->reason = "Priority";
}

int Scheduler::test_job(const Job &job, const Partition &part) {
    const auto &sel = ctx_.plugins.select();
    drover_job_view v = view(job);
    Bitmap all = part.nodes;
    Bitmap picked(all.size());
    drover_bitmap pb{picked.words(), uint32_t(picked.size())};
    drover_error err{};
    int rc = sel.ops.job_test(sel.state, &v, {all.words(), uint32_t(all.size())},
                              DROVER_SELECT_TEST_ONLY, &pb, &err);
    return rc == DROVER_ENOSPC ? DROVER_ENOSPC : DROVER_OK;
}

std::string Scheduler::estimate(const Job &job, const Partition &part, uint32_t would_be_id) {
    const auto &sel = ctx_.plugins.select();
    drover_job_view v = view(job);
    Bitmap usable = ctx_.nodes->usable(part);
    Bitmap picked(usable.size());
    drover_bitmap pb{picked.words(), uint32_t(picked.size())};
    drover_error err{};
    int rc = sel.ops.job_test(sel.state, &v, {usable.words(), uint32_t(usable.size())},
                              DROVER_SELECT_RUN_NOW, &pb, &err);
    std::string when = "Unknown", nodes = "(null)";
    uint32_t cpus = job.num_tasks * job.cpus_per_task;
    if (rc == DROVER_OK) {
        std::vector<uint32_t> idx;
        for (std::size_t i = picked.next(0); i < picked.size(); i = picked.next(i + 1))
            idx.push_back(uint32_t(i));
        when = format_timestamp(Ctx::now());
        nodes = ctx_.nodes->names(idx);
    }
    return "Job " + std::to_string(would_be_id) + " to start at " + when + " using " +
           std::to_string(cpus) + " processors on nodes " + nodes + " in partition " +
           part.conf->name;
}

int Scheduler::try_start(Job &job) {
    if (!job.pending()) return DROVER_EPERM;
    if (job.hold != Hold::None) {
        job.reason = job.hold == Hold::User ? "JobHeldUser" : "JobHeldAdmin";
        return DROVER_EPERM;
    }
    Partition *part = ctx_.nodes->partition(job.partition);
    if (!part) {
        job.reason = "BadConstraints";
        return DROVER_EPERM;
    }
    if (part->state == "DOWN") {
        job.reason = "PartitionDown";
        return DROVER_EPERM;
    }
    if (part->state == "INACTIVE") {
        job.reason = "PartitionInactive";
        return DROVER_EPERM;
    }
    if (job.time_limit_min != kInfinite && part->conf->max_time_min != kInfinite &&
        job.time_limit_min > part->conf->max_time_min) {
        job.reason = "PartitionTimeLimit";
        return DROVER_EPERM;
    }
    if (part->conf->max_nodes != kInfinite && job.min_nodes > part->conf->max_nodes) {
        job.reason = "PartitionNodeLimit";
        return DROVER_EPERM;
    }
    if (job.eligible_time > Ctx::now()) {
        job.reason = "BeginTime";
        return DROVER_EPERM;
    }
    const auto &sel = ctx_.plugins.select();
    drover_job_view v = view(job);
    Bitmap usable = ctx_.nodes->usable(*part);
    Bitmap picked(usable.size());
    drover_bitmap pb{picked.words(), uint32_t(picked.size())};
    drover_error err{};
    int rc = sel.ops.job_test(sel.state, &v, {usable.words(), uint32_t(usable.size())},
                              DROVER_SELECT_RUN_NOW, &pb, &err);
    if (rc != DROVER_OK) {
        job.reason = "Resources";
        return DROVER_EBUSY;  // nodes may free up or come back: the job waits either way
    }
    std::vector<uint32_t> idx;
    for (std::size_t i = picked.next(0); i < picked.size(); i = picked.next(i + 1))
        idx.push_back(uint32_t(i));
    if (idx.empty()) {
        job.reason = "Resources";
        return DROVER_EBUSY;
    }
    start(job, idx);
    return DROVER_OK;
}

void Scheduler::start(Job &job, const std::vector<uint32_t> &picked) {
    const auto &sel = ctx_.plugins.select();
    drover_job_view v = view(job);
    Bitmap held(ctx_.nodes->size());
    for (auto i : picked) held.set(i);
    drover_error err{};
    if (sel.ops.job_begin(sel.state, &v, {held.words(), uint32_t(held.size())}, &err) != DROVER_OK)
        spdlog::error("[{}] job_begin {}: {}", sel.id, job.id, err.text);
    job.nodes = picked;
    job.node_cpus.clear();
    job.alloc_cpus = 0;
    for (auto i : picked) {
        uint32_t c = sel.ops.job_cpus_on_node ? sel.ops.job_cpus_on_node(sel.state, job.id, i)
                                              : ctx_.nodes->at(i).conf->cpus;
        job.node_cpus.push_back(c);
        job.alloc_cpus += c;
    }
    job.state = DROVER_JOB_RUNNING;
    job.start_time = Ctx::now();
    job.reason = "None";
    ctx_.nodes->job_started(job);
    ctx_.jobs->persist(job);
    ctx_.jobs->account(DROVER_ACCT_JOB_START, job);
    spdlog::info("job {} started on {}", job.id, ctx_.nodes->names(job.nodes));
    uint32_t id = job.id;
    ctx_.commit.after_commit([this, id] { launch(id); });
}

void Scheduler::launch(uint32_t job_id) {
    Job *job = ctx_.jobs->find(job_id);
    if (!job || !job->running()) return;
    auto key = state::job_key(job_id);
    auto rec = ctx_.store.get(state::Table::Scripts, key);
    proto::Verified v;
    if (!rec || !proto::verify_frame_body(*rec, &v).empty() ||
        !v.message->body_as_JobSubmitRequest() || !v.message->body_as_JobSubmitRequest()->desc()) {
        spdlog::error("job {}: its script record is missing or damaged", job_id);
        job->reason = "Script record lost";
        ctx_.jobs->end_job(*job, DROVER_JOB_FAILED, 1 << 8);
        return;
    }
    const proto::JobDesc *d = v.message->body_as_JobSubmitRequest()->desc();
    const Node &batch = ctx_.nodes->at(job->nodes.front());
    std::string node_list = ctx_.nodes->names(job->nodes);
    std::string host;
    uint16_t port = 0;
    ctx_.nodes->resolve(batch.conf->name, &host, &port);

    flatbuffers::FlatBufferBuilder fbb(4096 + d->script()->size());
    std::vector<flatbuffers::Offset<proto::KeyValue>> env;
    // The submitter's exported environment first; Slurm's variables override it.
    std::unordered_set<std::string> ours;
    EnvList slurm_env = batch_job_environment(*job, node_list, batch.conf->name,
                                              ctx_.conf.cluster_name, ctx_.conf.path);
    for (const auto &[k, val] : slurm_env) ours.insert(k);
    if (d->environment())
        for (const auto *kv : *d->environment())
            if (kv->key() && !ours.count(kv->key()->str()))
                env.push_back(proto::CreateKeyValue(fbb, fbb.CreateString(kv->key()),
                                                    fbb.CreateString(kv->value())));
    for (const auto &[k, val] : slurm_env)
        env.push_back(proto::CreateKeyValueDirect(fbb, k.c_str(), val.c_str()));
    std::vector<flatbuffers::Offset<flatbuffers::String>> argv;
    if (d->argv())
        for (const auto *a : *d->argv()) argv.push_back(fbb.CreateString(a));
    std::string out = expand_output_path(job->std_out, *job, batch.conf->name);
    std::string err = job->std_err.empty() ? out : expand_output_path(job->std_err, *job, batch.conf->name);
    std::string in = expand_output_path(job->std_in, *job, batch.conf->name);
    auto req = proto::CreateBatchLaunchRequest(
        fbb, job->id, job->uid, job->gid, fbb.CreateString(job->user_name),
        fbb.CreateString(job->name), fbb.CreateString(d->script()), fbb.CreateVector(env),
        fbb.CreateVector(argv), fbb.CreateString(job->work_dir), fbb.CreateString(out),
        fbb.CreateString(err), fbb.CreateString(in), fbb.CreateString(node_list),
        job->node_cpus.front(), job->open_append, job->time_limit_min,
        fbb.CreateString(job->partition));
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::BatchLaunchRequest, req.Union()));
    std::vector<uint8_t> msg(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    ctx_.pool.call(host, port, std::move(msg), ctx_.auth.self_signer(), 30000,
                   [this, job_id](const std::string &e, std::shared_ptr<net::Reply> reply) {
                       std::string why = e;
                       if (reply && reply->msg->body_as_ErrorResponse())
                           why = reply->msg->body_as_ErrorResponse()->message()->str();
                       if (why.empty()) return;
                       Job *j = ctx_.jobs->find(job_id);
                       if (!j || !j->running()) return;
                       spdlog::error("job {}: batch launch failed: {}", job_id, why);
                       j->reason = "launch failed: " + why;
                       ctx_.jobs->end_job(*j, DROVER_JOB_FAILED, 1 << 8);
                   });
}

}  // namespace drover::ctld
