// step_mgr.cpp - step creation, credentials, ends, limits, signals and queries.
#include "ctld/steps/step_mgr.hpp"

#include "proto/fb_read.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <csignal>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_set>

#include <drover/proctrack.h>

#include "common/exit_status.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/job_signal_spec.hpp"
#include "ctld/nodes/node_calls.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/privacy.hpp"
#include "ctld/steps/step_acct.hpp"
#include "ctld/steps/step_create.hpp"
#include "ctld/steps/step_gpus.hpp"
#include "ctld/steps/step_layout.hpp"
#include "ctld/steps/step_record.hpp"
#include "net/authenticator.hpp"
#include "net/step_cred.hpp"
#include "net/usage_codec.hpp"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

using proto::str;

int worse(int a, int b) {
    auto rank = [](int s) { return WIFSIGNALED(s) ? 128 + WTERMSIG(s) : WEXITSTATUS(s); };
    return rank(b) > rank(a) ? b : a;
}

} // namespace

struct StepManager::Impl {
    Impl(Ctx &c, const NodeManager &n, JobManager &j) : ctx(c), nodes(n), job_mgr(j) {}
    Ctx &ctx;
    const NodeManager &nodes;
    JobManager &job_mgr;

    struct Waiting {
        std::shared_ptr<net::Request> req;
        net::ResponderPtr resp;
    };
    struct JobSteps {
        uint32_t next_id = 0;
        std::map<uint32_t, Step> steps;
        std::vector<std::vector<bool>> used;          // per job node: CPU slots held by steps
        std::vector<std::vector<uint32_t>> gpus_held; // per job node: GPU indexes, ascending
        std::deque<Waiting> waiting;
    };
    std::unordered_map<uint32_t, JobSteps> jobs;
    struct Waiter {
        net::ResponderPtr resp;
        int64_t deadline = 0;
    };
    std::unordered_map<uint32_t, std::vector<Waiter>> alloc_waiters;

    // The step's record, in the current batch.
    void persist(const Step &st) {
        flatbuffers::FlatBufferBuilder fbb(512);
        fbb.Finish(write_step_record(fbb, st));
        ctx.commit.txn().put(state::Table::Steps, state::step_key(st.job_id, st.id),
                             {fbb.GetBufferPointer(), fbb.GetSize()});
    }

    // Per job node: the slots of the job's CPUs, taken from those its steps hold.
    static void size_used(const Job &job, JobSteps &js) {
        if (js.used.size() == job.nodes.size()) return;
        js.used.clear();
        for (uint32_t c : job.node_cpus) js.used.emplace_back(c, false);
        js.gpus_held.assign(job.nodes.size(), {});
    }

    // Marks what st holds (its CPU slots and GPUs) as taken (hold) or free again.
    static void mark_held(JobSteps &js, const Step &st, bool hold) {
        for (std::size_t k = 0; k < st.nodes.size() && st.nodes[k] < js.used.size(); ++k) {
            uint32_t pos = st.nodes[k];
            if (k < st.slots.size())
                for (uint32_t s : st.slots[k])
                    if (s < js.used[pos].size()) js.used[pos][s] = hold;
            if (k >= st.gpus.size()) continue;
            auto &held = js.gpus_held[pos];
            for (uint32_t g : st.gpus[k])
                if (hold)
                    held.insert(std::lower_bound(held.begin(), held.end(), g), g);
                else if (auto it = std::lower_bound(held.begin(), held.end(), g);
                         it != held.end() && *it == g)
                    held.erase(it);
        }
    }

    // The job's GPUs on each of its nodes, and those its running steps hold.
    static std::vector<NodeGpus> job_gpus(const Job &job, const JobSteps &js) {
        std::vector<NodeGpus> out(job.nodes.size());
        for (std::size_t pos = 0; pos < job.nodes.size(); ++pos) {
            if (pos < job.node_alloc.size())
                out[pos].job = gpu_index_list(job.node_alloc[pos].gres);
            if (pos < js.gpus_held.size()) out[pos].held = js.gpus_held[pos];
        }
        return out;
    }

