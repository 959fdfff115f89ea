// scheduler.cpp - scheduling passes and job starts.
#include "ctld/sched/scheduler.hpp"

#include "common/hostlist.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>
#include <unordered_map>
#include <unordered_set>

#include "common/timefmt.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "ctld/jobs/partition_list.hpp"
#include "ctld/sched/allocation.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_codec.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/sched/placement.hpp"
#include "plugin/plugin_set.hpp"

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
    // The reservation windows of the job asked about last (a planner asks for them in a row).
    uint32_t windows_of = 0;
    std::vector<drover::ctld::Reservations::Window> windows;
};

namespace drover::ctld {

namespace {

// A planning policy asks with no node allowed to learn only whether the job is eligible.
bool probe_only(const drover_bitmap_view *allowed) {
    if (!allowed || !allowed->words) return false;
    for (std::size_t w = 0; w < (allowed->nbits + 63) / 64; ++w)
        if (allowed->words[w] != 0) return false;
    return true;
}

const char *held_reason(Hold hold) {
    return hold == Hold::User ? "JobHeldUser" : "JobHeldAdmin";
}

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
    // A suspended job holds no CPUs: a planner sees its nodes as the select plugin does.
    std::erase_if(p->running, [](const Job *j) { return j->state == DROVER_JOB_SUSPENDED; });
    p->running_views.reserve(p->running.size());
    for (Job *j : p->running) p->running_views.push_back(codec::job_view(*j));
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
    if (!p->by_id.count(job_id)) return;
    Scheduler::Plan plan{when, {}};
    if (nodes.words)
        for (uint32_t i = 0; i < nodes.nbits; ++i)
            if ((nodes.words[i >> 6] >> (i & 63)) & 1u) plan.nodes.push_back(i);
    p->sched->expect(job_id, std::move(plan));
}
drover_str host_parameters(drover_sched_pass *p) {
    const std::string &s = p->sched->parameters();
    return {s.data(), s.size()};
}
const std::vector<Reservations::Window> *load_windows(drover_sched_pass *p, uint32_t job_id) {
    if (p->windows_of != job_id) {
        auto it = p->by_id.find(job_id);
        if (it == p->by_id.end()) return nullptr;
        p->windows = p->sched->blocked(*it->second);
        p->windows_of = job_id;
    }
    return &p->windows;
}
uint32_t host_blocked_count(drover_sched_pass *p, uint32_t job_id) {
    const auto *w = load_windows(p, job_id);
    return w ? uint32_t(w->size()) : 0;
}
int host_blocked_window(drover_sched_pass *p, uint32_t job_id, uint32_t i, drover_bitmap *nodes,
                        int64_t *start, int64_t *end) {
    const auto *w = load_windows(p, job_id);
    if (!w || i >= w->size()) return DROVER_ENOENT;
    const Bitmap &b = *(*w)[i].nodes;
    const std::size_t words = (nodes->nbits + 63) / 64;
    for (std::size_t k = 0; k < words; ++k)
        nodes->words[k] = k < (b.size() + 63) / 64 ? b.words()[k] : 0;
    *start = (*w)[i].start;
    *end = (*w)[i].end;
    return DROVER_OK;
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
                                      host_parameters,
                                      host_blocked_count,
                                      host_blocked_window};

} // namespace

struct Scheduler::Timer {
    explicit Timer(boost::asio::io_context &io) : t(io) {}
    boost::asio::steady_timer t;
};

Scheduler::Scheduler(Ctx &ctx, const NodeManager &nodes, JobManager &jobs, const Placement &place,
                     const Reservations &resv)
    : ctx_(ctx), nodes_(nodes), jobs_(jobs), place_(place), resv_(resv),
      timer_(std::make_unique<Timer>(ctx.io)), preempt_(ctx, nodes, jobs) {
    ctx_.events.queue_changed.subscribe([this] { request(); });
}

