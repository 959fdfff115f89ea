// scheduler.cpp - scheduling passes, job start and batch launch.
#include "ctld/scheduler.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>
#include <unordered_map>
#include <unordered_set>

#include "common/gres.hpp"
#include "common/timefmt.hpp"
#include "ctld/acct_queue.hpp"
#include "ctld/allocation.hpp"
#include "ctld/committer.hpp"
#include "ctld/features.hpp"
#include "ctld/job_codec.hpp"
#include "ctld/job_env.hpp"
#include "ctld/job_mgr.hpp"
#include "ctld/node_mgr.hpp"
#include "ctld/step_mgr.hpp"
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
    // Filled on first use by policies that plan ahead.
    bool have_running = false;
    std::vector<drover::ctld::Job *> running;
    std::vector<drover_job_view> running_views;
};

namespace drover::ctld {

namespace {

uint32_t host_pending_count(drover_sched_pass *p) {
    return uint32_t(p->views.size());
}
const drover_job_view *host_pending_job(drover_sched_pass *p, uint32_t i) {
    return i < p->views.size() ? &p->views[i] : nullptr;
}
int host_try_start(drover_sched_pass *p, uint32_t job_id) {
    auto it = p->by_id.find(job_id);
    if (it == p->by_id.end()) return DROVER_ENOENT;
    p->tried.insert(job_id);
    return p->sched->try_start(*it->second);
}
int64_t host_now(drover_sched_pass *p) {
    return p->now;
}

uint32_t host_node_count(drover_sched_pass *p) {
    return p->sched->node_views().size();
}
const drover_node_view *host_node(drover_sched_pass *p, uint32_t i) {
    const auto &v = p->sched->node_views();
    return i < v.size() ? &v[i] : nullptr;
}
void load_running(drover_sched_pass *p) {
    if (p->have_running) return;
    p->have_running = true;
    p->running = p->sched->running_jobs();
    p->running_views.reserve(p->running.size());
    for (Job *j : p->running) p->running_views.push_back(Scheduler::view(*j));
}
uint32_t host_running_count(drover_sched_pass *p) {
    load_running(p);
    return uint32_t(p->running_views.size());
}
const drover_job_view *host_running_job(drover_sched_pass *p, uint32_t i) {
    load_running(p);
    return i < p->running_views.size() ? &p->running_views[i] : nullptr;
}
int host_job_nodes(drover_sched_pass *p, uint32_t job_id, drover_bitmap *nodes, uint32_t *cpus) {
    return p->sched->job_nodes(job_id, nodes, cpus);
}
int host_usable_nodes(drover_sched_pass *p, uint32_t job_id, drover_bitmap *nodes) {
    auto it = p->by_id.find(job_id);
    if (it == p->by_id.end()) return DROVER_ENOENT;
    return p->sched->usable_nodes(*it->second, nodes);
}
int host_try_start_on(drover_sched_pass *p, uint32_t job_id, drover_bitmap_view allowed) {
    auto it = p->by_id.find(job_id);
    if (it == p->by_id.end()) return DROVER_ENOENT;
    p->tried.insert(job_id);
    return p->sched->try_start(*it->second, &allowed);
}
void host_set_expected_start(drover_sched_pass *p, uint32_t job_id, int64_t when,
                             drover_bitmap_view nodes) {
    auto it = p->by_id.find(job_id);
    if (it == p->by_id.end()) return;
    Job &j = *it->second;
    j.expected_start = when;
    j.sched_nodes.clear();
    if (nodes.words)
        for (uint32_t i = 0; i < nodes.nbits; ++i)
            if ((nodes.words[i >> 6] >> (i & 63)) & 1u) j.sched_nodes.push_back(i);
}
drover_str host_parameters(drover_sched_pass *p) {
    const std::string &s = p->sched->parameters();
    return {s.data(), s.size()};
}

const drover_sched_host kSchedHost = {sizeof(drover_sched_host),
                                      host_pending_count,
                                      host_pending_job,
                                      host_try_start,
                                      host_now,
                                      host_node_count,
                                      host_node,
                                      host_running_count,
                                      host_running_job,
                                      host_job_nodes,
                                      host_usable_nodes,
                                      host_try_start_on,
                                      host_set_expected_start,
                                      host_parameters};

} // namespace

struct Scheduler::Timer {
    explicit Timer(boost::asio::io_context &io) : t(io) {}
    boost::asio::steady_timer t;
};

Scheduler::Scheduler(Ctx &ctx) : ctx_(ctx), timer_(std::make_unique<Timer>(ctx.io)) {}

Scheduler::~Scheduler() = default;

drover_job_view Scheduler::view(const Job &j) {
    return codec::job_view(j);
}

void Scheduler::init_select() {
    const auto sel = ctx_.plugins.select_calls();
    const auto &views = ctx_.nodes->views();
    if (Status s = sel.node_init(views); !s.ok()) throw std::runtime_error(s.text());
    // The select plugin owns per-node usage: after a restart it learns it again from the jobs,
    // in the order they started so that it places them as it did the first time.
    auto running = ctx_.jobs->running();
    std::stable_sort(running.begin(), running.end(), [](const Job *a, const Job *b) {
        return a->start_time != b->start_time ? a->start_time < b->start_time : a->id < b->id;
    });
    for (Job *j : running) {
        Bitmap held(views.size());
        for (auto i : j->nodes) held.set(i);
        // Unlike at start, a refusal here cannot keep the job off its nodes: it runs there
        // already. It is logged, and the plugin may count those nodes as free until it ends.
        if (Status s = sel.job_begin(view(*j), held); !s.ok())
            spdlog::error("job {} on recovery: {}", j->id, s.text());
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
    auto t0 = std::chrono::steady_clock::now();
    const PassFigures f = run_pass();
    last_end_ = std::chrono::steady_clock::now();
    last_cost_ = last_end_ - t0;
    const auto usec = std::chrono::duration_cast<std::chrono::microseconds>(last_cost_).count();
    ctx_.acct.stats().cycle(uint64_t(usec), f.tried, f.queue);
}

Scheduler::PassFigures Scheduler::run_pass() {
    drover_sched_pass p;
    p.sched = this;
    p.now = Ctx::now();
    // Held jobs cannot start and already say why: the policy never needs to see them.
    for (Job *j : ctx_.jobs->pending())
        if (j->hold == Hold::None) p.jobs.push_back(j);
    if (p.jobs.empty()) return {};
    p.views.reserve(p.jobs.size());
    p.by_id.reserve(p.jobs.size());
    for (Job *j : p.jobs) {
        p.views.push_back(view(*j));
        p.by_id.emplace(j->id, j);
    }
    if (Status s = ctx_.plugins.sched_calls().schedule(kSchedHost, &p); !s.ok())
        spdlog::error("{}", s.text());
    // Jobs the policy did not reach wait behind higher-priority work.
    for (Job *j : p.jobs)
        if (j->pending() && !p.tried.count(j->id) &&
            (j->reason == "None" || j->reason == "Resources"))
            j->reason = "Priority";
    return {uint32_t(p.jobs.size()), uint32_t(p.tried.size())};
}

void Scheduler::narrow_for(const Job &job, Bitmap &nodes) const {
    if (job.ext().exc_bits.size()) nodes.subtract(job.ext().exc_bits);
    // Constraints each node can answer alone are applied here, whatever the select plugin.
    const std::string &constraint = job.ext().constraint;
    if (!constraint.empty() && per_node_constraint(constraint))
        for (std::size_t i = nodes.next(0); i < nodes.size(); i = nodes.next(i + 1))
            if (!node_satisfies(constraint, ctx_.nodes->at(uint32_t(i)).features_csv.get()))
                nodes.clear(i);
}

int Scheduler::test_job(const Job &job, const Partition &part) {
    Bitmap all = part.nodes;
    narrow_for(job, all);
    Bitmap picked;
    Status s =
        ctx_.plugins.select_calls().job_test(view(job), all, DROVER_SELECT_TEST_ONLY, &picked);
    return s.code() == DROVER_ENOSPC ? DROVER_ENOSPC : DROVER_OK;
}

std::string Scheduler::estimate(const Job &job, const Partition &part, uint32_t would_be_id) {
    Bitmap usable = ctx_.nodes->usable(part);
    narrow_for(job, usable);
    Bitmap picked;
    Status s =
        ctx_.plugins.select_calls().job_test(view(job), usable, DROVER_SELECT_RUN_NOW, &picked);
    std::string when = "Unknown", nodes = "(null)";
    uint32_t cpus = job.num_tasks * job.cpus_per_task;
    if (s.ok()) {
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

const std::vector<drover_node_view> &Scheduler::node_views() const {
    return ctx_.nodes->views();
}
std::vector<Job *> Scheduler::running_jobs() const {
    return ctx_.jobs->running();
}
const std::string &Scheduler::parameters() const {
    return ctx_.conf.scheduler_parameters;
}

int Scheduler::job_nodes(uint32_t job_id, drover_bitmap *nodes, uint32_t *cpus) {
    Job *j = ctx_.jobs->find(job_id);
    if (!j || !j->running()) return DROVER_ENOENT;
    for (std::size_t k = 0; k < j->nodes.size(); ++k) {
        uint32_t i = j->nodes[k];
        if (i >= nodes->nbits) continue;
        nodes->words[i >> 6] |= uint64_t{1} << (i & 63);
        if (cpus) cpus[i] = j->node_cpus[k];
    }
    return DROVER_OK;
}

int Scheduler::usable_nodes(const Job &job, drover_bitmap *out) {
    Partition *part = ctx_.nodes->partition(job.partition);
    if (!part) return DROVER_ENOENT;
    Bitmap usable = ctx_.nodes->usable(*part);
    narrow_for(job, usable);
    std::size_t words = std::min<std::size_t>((out->nbits + 63) / 64, (usable.size() + 63) / 64);
    for (std::size_t w = 0; w < words; ++w) out->words[w] = usable.words()[w];
    return DROVER_OK;
}

int Scheduler::try_start(Job &job, const drover_bitmap_view *allowed) {
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
    int64_t now = Ctx::now();
    if (job.eligible_time > now) {
        job.reason = "BeginTime";
        return DROVER_EPERM;
    }
    if (int64_t deadline = job.ext().deadline) {
        int64_t need = job.time_limit_min == kInfinite ? 0 : int64_t(job.time_limit_min) * 60;
        if (now + need > deadline) { // it could no longer finish in time
            job.reason = "DeadLine";
            ctx_.jobs->end_job(job, DROVER_JOB_DEADLINE, 0);
            return DROVER_EPERM;
        }
    }
    switch (ctx_.jobs->check_dependency(job)) {
    case DepState::Waiting:
        job.reason = "Dependency";
        return DROVER_EPERM;
    case DepState::Never:
        if (job.kill_on_invalid_dep) {
            job.reason = "DependencyNeverSatisfied";
            job.cancelled_by = 0;
            ctx_.jobs->end_job(job, DROVER_JOB_CANCELLED, 0);
        } else {
            job.reason = "DependencyNeverSatisfied";
        }
        return DROVER_EPERM;
    case DepState::Satisfied:
        break;
    }
    if (job.is_array_record()) return start_array_tasks(job, *part, allowed);
    std::vector<uint32_t> nodes;
    int rc = choose(job, *part, allowed, &nodes);
    if (rc == DROVER_OK && !start(job, nodes)) rc = DROVER_EBUSY;
    return rc;
}

int Scheduler::start_array_tasks(Job &rec, const Partition &part,
                                 const drover_bitmap_view *allowed) {
    // Strict order inside an array: start tasks while they fit; the first that does not fit
    // leaves the rest waiting (EBUSY, so a strict policy stops the partition there).
    // Every task asks for what the record asks for, so the nodes chosen for the record are the
    // task's.
    bool started = false;
    while (rec.is_array_record()) {
        std::vector<uint32_t> nodes;
        int rc = choose(rec, part, allowed, &nodes);
        if (rc != DROVER_OK) return started ? DROVER_OK : rc;
        Job *task = ctx_.jobs->split_array_task(rec);
        if (!task) {
            rec.reason = "JobArrayTaskLimit";
            return started ? DROVER_OK : DROVER_EPERM;
        }
        // A task the select plugin refuses stays a pending job of its own; the rest wait.
        if (!start(*task, nodes)) return started ? DROVER_OK : DROVER_EBUSY;
        started = true;
    }
    return DROVER_OK;
}

int Scheduler::choose(Job &job, const Partition &part, const drover_bitmap_view *allowed,
                      std::vector<uint32_t> *nodes) {
    // A planning policy asks with no node allowed to learn only whether the job is eligible.
    if (allowed && allowed->words) {
        bool any = false;
        for (std::size_t w = 0; w < (allowed->nbits + 63) / 64 && !any; ++w)
            any = allowed->words[w] != 0;
        if (!any) {
            job.reason = "Resources";
            return DROVER_EBUSY;
        }
    }
    Bitmap usable = ctx_.nodes->usable(part);
    narrow_for(job, usable);
    if (allowed && allowed->words)
        for (std::size_t w = 0; w < (usable.size() + 63) / 64 && w < (allowed->nbits + 63) / 64;
             ++w)
            usable.words()[w] &= allowed->words[w];
    Bitmap picked;
    if (!ctx_.plugins.select_calls()
             .job_test(view(job), usable, DROVER_SELECT_RUN_NOW, &picked)
             .ok()) {
        // Nodes it named (-w) that are down or drained: Slurm's ReqNodeNotAvail.
        const Bitmap &req = job.ext().req_bits;
        bool req_unavailable = false;
        for (std::size_t i = req.size() ? req.next(0) : 0; i < req.size(); i = req.next(i + 1))
            if (!ctx_.nodes->at(uint32_t(i)).usable()) req_unavailable = true;
        job.reason = req_unavailable ? "ReqNodeNotAvail" : "Resources";
        return DROVER_EBUSY; // nodes may free up or come back: the job waits either way
    }
    nodes->clear();
    for (std::size_t i = picked.next(0); i < picked.size(); i = picked.next(i + 1))
        nodes->push_back(uint32_t(i));
    if (nodes->empty()) {
        job.reason = "Resources";
        return DROVER_EBUSY;
    }
    return DROVER_OK;
}

bool Scheduler::start(Job &job, const std::vector<uint32_t> &picked) {
    Status s = allocate(ctx_.plugins.select_calls(), job, picked, ctx_.nodes->size(),
                        [this](uint32_t i) { return ctx_.nodes->at(i).conf->cpus; });
    if (!s.ok()) {
        // The plugin did not record the job, so it stays pending (as Slurm leaves a job whose
        // select_g_job_begin fails queued) and is tried again in a later pass.
        spdlog::error("job {} not started: {}", job.id, s.text());
        job.reason = "Resources";
        return false;
    }
    job.state = DROVER_JOB_RUNNING;
    job.start_time = Ctx::now();
    job.reason = "None";
    job.expected_start = 0;
    job.sched_nodes.clear();
    if (job.array_job_id) ctx_.jobs->array_counts(job.array_job_id).running++;
    ctx_.nodes->job_started(job);
    ctx_.jobs->persist(job);
    ctx_.jobs->account(DROVER_ACCT_JOB_START, job);
    spdlog::info("job {} started on {}", job.id, ctx_.nodes->names(job.nodes));
    uint32_t id = job.id;
    ctx_.commit.after_commit([this, id] {
        Job *j = ctx_.jobs->find(id);
        if (j && j->interactive) {
            if (ctx_.steps) ctx_.steps->job_started(*j); // salloc/srun: the allocation is theirs
            return;
        }
        launch(id);
    });
    return true;
}

void Scheduler::relaunch(uint32_t job_id) {
    ctx_.commit.after_commit([this, job_id] {
        Job *j = ctx_.jobs->find(job_id);
        if (j && j->running() && !j->interactive && !launching(job_id)) launch(job_id);
    });
}

namespace {
// A submission as the state store keeps it: the Message, or (a store written before protocol 2)
// an Envelope around it. Null when it does not verify.
const proto::Message *stored_submission(std::span<const uint8_t> rec) {
    const proto::Message *m = nullptr;
    if (proto::verify_message(rec, proto::Body::JobSubmitRequest, &m).empty()) return m;
    flatbuffers::Verifier v(rec.data(), rec.size(), 64, 50'000'000);
    if (!v.VerifyBuffer<proto::Envelope>(nullptr)) return nullptr;
    const auto *body = flatbuffers::GetRoot<proto::Envelope>(rec.data())->body();
    if (!body ||
        !proto::verify_message({body->data(), body->size()}, proto::Body::JobSubmitRequest, &m)
             .empty())
        return nullptr;
    return m;
}
} // namespace

void Scheduler::launch(uint32_t job_id) {
    Job *job = ctx_.jobs->find(job_id);
    if (!job || !job->running()) return;
    // Array tasks share their array's script record.
    auto key = state::job_key(job->array_job_id ? job->array_job_id : job_id);
    auto rec = ctx_.store.get(state::Table::Scripts, key);
    const proto::Message *m = rec ? stored_submission(*rec) : nullptr;
    if (!m || !m->body_as_JobSubmitRequest() || !m->body_as_JobSubmitRequest()->desc()) {
        spdlog::error("job {}: its script record is missing or damaged", job_id);
        job->reason = "Script record lost";
        ctx_.jobs->end_job(*job, DROVER_JOB_FAILED, 1 << 8);
        return;
    }
    const proto::JobDesc *d = m->body_as_JobSubmitRequest()->desc();
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
    std::string err =
        job->std_err.empty() ? out : expand_output_path(job->std_err, *job, batch.conf->name);
    std::string in = expand_output_path(job->std_in, *job, batch.conf->name);
    auto req = proto::CreateBatchLaunchRequest(
        fbb, job->id, job->uid, job->gid, fbb.CreateString(job->user_name),
        fbb.CreateString(job->name), fbb.CreateString(d->script()), fbb.CreateVector(env),
        fbb.CreateVector(argv), fbb.CreateString(job->work_dir), fbb.CreateString(out),
        fbb.CreateString(err), fbb.CreateString(in), fbb.CreateString(node_list),
        job->node_cpus.front(), job->open_append, job->time_limit_min,
        fbb.CreateString(job->partition), job->restart_count, job_mem_on(*job, 0),
        fbb.CreateString(job->node_alloc.empty() ? std::string()
                                                 : format_index_list(job_cpu_ids(*job, 0))));
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::BatchLaunchRequest, req.Union(), ctx_.epoch));
    std::vector<uint8_t> msg(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    launching_.insert(job_id);
    uint32_t run = job->restart_count;
    ctx_.pool.call(
        host, port, batch.conf->name, std::move(msg), ctx_.auth.self_signer(), 30000,
        [this, job_id, run](const std::string &e, std::shared_ptr<net::Reply> reply) {
            launching_.erase(job_id);
            std::string why = e;
            if (reply && reply->msg->body_as_ErrorResponse())
                why = reply->msg->body_as_ErrorResponse()->message()->str();
            if (why.empty()) return;
            Job *j = ctx_.jobs->find(job_id);
            if (!j || !j->running() || j->restart_count != run) return;
            if (!reply) {
                // The node may have it (the answer was lost) or be restarting: the
                // launch is tried again until the node takes it or is declared down
                // (which ends or requeues the job).
                spdlog::warn("job {}: cannot launch it on its node ({}); trying again in 5 s",
                             job_id, why);
                auto t =
                    std::make_shared<boost::asio::steady_timer>(ctx_.io, std::chrono::seconds(5));
                t->async_wait([this, t, job_id, run](boost::system::error_code ec) {
                    Job *again = ctx_.jobs->find(job_id);
                    if (!ec && again && again->restart_count == run) relaunch(job_id);
                });
                return;
            }
            spdlog::error("job {}: batch launch failed: {}", job_id, why);
            j->reason = "launch failed: " + why;
            ctx_.jobs->end_job(*j, DROVER_JOB_FAILED, 1 << 8);
        });
}

} // namespace drover::ctld