    // Whether the step's CPUs or GPUs were found; if not, resp is answered or, when srun waits
    // for busy ones, queued.
    static bool placed(const Status &s, JobSteps &js, const std::shared_ptr<net::Request> &req,
                       const net::ResponderPtr &resp) {
        if (s.code() == DROVER_EBUSY && req->msg->body_as_StepCreateRequest()->wait())
            js.waiting.push_back({req, resp});
        else if (!s.ok())
            resp->error(s.code(), s.text());
        return s.ok();
    }

    // The running job a user's step request names, or nullptr once resp says why not: no such
    // job, another user's, not started, or ending.
    Job *running_job(uint32_t job_id, uint32_t uid, const net::ResponderPtr &resp) {
        Job *job = job_mgr.find(job_id);
        if (!job) return resp->error(DROVER_ENOENT, "Invalid job id specified"), nullptr;
        if (job->uid != uid && !ctx.is_admin(uid))
            return resp->error(DROVER_EPERM, "Access/permission denied"), nullptr;
        if (job->pending()) return resp->error(DROVER_EBUSY, "Job is pending execution"), nullptr;
        if (!job->running() || job->kill_sent)
            return resp->error(DROVER_EINVAL, "Job/step already completing or completed"), nullptr;
        if (job->state == DROVER_JOB_SUSPENDED) // its processes are stopped: none start
            return resp->error(DROVER_EBUSY, "Requested operation is presently disabled"), nullptr;
        return job;
    }

    const Step *find_step(uint32_t job_id, uint32_t step_id) const {
        auto jt = jobs.find(job_id);
        if (jt == jobs.end()) return nullptr;
        auto st = jt->second.steps.find(step_id);
        return st == jt->second.steps.end() ? nullptr : &st->second;
    }

    // Tries to create the step; answers resp unless it was queued to wait.
    void attempt(Job &job, const std::shared_ptr<net::Request> &req,
                 const net::ResponderPtr &resp) {
        const auto &r = *req->msg->body_as_StepCreateRequest();
        JobSteps &js = jobs[job.id];
        size_used(job, js);
        StepShape shape;
        auto node_name = [this](uint32_t i) -> const std::string & {
            return nodes.at(i).conf->name;
        };
        if (Status s = step_shape(job, r, node_name, &shape); !s.ok())
            return resp->error(s.code(), s.text());
        std::vector<NodeCpus> caps;
        for (std::size_t i = 0; i < job.nodes.size(); ++i) {
            uint32_t free = uint32_t(std::count(js.used[i].begin(), js.used[i].end(), false));
            caps.push_back({job.node_cpus[i], free});
        }
        StepLayout lay;
        if (!placed(layout_step(shape, caps, &lay), js, req, resp)) return;
        StepGpus gpus;
        StepGpuAsk ask =
            step_gpu_ask(r.gpus(), r.gpus_per_node(), r.gpus_per_task(), str(r.gres()));
        if (!placed(pick_step_gpus(ask, lay, job_gpus(job, js), shape.overlap, &gpus), js, req,
                    resp))
            return;
        std::vector<uint64_t> mem;
        Step st;
        Status s = step_memory(job, r, lay, &mem);
        if (s.ok()) s = new_step(job, js.next_id++, r, shape, lay, &st);
        if (!s.ok()) return resp->error(s.code(), s.text());
        StepPlacement where = take_cpus(job, js, shape, lay, st);
        if (ask.given)
            for (std::size_t k = 0; k < where.gres.size(); ++k)
                where.gres[k] =
                    gpus.seen[k].empty() ? "" : "gpu:" + format_index_list(gpus.seen[k]);
        st.gpus = std::move(gpus.held);
        mark_held(js, st, true);
        std::vector<uint8_t> cred;
        try {
            cred = net::sign_step_cred(
                ctx.auth, step_cred_body(ctx.conf, job, st, where, mem, str(r.signal())));
        } catch (const std::exception &e) {
            mark_held(js, st, false);
            return resp->error(DROVER_EIO, e.what());
        }
        auto msg = step_create_response(ctx, job, st, lay, where, cred);
        spdlog::info("step {}.{} created on {} ({} task(s))", job.id, st.id,
                     hostlist_compress(where.names), st.num_tasks);
        record_step(ctx, job, st, DROVER_ACCT_STEP_START, step_node_list(job, st));
        persist(st);
        auto next = state::job_key(js.next_id);
        ctx.commit.txn().put(state::Table::Steps, state::step_key(job.id, state::kNextStepKey),
                             next);
        js.steps.emplace(st.id, std::move(st));
        ctx.commit.after_commit([resp, msg = std::move(msg)] { resp->reply(msg); });
    }