Scheduler::~Scheduler() = default;

void Scheduler::init_select() {
    const auto sel = ctx_.plugins.select_calls();
    const auto &views = nodes_.views();
    if (Status s = sel.node_init(views); !s.ok()) throw std::runtime_error(s.text());
    // The select plugin owns per-node usage: after a restart it learns it again from the jobs,
    // in the order they started so that it places them as it did the first time.
    auto running = jobs_.running();
    std::stable_sort(running.begin(), running.end(), [](const Job *a, const Job *b) {
        return a->start_time != b->start_time ? a->start_time < b->start_time : a->id < b->id;
    });
    for (Job *j : running) {
        Bitmap held(views.size());
        for (auto i : j->nodes) held.set(i);
        // Unlike at start, a refusal here cannot keep the job off its nodes: it runs there
        // already. It is logged, and the plugin may count those nodes as free until it ends.
        if (Status s = sel.job_begin(codec::job_view(*j), held); !s.ok())
            spdlog::error("job {} on recovery: {}", j->id, s.text());
        else if (j->state == DROVER_JOB_SUSPENDED) // its CPUs are free again, as they were
            suspend_hold(sel, *j, true);
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
    Decisions d = run_pass();
    last_end_ = std::chrono::steady_clock::now();
    last_cost_ = last_end_ - t0;
    const auto usec = std::chrono::duration_cast<std::chrono::microseconds>(last_cost_).count();
    ctx_.acct.stats().cycle(uint64_t(usec), d.tried, d.queue);
    // The job manager takes them for the jobs still pending (a job given a reason may have
    // started later in the pass).
    for (const auto &[id, reason] : d.reasons) jobs_.note_pending(id, reason);
    for (auto &[id, plan] : d.plans)
        jobs_.note_expected_start(id, plan.when, std::move(plan.nodes));
    for (const End &e : d.ends) jobs_.end_pending(e.job_id, e.state, e.cancelled_by);
    for (const auto &[by, victims] : d.preempts) preempt_.preempt(by, victims);
}

Scheduler::Decisions Scheduler::run_pass() {
    d_ = {};
    if (preempt_.active()) preempt_.begin_pass();
    drover_sched_pass p;
    p.sched = this;
    p.now = Ctx::now();
    // Held jobs cannot start and already say why: the policy never needs to see them.
    for (Job *j : jobs_.pending())
        if (j->hold == Hold::None) p.jobs.push_back(j);
    if (p.jobs.empty()) return {};
    p.views.reserve(p.jobs.size());
    p.by_id.reserve(p.jobs.size());
    for (Job *j : p.jobs) {
        p.views.push_back(codec::job_view(*j));
        p.views.back().partition_tier = partition_tier(*j);
        p.by_id.emplace(j->id, j);
    }
    if (Status s = ctx_.plugins.sched_calls().schedule(kSchedHost, &p); !s.ok())
        spdlog::error("{}", s.text());
    // Jobs the policy did not reach wait behind higher-priority work (a heterogeneous job's
    // component the pass gave a reason through its leader keeps it).
    for (Job *j : p.jobs)
        if (j->pending() && !p.tried.count(j->id) && !d_.reasons.count(j->id) &&
            (j->reason == "None" || j->reason == "Resources"))
            wait(*j, "Priority");
    d_.queue = uint32_t(p.jobs.size());
    d_.tried = uint32_t(p.tried.size());
    return std::move(d_);
}

uint32_t Scheduler::partition_tier(const Job &job) const {
    // A job waiting in several partitions is as urgent as the highest of them.
    uint32_t tier = 0;
    for (const auto &name : partition_names(job.partition))
        if (const Partition *p = nodes_.partition(name); p && p->conf)
            tier = std::max(tier, p->conf->priority_tier);
    return tier;
}

const std::vector<drover_node_view> &Scheduler::node_views() const {
    return nodes_.views();
}
std::vector<Job *> Scheduler::running_jobs() const {
    return jobs_.running();
}
const std::string &Scheduler::parameters() const {
    return ctx_.conf.scheduler_parameters;
}

int Scheduler::job_nodes(uint32_t job_id, drover_bitmap *nodes, uint32_t *cpus) {
    Job *j = jobs_.find(job_id);
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
    // Those of any of its partitions (try_start then starts it in one that holds them).
    Bitmap usable;
    for (const auto &name : partition_names(job.partition)) {
        const Partition *part = nodes_.partition(name);
        if (!part) continue;
        Bitmap in = place_.usable_for(job, *part);
        if (usable.size() == 0)
            usable = std::move(in);
        else
            usable |= in;
    }
    if (usable.size() == 0) return DROVER_ENOENT;
    if (const Bitmap *own = resv_.confine(job)) usable &= *own;
    std::size_t words = std::min<std::size_t>((out->nbits + 63) / 64, (usable.size() + 63) / 64);
    for (std::size_t w = 0; w < words; ++w) out->words[w] = usable.words()[w];
    return DROVER_OK;
}

int Scheduler::try_start(Job &job, const drover_bitmap_view *allowed) {
    if (!job.pending()) return DROVER_EPERM;
    if (job.hold != Hold::None) {
        wait(job, held_reason(job.hold));
        return DROVER_EPERM;
    }
    if (is_partition_list(job.partition)) return try_each_partition(job, allowed);
    return try_start_in(job, allowed);
}

// -p a,b: tried in each partition in the order given; it starts in the first that takes it now
// and belongs to that one from then on. Otherwise it keeps the list, and the reason of the last.
int Scheduler::try_each_partition(Job &job, const drover_bitmap_view *allowed) {
    const std::string list = job.partition;
    int rc = DROVER_EPERM;
    for (const auto &name : partition_names(list)) {
        job.partition = name;
        rc = try_start_in(job, allowed);
        if (!job.pending() || (job.is_array_record() && rc == DROVER_OK)) break;
    }
    if (job.pending()) job.partition = list;
    return rc;
}

int Scheduler::try_start_in(Job &job, const drover_bitmap_view *allowed) {
    const Partition *part = nodes_.partition(job.partition);
    if (!part) {
        wait(job, "BadConstraints");
        return DROVER_EPERM;
    }
    if (int rc = check_startable(job, *part); rc != DROVER_OK) return rc;
    if (job.ext().het_job_id) return start_het(job, allowed);
    if (job.is_array_record()) return start_array_tasks(job, *part, allowed);
    std::vector<uint32_t> nodes;
    int rc = choose(job, *part, allowed, &nodes);
    if (rc == DROVER_OK && gate_) {
        std::string why;
        if (rc = gate_(job, why); rc != DROVER_OK) {
            wait(job, std::move(why));
            return rc;
        }
    }
    if (rc == DROVER_OK && !start(job, nodes)) rc = DROVER_EBUSY;
    return rc;
}

int Scheduler::check_startable(Job &job, const Partition &part) {
    if (int rc = check_eligible(job, part); rc != DROVER_OK) return rc;
    if (int rc = check_dependency(job); rc != DROVER_OK) return rc;
    if (int rc = check_limits(job); rc != DROVER_OK) return rc;
    if (const char *why = resv_.hold_reason(job, Ctx::now())) {
        wait(job, why);
        return DROVER_EPERM;
    }
    return DROVER_OK;
}

// A heterogeneous job starts whole or not at all: every component must be startable and get
// nodes now; each is allocated in turn (so the next one's choice sees the nodes taken), and all
// are given back when one cannot be placed. Every component then waits for the same reason.
int Scheduler::start_het(Job &job, const drover_bitmap_view *allowed) {
    const std::vector<Job *> parts = jobs_.het_components(job);
    auto wait_all = [&](const Job &why, int rc) {
        auto it = d_.reasons.find(why.id);
        const std::string reason = it != d_.reasons.end() ? it->second : "Resources";
        for (const Job *c : parts) wait(*c, reason);
        return rc;
    };
    if (parts.size() != job.ext().het_size) { // a component is gone (purged): it cannot start
        wait(job, "BadConstraints");
        return wait_all(job, DROVER_EPERM);
    }
    for (Job *c : parts) {
        if (c == &job) continue;
        const Partition *part = nodes_.partition(c->partition);
        if (!c->pending() || c->hold != Hold::None || !part) {
            wait(*c, c->hold == Hold::None ? "BadConstraints" : held_reason(c->hold));
            return wait_all(*c, DROVER_EPERM);
        }
        if (int rc = check_startable(*c, *part); rc != DROVER_OK) return wait_all(*c, rc);
    }
    // A planner's nodes are those it found for the job it tried; the other components may use
    // any (but for its probe with no node allowed, which asks only whether the job is eligible).
    const bool probe = probe_only(allowed);
    std::vector<Job *> held;
    for (Job *c : parts) {
        std::vector<uint32_t> nodes;
        const drover_bitmap_view *within = c == &job || probe ? allowed : nullptr;
        int rc = choose(*c, *nodes_.partition(c->partition), within, &nodes);
        if (rc == DROVER_OK && !hold_nodes(*c, nodes).ok()) rc = DROVER_EBUSY;
        if (rc != DROVER_OK) {
            for (Job *h : held) drop_nodes(*h);
            return wait_all(*c, rc);
        }
        held.push_back(c);
    }
    for (Job *c : parts) jobs_.record_start(*c);
    return DROVER_OK;
}

Status Scheduler::hold_nodes(Job &job, const std::vector<uint32_t> &picked) {
    return allocate(ctx_.plugins.select_calls(), job, picked, nodes_.size(),
                    [this](uint32_t i) { return nodes_.at(i).conf->cpus; });
}

void Scheduler::drop_nodes(Job &job) {
    release(ctx_.plugins.select_calls(), job, "heterogeneous job not started");
    forget_nodes(job);
}

void Scheduler::wait(const Job &job, std::string reason) {
    d_.reasons[job.id] = std::move(reason);
}

int Scheduler::check_eligible(Job &job, const Partition &part) {
    auto refuse = [this, &job](const char *reason) {
        wait(job, reason);
        return DROVER_EPERM;
    };
    if (part.state == "DOWN") return refuse("PartitionDown");
    if (part.state == "INACTIVE") return refuse("PartitionInactive");
    if (job.time_limit_min != kInfinite && part.conf->max_time_min != kInfinite &&
        job.time_limit_min > part.conf->max_time_min)
        return refuse("PartitionTimeLimit");
    if (part.conf->max_nodes != kInfinite && job.min_nodes > part.conf->max_nodes)
        return refuse("PartitionNodeLimit");
    int64_t now = Ctx::now();
    if (job.eligible_time > now) return refuse("BeginTime");
    if (int64_t deadline = job.ext().deadline) {
        int64_t need = job.time_limit_min == kInfinite ? 0 : int64_t(job.time_limit_min) * 60;
        if (now + need > deadline) { // it could no longer finish in time
            d_.ends.push_back({job.id, DROVER_JOB_DEADLINE});
            return refuse("DeadLine");
        }
    }
    return DROVER_OK;
}

int Scheduler::check_limits(Job &job) {
    if (!jobs_.licenses().free_for(job)) {
        wait(job, "Licenses");
        return DROVER_EPERM;
    }
    if (const char *reason = jobs_.policy().check_start(job, jobs_.usage(), Ctx::now())) {
        wait(job, reason);
        return DROVER_EPERM;
    }
    return DROVER_OK;
}

int Scheduler::check_dependency(Job &job) {
    switch (jobs_.check_dependency(job)) {
    case DepState::Waiting:
        wait(job, "Dependency");
        return DROVER_EPERM;
    case DepState::Never:
        wait(job, "DependencyNeverSatisfied");
        if (job.kill_on_invalid_dep) d_.ends.push_back({job.id, DROVER_JOB_CANCELLED, 0});
        return DROVER_EPERM;
    case DepState::Satisfied:
        break;
    }
    return DROVER_OK;
}

int Scheduler::start_array_tasks(Job &rec, const Partition &part,
                                 const drover_bitmap_view *allowed) {
    // Strict order inside an array: start tasks while they fit; the first that does not fit
    // leaves the rest waiting (EBUSY, so a strict policy stops the partition there).
    // Every task asks for what the record asks for, so the nodes chosen for the record are the
    // task's.
    bool started = false;
    while (rec.is_array_record()) {
        // Each task started counts against the limits of the next.
        if (started && check_limits(rec) != DROVER_OK) return DROVER_OK;
        std::vector<uint32_t> nodes;
        int rc = choose(rec, part, allowed, &nodes);
        if (rc != DROVER_OK) return started ? DROVER_OK : rc;
        Job *task = jobs_.split_array_task(rec);
        if (!task) {
            wait(rec, "JobArrayTaskLimit");
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
    if (probe_only(allowed)) {
        wait(job, "Resources");
        return DROVER_EBUSY;
    }
    Bitmap usable = place_.usable_for(job, part);
    if (const Bitmap *own = resv_.confine(job)) usable &= *own;
    const bool maint = resv_.restrict(job, Ctx::now(), usable);
    if (allowed && allowed->words)
        for (std::size_t w = 0; w < (usable.size() + 63) / 64 && w < (allowed->nbits + 63) / 64;
             ++w)
            usable.words()[w] &= allowed->words[w];
    Bitmap picked;
    if (!ctx_.plugins.select_calls()
             .job_test(codec::job_view(job), usable, DROVER_SELECT_RUN_NOW, &picked)
             .ok()) {
        // Nodes it named (-w) that are down or drained: Slurm's ReqNodeNotAvail, with the
        // nodes named as its squeue and scontrol show them.
        const Bitmap &req = job.ext().req_bits;
        std::vector<std::string> gone;
        for (std::size_t i = req.size() ? req.next(0) : 0; i < req.size(); i = req.next(i + 1))
            if (!nodes_.at(uint32_t(i)).usable()) gone.push_back(nodes_.at(uint32_t(i)).conf->name);
        const bool req_unavailable = !gone.empty();
        wait(job, req_unavailable ? "ReqNodeNotAvail, UnavailableNodes:" + hostlist_compress(gone)
                  : maint         ? std::string("ReqNodeNotAvail, Reserved for maintenance")
                                  : std::string("Resources"));
        // Under PreemptType, running jobs it may preempt, when their nodes would let it start.
        if (!req_unavailable && preempt_.active())
            if (auto victims = preempt_.victims_for(job, part, usable); !victims.empty())
                d_.preempts.emplace_back(job.id, std::move(victims));
        return DROVER_EBUSY; // nodes may free up or come back: the job waits either way
    }
    nodes->clear();
    for (std::size_t i = picked.next(0); i < picked.size(); i = picked.next(i + 1))
        nodes->push_back(uint32_t(i));
    if (nodes->empty()) {
        wait(job, "Resources");
        return DROVER_EBUSY;
    }
    return DROVER_OK;
}

bool Scheduler::start(Job &job, const std::vector<uint32_t> &picked) {
    if (Status s = hold_nodes(job, picked); !s.ok()) {
        // The plugin did not record the job, so it stays pending (as Slurm leaves a job whose
        // select_g_job_begin fails queued) and is tried again in a later pass.
        spdlog::error("job {} not started: {}", job.id, s.text());
        wait(job, "Resources");
        return false;
    }
    jobs_.record_start(job);
    return true;
}

} // namespace drover::ctld
