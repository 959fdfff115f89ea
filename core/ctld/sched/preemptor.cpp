// preemptor.cpp - choosing the jobs a pending job preempts, and preempting them.
#include "ctld/sched/preemptor.hpp"

#include <algorithm>
#include <csignal>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "common/ascii.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "ctld/jobs/job_codec.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/policy/job_qos.hpp"
#include "plugin/plugin_set.hpp"

namespace drover::ctld {

struct Preemptor::Grace {
    std::unordered_map<uint32_t, std::unique_ptr<boost::asio::steady_timer>> timers;
};

Preemptor::Preemptor(Ctx &ctx, const NodeManager &nodes, JobManager &jobs)
    : ctx_(ctx), nodes_(nodes), jobs_(jobs), grace_(std::make_unique<Grace>()) {}

Preemptor::~Preemptor() = default;

namespace {

const AssocRec *qos_of(const Ctx &ctx, const Job &job) {
    return ctx.acct.assocs().qos(policy::job_qos(job));
}

// A job names one partition (submission keeps the first of a list).
const Partition *partition_of(const NodeManager &nodes, const Job &job) {
    return nodes.partition(job.partition);
}

} // namespace

void Preemptor::begin_pass() {
    chosen_.clear();
    // A suspended job holds no CPUs: it neither blocks a node nor is preempted again.
    running_.clear();
    std::vector<Job *> suspended;
    for (Job *j : jobs_.running())
        (j->state == DROVER_JOB_RUNNING ? running_ : suspended).push_back(j);
    jobs_on_node_.assign(nodes_.size(), 0);
    for (const Job *j : running_)
        for (uint32_t n : j->nodes) ++jobs_on_node_[n];
    // Forget preemptors whose victims have all ended or been suspended (or that no longer wait).
    for (auto it = waiting_.begin(); it != waiting_.end();) {
        Job *by = jobs_.find(it->first);
        bool still = by && by->pending() &&
                     std::any_of(it->second.begin(), it->second.end(), [this](uint32_t v) {
                         const Job *j = jobs_.find(v);
                         return j && j->state == DROVER_JOB_RUNNING;
                     });
        it = still ? std::next(it) : waiting_.erase(it);
    }
    resume_suspended(suspended);
}

// PreemptMode=SUSPEND: a job suspended by preemption runs again once no job that started since
// (on its CPUs, or others of its nodes) still runs on its nodes, and its preemptor is not still
// waiting to start. Resumed before the pass, so that its CPUs are not given away again.
void Preemptor::resume_suspended(const std::vector<Job *> &suspended) {
    for (Job *s : suspended) {
        if (!s->ext().suspended_by_preemption) continue;
        auto by = suspended_for_.find(s->id);
        if (by != suspended_for_.end()) {
            const Job *p = jobs_.find(by->second);
            if (p && p->pending()) continue;
        }
        const int64_t since = s->ext().suspend_time;
        bool overlapped = std::any_of(running_.begin(), running_.end(), [&](const Job *r) {
            return r->start_time >= since &&
                   std::find_first_of(r->nodes.begin(), r->nodes.end(), s->nodes.begin(),
                                      s->nodes.end()) != r->nodes.end();
        });
        if (overlapped) continue;
        suspended_for_.erase(s->id);
        if (jobs_.resume_job(*s).ok()) {
            running_.push_back(s);
            for (uint32_t n : s->nodes) ++jobs_on_node_[n];
        }
    }
}

std::string Preemptor::mode_of(const Job &victim) const {
    std::string mode;
    if (ctx_.conf.preempt_type == "preempt/qos") {
        if (const AssocRec *q = qos_of(ctx_, victim)) mode = q->limits().preempt_mode;
    } else if (const Partition *p = partition_of(nodes_, victim); p && p->conf) {
        mode = ascii_lower(p->conf->preempt_mode);
    }
    if (mode.empty() || mode == "cluster") mode = ascii_lower(ctx_.conf.preempt_mode);
    return mode;
}

bool Preemptor::may_preempt(const Job &job, const Partition &part, const Job &victim) const {
    if (victim.kill_sent || chosen_.count(victim.id) || mode_of(victim) == "off") return false;
    const AssocRec *vq = qos_of(ctx_, victim);
    uint64_t exempt = vq ? vq->limits().preempt_exempt_s : policy::kNoLimit;
    if (exempt == policy::kNoLimit) exempt = ctx_.conf.preempt_exempt_time_s;
    if (victim.start_time + int64_t(exempt) > Ctx::now()) return false;
    if (ctx_.conf.preempt_type == "preempt/qos") {
        const AssocRec *q = qos_of(ctx_, job);
        const std::string_view vname = policy::job_qos(victim);
        return q && std::find(q->limits().preempt.begin(), q->limits().preempt.end(), vname) !=
                        q->limits().preempt.end();
    }
    const Partition *vp = partition_of(nodes_, victim);
    return vp && vp->conf && part.conf && vp->conf->priority_tier < part.conf->priority_tier;
}

bool Preemptor::fits_on(const Job &job, const Bitmap &free_nodes) const {
    Bitmap picked;
    return ctx_.plugins.select_calls()
        .job_test(codec::job_view(job), free_nodes, DROVER_SELECT_TEST_ONLY, &picked)
        .ok();
}

std::vector<uint32_t> Preemptor::victims_for(const Job &job, const Partition &part,
                                             const Bitmap &usable) {
    if (waiting_.count(job.id)) return {}; // its victims are still ending
    std::vector<const Job *> candidates;
    for (const Job *v : running_)
        if (may_preempt(job, part, *v)) candidates.push_back(v);
    if (candidates.empty()) return {};
    // Lowest priority first, then the youngest.
    std::sort(candidates.begin(), candidates.end(), [](const Job *a, const Job *b) {
        return a->priority != b->priority ? a->priority < b->priority
                                          : a->start_time > b->start_time;
    });
    // Nodes free now, then freed as each candidate is taken (when nothing else runs there).
    std::vector<uint32_t> left = jobs_on_node_;
    Bitmap free_nodes(usable.size());
    for (std::size_t i = usable.next(0); i < usable.size(); i = usable.next(i + 1))
        if (left[i] == 0) free_nodes.set(i);
    std::vector<uint32_t> ids;
    for (const Job *v : candidates) {
        if (ids.size() == kMaxTries) break;
        ids.push_back(v->id);
        for (uint32_t n : v->nodes)
            if (--left[n] == 0 && n < usable.size() && usable.test(n)) free_nodes.set(n);
        if (!fits_on(job, free_nodes)) continue;
        chosen_.insert(ids.begin(), ids.end());
        return ids;
    }
    return {};
}

void Preemptor::preempt(uint32_t by, const std::vector<uint32_t> &victims) {
    for (uint32_t id : victims) {
        Job *found = jobs_.find(id);
        if (!found) continue;
        // A heterogeneous job's component is preempted with its whole job, through its leader.
        Job *v = &jobs_.het_leader(*found);
        if (!v->running() || v->kill_sent) continue;
        const std::string mode = mode_of(*v);
        if (mode.find("suspend") != std::string::npos) { // its CPUs are free at once
            for (Job *c : jobs_.het_components(*v)) {
                if (c->state != DROVER_JOB_RUNNING) continue;
                waiting_[by].push_back(c->id);
                suspended_for_[c->id] = by;
                jobs_.suspend_job(*c, true);
            }
            continue;
        }
        waiting_[by].push_back(v->id);
        jobs_.mark_preempted(*v, mode == "requeue" && v->requeue, by);
        end(*v);
    }
}

void Preemptor::end(Job &victim) {
    const AssocRec *q = qos_of(ctx_, victim);
    const uint64_t grace = q ? q->limits().grace_s : 0;
    if (grace == 0) return jobs_.send_kill(victim, SIGTERM, true, proto::KillCause::Preempted);
    // GraceTime: SIGTERM now (to the batch shell and every step), the end when it is over.
    jobs_.send_signal(victim, SIGCONT, JobManager::SignalScope::Full);
    jobs_.send_signal(victim, SIGTERM, JobManager::SignalScope::Full);
    auto timer = std::make_unique<boost::asio::steady_timer>(ctx_.io, std::chrono::seconds(grace));
    const uint32_t id = victim.id, run = victim.restart_count;
    timer->async_wait([this, id, run](const boost::system::error_code &ec) {
        grace_->timers.erase(id);
        if (ec) return;
        Job *j = jobs_.find(id);
        if (j && j->running() && j->restart_count == run)
            jobs_.send_kill(*j, SIGKILL, true, proto::KillCause::Preempted);
    });
    grace_->timers[id] = std::move(timer);
}

} // namespace drover::ctld