    // The CPU slots the step takes on each node of its layout (none with --overlap, which uses
    // every CPU of the job there without holding any), and where it runs.
    StepPlacement take_cpus(const Job &job, JobSteps &js, const StepShape &shape,
                            const StepLayout &lay, Step &st) {
        StepPlacement where;
        where.job_node_list = nodes.names(job.nodes);
        for (std::size_t k = 0; k < lay.nodes.size(); ++k) {
            uint32_t pos = lay.nodes[k];
            where.names.push_back(nodes.at(job.nodes[pos]).conf->name);
            auto ids = job_cpu_ids(job, pos);
            std::vector<uint32_t> held, mine;
            if (!shape.overlap) {
                uint32_t need = lay.cpus_per_node[k];
                for (uint32_t slot = 0; slot < js.used[pos].size() && held.size() < need; ++slot)
                    if (!js.used[pos][slot]) held.push_back(slot);
                for (uint32_t slot : held) js.used[pos][slot] = true;
                for (uint32_t slot : held) mine.push_back(slot < ids.size() ? ids[slot] : slot);
            } else {
                mine = ids;
            }
            st.slots.push_back(held);
            where.cpu_id_lists.push_back(format_index_list(mine));
            where.gres.push_back(pos < job.node_alloc.size() ? job.node_alloc[pos].gres : "");
        }
        return where;
    }

    std::string step_node_list(const Job &job, const Step &st) const {
        std::vector<std::string> names;
        for (uint32_t pos : st.nodes) names.push_back(nodes.at(job.nodes[pos]).conf->name);
        return hostlist_compress(names);
    }

    void finish(Job &job, JobSteps &js, Step &st) {
        // A step that ends while its job is being ended (scancel, the job's time limit) was
        // cancelled with it, whatever its tasks' statuses say.
        if (!st.end_state && job.kill_sent) {
            st.end_state = DROVER_JOB_CANCELLED;
            if (st.cancelled_by == DROVER_NO_VAL)
                st.cancelled_by = job.cancelled_by != DROVER_NO_VAL ? job.cancelled_by : 0;
        }
        uint32_t state = st.end_state          ? st.end_state
                         : st.exit_status == 0 ? uint32_t(DROVER_JOB_COMPLETE)
                                               : uint32_t(DROVER_JOB_FAILED);
        mark_held(js, st, false);
        st.end_state = state;
        if (int32_t derived = higher_exit_status(job.derived_exit_status, st.exit_status);
            derived != job.derived_exit_status) {
            job.derived_exit_status = derived; // scontrol -d show job's DerivedExitCode
            job_mgr.persist(job);
        }
        record_step(ctx, job, st, DROVER_ACCT_STEP_END, step_node_list(job, st));
        spdlog::info("step {}.{} ended {} exit {}:{}", job.id, st.id, job_state_name(state),
                     (st.exit_status >> 8) & 0xff, st.exit_status & 0x7f);
        ctx.commit.txn().del(state::Table::Steps, state::step_key(job.id, st.id));
        js.steps.erase(st.id);
    }

    // One node's part of a step is over; the step ends when every node's is.
    void node_done(uint32_t job_id, uint32_t step_id, const std::string &node, int32_t status,
                   const StepUsageSummary &usage, uint32_t state) {
        Job *job = job_mgr.find(job_id);
        auto jt = jobs.find(job_id);
        if (!job || jt == jobs.end()) return;
        auto st = jt->second.steps.find(step_id);
        if (st == jt->second.steps.end()) return;
        Step &s = st->second;
        auto it = std::find_if(s.reporting.begin(), s.reporting.end(), [&](uint32_t pos) {
            return nodes.at(job->nodes[pos]).conf->name == node;
        });
        if (it == s.reporting.end()) return;
        s.reporting.erase(it);
        s.exit_status = worse(s.exit_status, status);
        if (usage.tasks) merge(s.usage, usage);
        if (state && !s.end_state) s.end_state = state;
        if (s.reporting.empty()) {
            finish(*job, jt->second, s);
            retry_waiting(*job);
        } else {
            persist(s);
        }
    }

    void retry_waiting(Job &job) {
        auto it = jobs.find(job.id);
        if (it == jobs.end()) return;
        std::deque<Waiting> waiting;
        waiting.swap(it->second.waiting);
        while (!waiting.empty()) {
            Waiting w = std::move(waiting.front());
            waiting.pop_front();
            std::size_t before = jobs[job.id].waiting.size();
            attempt(job, w.req, w.resp);
            // Still busy: it and every later request keep their order.
            if (jobs[job.id].waiting.size() > before) {
                for (auto &rest : waiting) jobs[job.id].waiting.push_back(std::move(rest));
                return;
            }
        }
    }

    // One request for the step's nodes (through the fan-out tree when there are several).
    void send_to_nodes(const Job &job, const Step &st, int sig, bool terminate, uint32_t reason) {
        std::vector<std::string> names;
        names.reserve(st.nodes.size());
        for (uint32_t pos : st.nodes) names.push_back(nodes.at(job.nodes[pos]).conf->name);
        flatbuffers::FlatBufferBuilder fbb(128);
        fbb.Finish(proto::CreateMessage(
            fbb, proto::Body::StepSignalRequest,
            proto::CreateStepSignalRequest(fbb, job.id, st.id, sig, terminate, 0, reason).Union(),
            ctx.epoch));
        uint32_t job_id = job.id, step_id = st.id;
        call_nodes(
            ctx, std::move(names), {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()},
            10000,
            [this, terminate, job_id, step_id, reason](std::vector<net::NodeOutcome> results) {
                if (fenced_by(ctx, results)) return;
                for (const auto &r : results) {
                    // A node that never started its part (srun gave up on the launch) has
                    // nothing to report: its part ends now.
                    if (r.rc == DROVER_ENOENT) {
                        if (terminate) node_done(job_id, step_id, r.node, 0, {}, reason);
                    } else if (r.rc != 0) {
                        spdlog::warn("step {}.{}: cannot signal on {}: {}", job_id, step_id, r.node,
                                     r.message);
                    }
                }
            });
    }

    void reply_wait(const Job &job, const net::ResponderPtr &resp) {
        flatbuffers::FlatBufferBuilder fbb(1024);
        std::vector<flatbuffers::Offset<flatbuffers::String>> n_off, a_off;
        for (uint32_t idx : job.nodes) {
            const std::string &name = nodes.at(idx).conf->name;
            std::string host;
            uint16_t port = 0;
            resolve_node(ctx, name, &host, &port);
            n_off.push_back(fbb.CreateString(name));
            a_off.push_back(fbb.CreateString(host + ":" + std::to_string(port)));
        }
        auto nv = fbb.CreateVector(n_off);
        auto av = fbb.CreateVector(a_off);
        auto reason = fbb.CreateString(job.reason);
        auto nl = fbb.CreateString(nodes.names(job.nodes));
        auto nc = fbb.CreateVector(job.node_cpus);
        auto part = fbb.CreateString(job.partition);
        auto acct = fbb.CreateString(job.account);
        auto name = fbb.CreateString(job.name);
        auto gres = fbb.CreateString(job.ext().gres);
        proto::JobInfoLiteBuilder b(fbb);
        b.add_job_id(job.id);
        b.add_state(job.state);
        b.add_reason(reason);
        b.add_node_list(nl);
        b.add_node_cpus(nc);
        b.add_nodes(nv);
        b.add_node_addrs(av);
        b.add_partition(part);
        b.add_time_limit_min(job.time_limit_min);
        b.add_start_time(job.start_time);
        b.add_account(acct);
        b.add_name(name);
        b.add_num_tasks(job.num_tasks);
        b.add_cpus_per_task(job.cpus_per_task);
        b.add_mem_per_node_mb(job.mem_per_node_mb);
        b.add_mem_per_cpu_mb(job.mem_per_cpu_mb);
        b.add_gres(gres);
        auto lite = b.Finish();
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobWaitResponse,
                                        proto::CreateJobWaitResponse(fbb, lite).Union()));
        resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    }
};

StepManager::StepManager(Ctx &ctx, const NodeManager &nodes, JobManager &jobs)
    : impl_(std::make_unique<Impl>(ctx, nodes, jobs)) {
    ctx.events.job_started.subscribe([this](const Job &j) {
        if (j.interactive) job_started(j); // salloc/srun waiting for the allocation
    });
    ctx.events.job_ended.subscribe([this](const Job &j) { job_ended(j); });
    ctx.events.steps_signalled.subscribe([this](Job &j, int sig) {
        for (uint32_t s : step_ids(j.id)) signal_step(j, s, sig, false, 0);
    });
}
StepManager::~StepManager() = default;

void StepManager::recover(bool cold) {
    auto &I = *impl_;
    if (cold) {
        I.ctx.commit.txn().clear(state::Table::Steps);
        return;
    }
    std::vector<std::array<uint8_t, 8>> stale;
    std::size_t n = 0;
    I.ctx.store.scan(state::Table::Steps, [&](state::Bytes key, state::Bytes value) {
        uint64_t k = state::seq_from_key(key);
        uint32_t job_id = uint32_t(k >> 32), step_id = uint32_t(k);
        Job *job = I.job_mgr.find(job_id);
        if (!job || !job->running()) {
            // Its job's end removes it in the same commit: this is never expected, only tidied.
            stale.push_back(state::step_key(job_id, step_id));
            return;
        }
        Impl::JobSteps &js = I.jobs[job_id];
        if (step_id == state::kNextStepKey) {
            js.next_id = std::max(js.next_id, state::job_from_key(value));
            return;
        }
        flatbuffers::Verifier v(value.data(), value.size());
        if (!v.VerifyBuffer<proto::StepRecord>(nullptr)) {
            spdlog::error("skipping the damaged record of step {}.{}", job_id, step_id);
            stale.push_back(state::step_key(job_id, step_id));
            return;
        }
        Step st = read_step_record(*flatbuffers::GetRoot<proto::StepRecord>(value.data()));
        // It still holds its CPUs and GPUs: a step created now must not be given them.
        Impl::size_used(*job, js);
        Impl::mark_held(js, st, true);
        js.next_id = std::max(js.next_id, st.id + 1);
        js.steps.emplace(st.id, std::move(st));
        ++n;
    });
    for (const auto &key : stale) I.ctx.commit.txn().del(state::Table::Steps, key);
    if (n) spdlog::info("recovered {} running steps", n);
}

std::size_t StepManager::running_steps() const {
    std::size_t n = 0;
    for (const auto &[id, js] : impl_->jobs) n += js.steps.size();
    return n;
}

std::vector<uint32_t> StepManager::step_ids(uint32_t job_id) const {
    std::vector<uint32_t> ids;
    auto it = impl_->jobs.find(job_id);
    if (it != impl_->jobs.end())
        for (const auto &[id, s] : it->second.steps) ids.push_back(id);
    return ids;
}

void StepManager::on_create(const std::shared_ptr<net::Request> &req,
                            const net::ResponderPtr &resp) {
    auto &I = *impl_;
    const auto *r = req->msg->body_as_StepCreateRequest();
    if (Job *job = I.running_job(r->job_id(), req->peer.uid, resp)) I.attempt(*job, req, resp);
}

void StepManager::on_bcast_cred(const std::shared_ptr<net::Request> &req,
                                const net::ResponderPtr &resp) {
    auto &I = *impl_;
    const auto *r = req->msg->body_as_BcastCredRequest();
    Job *job = I.running_job(r->job_id(), req->peer.uid, resp);
    if (!job) return;
    std::vector<uint32_t> positions;
    if (r->step_id() == DROVER_NO_VAL) {
        for (uint32_t k = 0; k < job->nodes.size(); ++k) positions.push_back(k);
    } else if (const Step *st = I.find_step(job->id, r->step_id())) {
        positions = st->nodes;
    } else {
        return resp->error(DROVER_ENOENT, "Invalid job step id specified");
    }
    std::vector<std::string> names;
    for (uint32_t pos : positions) names.push_back(I.nodes.at(job->nodes[pos]).conf->name);
    // A heterogeneous job's leader: the nodes of every component (sbcast --jobid=L, as Slurm).
    if (r->step_id() == DROVER_NO_VAL)
        for (const Job *c : I.job_mgr.het_others(*job))
            for (uint32_t i : c->running() ? c->nodes : std::vector<uint32_t>{})
                if (std::find(names.begin(), names.end(), I.nodes.at(i).conf->name) == names.end())
                    names.push_back(I.nodes.at(i).conf->name);
    std::vector<uint8_t> cred;
    try {
        cred = net::sign_step_cred(I.ctx.auth, bcast_cred_body(*job, r->step_id(), names));
    } catch (const std::exception &e) {
        return resp->error(DROVER_EIO, e.what());
    }
    resp->reply(bcast_cred_response(I.ctx, *job, r->step_id(), names, cred));
}

net::Routes StepManager::routes() {
    using net::Caller;
    return {
        {proto::Body::StepCreateRequest, Caller::Anyone,
         net::member(this, &StepManager::on_create)},
        {proto::Body::StepCompleteRequest, Caller::Admin,
         net::member(this, &StepManager::on_complete), "step completion must come from SlurmUser"},
        {proto::Body::StepInfoRequest, Caller::Anyone, net::member(this, &StepManager::on_info)},
        {proto::Body::JobWaitRequest, Caller::Anyone, net::member(this, &StepManager::on_wait)},
        {proto::Body::BcastCredRequest, Caller::Anyone,
         net::member(this, &StepManager::on_bcast_cred)},
        {proto::Body::StepUpdateRequest, Caller::Anyone,
         net::member(this, &StepManager::on_update)}};
}

namespace {

// A step's limit after an update: set, or moved by the minutes given (never below 0 or past
// INFINITE, which a signed change leaves as it is).
uint32_t new_limit(uint32_t now, const proto::StepUpdateRequest &r) {
    if (r.sign() == 0) return r.time_limit_min();
    if (now == DROVER_INFINITE) return now;
    int64_t v = int64_t(now) + int64_t(r.sign()) * int64_t(r.time_limit_min());
    return uint32_t(std::clamp<int64_t>(v, 0, int64_t(DROVER_INFINITE) - 1));
}

} // namespace

void StepManager::on_update(const std::shared_ptr<net::Request> &req,
                            const net::ResponderPtr &resp) {
    auto &I = *impl_;
    const auto *r = req->msg->body_as_StepUpdateRequest();
    const Job *job = I.job_mgr.find(r->job_id());
    auto jt = I.jobs.find(r->job_id());
    bool admin = I.ctx.is_admin(req->peer.uid);
    if (!job || !job->running() || jt == I.jobs.end())
        return resp->error(DROVER_ENOENT, kInvalidJobId);
    if (!admin && job->uid != req->peer.uid)
        return resp->error(DROVER_EPERM, "Access/permission denied");
    std::vector<Step *> steps;
    for (auto &[id, s] : jt->second.steps)
        if (r->step_id() == DROVER_NO_VAL || id == r->step_id()) steps.push_back(&s);
    if (steps.empty()) return resp->error(DROVER_ENOENT, kInvalidJobId);
    for (Step *s : steps) // a user may only shorten: all or nothing
        if (!admin && new_limit(s->time_limit_min, *r) > s->time_limit_min)
            return resp->error(DROVER_EPERM, "Access/permission denied");
    for (Step *s : steps) {
        s->time_limit_min = new_limit(s->time_limit_min, *r);
        I.persist(*s);
        spdlog::info("step {}.{}: time limit now {} min (uid {})", s->job_id, s->id,
                     s->time_limit_min, req->peer.uid);
    }
    I.ctx.commit.after_commit([resp] { resp->ok(); });
}

void StepManager::on_complete(const std::shared_ptr<net::Request> &req,
                              const net::ResponderPtr &resp) {
    auto &I = *impl_;
    const auto *r = req->msg->body_as_StepCompleteRequest();
    I.node_done(r->job_id(), r->step_id(), str(r->node()), r->exit_status(),
                r->usage() ? net::usage_from_proto(*r->usage()) : StepUsageSummary{}, r->state());
    I.ctx.commit.after_commit([resp] { resp->ok(); });
}

Status StepManager::signal_step(Job &job, uint32_t step_id, int sig, bool terminate, uint32_t uid) {
    auto &I = *impl_;
    auto jt = I.jobs.find(job.id);
    if (jt == I.jobs.end() || !jt->second.steps.count(step_id))
        return {DROVER_ENOENT, "Invalid job id specified"};
    Step &s = jt->second.steps.at(step_id);
    if (terminate) {
        if (!s.end_state) s.end_state = DROVER_JOB_CANCELLED;
        s.cancelled_by = uid;
        s.kill_sent = true;
        I.persist(s);
    }
    I.send_to_nodes(job, s, sig, terminate, terminate ? s.end_state : 0);
    return {};
}

void StepManager::job_started(const Job &job) {
    auto &I = *impl_;
    auto it = I.alloc_waiters.find(job.id);
    if (it == I.alloc_waiters.end()) return;
    for (auto &w : it->second) I.reply_wait(job, w.resp);
    I.alloc_waiters.erase(it);
}

void StepManager::job_ended(const Job &job) {
    auto &I = *impl_;
    job_started(job); // anyone still waiting learns how it ended
    auto jt = I.jobs.find(job.id);
    if (jt == I.jobs.end()) return;
    Impl::JobSteps &js = jt->second;
    for (auto &w : js.waiting)
        w.resp->error(DROVER_EINVAL, "Job/step already completing or completed");
    js.waiting.clear();
    Job &j = *I.job_mgr.find(job.id);
    while (!js.steps.empty()) {
        Step &s = js.steps.begin()->second;
        if (!s.end_state) s.end_state = DROVER_JOB_CANCELLED;
        if (s.cancelled_by == DROVER_NO_VAL)
            s.cancelled_by = job.cancelled_by != DROVER_NO_VAL ? job.cancelled_by : 0;
        I.finish(j, js, s);
    }
    I.ctx.commit.txn().del(state::Table::Steps, state::step_key(job.id, state::kNextStepKey));
    I.jobs.erase(jt);
}

void StepManager::tick() {
    auto &I = *impl_;
    int64_t now = Ctx::now();
    for (auto &[id, js] : I.jobs) {
        Job *job = I.job_mgr.find(id);
        // A suspended job's steps wait with it (Slurm moves their limits on as well; here the
        // time suspended counts against a step's own limit).
        if (!job || job->state != DROVER_JOB_RUNNING) continue;
        for (auto &[sid, s] : js.steps) {
            if (s.time_limit_min == DROVER_INFINITE || s.kill_sent) continue;
            int64_t end = s.start_time + int64_t(s.time_limit_min) * 60;
            if (s.signal_num && !s.signal_sent && now >= end - int64_t(s.signal_secs)) {
                s.signal_sent = true;
                I.persist(s);
                I.send_to_nodes(*job, s, s.signal_num, false, 0);
            }
            if (now >= end) {
                spdlog::info("step {}.{} reached its time limit", id, sid);
                s.kill_sent = true;
                s.end_state = DROVER_JOB_TIMEOUT;
                I.persist(s);
                I.send_to_nodes(*job, s, SIGTERM, true, DROVER_JOB_TIMEOUT);
            }
        }
    }
    for (auto it = I.alloc_waiters.begin(); it != I.alloc_waiters.end();) {
        Job *job = I.job_mgr.find(it->first);
        auto &ws = it->second;
        for (auto w = ws.begin(); w != ws.end();) {
            if (job && now < w->deadline) {
                ++w;
                continue;
            }
            if (job)
                I.reply_wait(*job, w->resp);
            else
                w->resp->error(DROVER_ENOENT, "Invalid job id specified");
            w = ws.erase(w);
        }
        it = ws.empty() ? I.alloc_waiters.erase(it) : std::next(it);
    }
}

void StepManager::on_wait(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp) {
    auto &I = *impl_;
    const auto *r = req->msg->body_as_JobWaitRequest();
    Job *job = I.job_mgr.find(r->job_id());
    if (!job) return resp->error(DROVER_ENOENT, "Invalid job id specified");
    if (job->uid != req->peer.uid && !I.ctx.is_admin(req->peer.uid))
        return resp->error(DROVER_EPERM, "Access/permission denied");
    if (!job->pending() || r->timeout_ms() == 0) return I.reply_wait(*job, resp);
    int64_t wait_s = std::max<int64_t>(1, r->timeout_ms() / 1000);
    I.alloc_waiters[job->id].push_back({resp, Ctx::now() + wait_s});
}

void StepManager::on_info(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp) {
    auto &I = *impl_;
    const auto *r = req->msg->body_as_StepInfoRequest();
    std::unordered_set<uint32_t> want;
    if (r->job_ids())
        for (uint32_t id : *r->job_ids()) want.insert(id);
    Viewer viewer(I.ctx, req->peer.uid); // PrivateData=jobs
    // One job asked for that there is not (scontrol show step J.S); one the viewer may not see
    // has, as in Slurm, no steps to show.
    if (want.size() == 1 && !I.job_mgr.find(*want.begin()))
        return resp->error(DROVER_ENOENT, kInvalidJobId);
    flatbuffers::FlatBufferBuilder fbb(4096);
    std::vector<flatbuffers::Offset<proto::StepInfo>> out;
    auto add = [&](const Job &job, uint32_t sid, const std::string &name, int64_t start,
                   uint32_t limit, const std::string &nodes, uint32_t nnodes, uint32_t cpus,
                   uint32_t tasks, uint64_t mem, const std::string &host, const std::string &cmd,
                   uint32_t cpt) {
        auto n = fbb.CreateString(name);
        auto un = fbb.CreateString(job.user_name);
        auto p = fbb.CreateString(job.partition);
        auto nl = fbb.CreateString(nodes);
        auto h = fbb.CreateString(host);
        auto c = fbb.CreateString(cmd);
        std::string tres = "cpu=" + std::to_string(cpus) +
                           (mem ? ",mem=" + std::to_string(mem * nnodes) + "M" : "") +
                           ",node=" + std::to_string(nnodes);
        auto t = fbb.CreateString(tres);
        proto::StepInfoBuilder b(fbb);
        b.add_job_id(job.id);
        b.add_step_id(sid);
        b.add_name(n);
        b.add_user_id(job.uid);
        b.add_user_name(un);
        b.add_partition(p);
        b.add_state(DROVER_JOB_RUNNING);
        b.add_start_time(start);
        b.add_time_limit_min(limit);
        b.add_node_list(nl);
        b.add_num_nodes(nnodes);
        b.add_num_cpus(cpus);
        b.add_num_tasks(tasks);
        b.add_mem_per_node_mb(mem);
        b.add_submit_host(h);
        b.add_command(c);
        b.add_array_job_id(job.array_job_id);
        b.add_array_task_id(job.array_task_id);
        b.add_tres(t);
        b.add_cpus_per_task(cpt);
        out.push_back(b.Finish());
    };
    for (Job *job : I.job_mgr.running()) {
        if (!want.empty() && !want.count(job->id)) continue;
        if (!viewer.sees_job(*job)) continue;
        bool any = r->step_id() == DROVER_NO_VAL;
        if (!job->interactive && (any || r->step_id() == DROVER_STEP_BATCH)) {
            const std::string &batch = I.nodes.at(job->nodes.front()).conf->name;
            add(*job, DROVER_STEP_BATCH, "batch", job->start_time, DROVER_INFINITE, batch, 1,
                job->node_cpus.front(), 1, 0, job->submit_host, job->command, job->cpus_per_task);
        }
        auto jt = I.jobs.find(job->id);
        if (jt == I.jobs.end()) continue;
        for (const auto &[sid, s] : jt->second.steps) {
            if (!any && r->step_id() != sid) continue;
            uint32_t cpus = 0;
            for (uint32_t c : s.cpus) cpus += c;
            add(*job, sid, s.name, s.start_time, s.time_limit_min, I.step_node_list(*job, s),
                uint32_t(s.nodes.size()), cpus, s.num_tasks, s.mem_per_node_mb, s.submit_host,
                s.command, s.cpus_per_task);
        }
    }
    auto v = fbb.CreateVector(out);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepInfoResponse,
                                    proto::CreateStepInfoResponse(fbb, v, Ctx::now()).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace drover::ctld
