// priority_routes.cpp - sprio (PriorityFactorsRequest) and sshare (ShareRequest): pending jobs'
// factors against the last ranking of the tree (computed when asked: a pass keeps none), and the
// ranked fair-share tree.
#include <algorithm>
#include <cmath>
#include <set>

#include "ctld/jobs/job_mgr.hpp"
#include "ctld/policy/job_qos.hpp"
#include "ctld/policy/settings.hpp"
#include "ctld/privacy.hpp"
#include "ctld/sched/priorities_impl.hpp"
#include "proto/fb_read.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

namespace {

using Req = std::shared_ptr<net::Request>;
using Resp = net::ResponderPtr;
using FactorsOffset = flatbuffers::Offset<proto::PriorityFactors>;

constexpr const char *kTresNames[DROVER_PRIORITY_TRES_COUNT] = {"cpu", "mem", "node", "gres/gpu"};

FactorsOffset write_factors(flatbuffers::FlatBufferBuilder &fbb, const drover_priority_factors &f,
                            const drover_priority_factors &weights) {
    std::vector<flatbuffers::Offset<proto::TresFactor>> tres;
    for (int t = 0; t < DROVER_PRIORITY_TRES_COUNT; ++t)
        if (weights.tres[t] != 0)
            tres.push_back(proto::CreateTresFactorDirect(fbb, kTresNames[t], f.tres[t]));
    auto tv = fbb.CreateVector(tres);
    return proto::CreatePriorityFactors(fbb, f.age, f.assoc, f.fairshare, f.job_size, f.partition,
                                        f.qos, f.site, f.nice, tv);
}

template <class T>
bool listed(const flatbuffers::Vector<T> *v, T x) {
    return !v || v->size() == 0 || std::find(v->begin(), v->end(), x) != v->end();
}

bool listed_partition(const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *v,
                      const std::string &partitions) {
    if (!v || v->size() == 0) return true;
    for (const auto *p : *v)
        for (std::size_t at = 0; at <= partitions.size();) {
            std::size_t comma = std::min(partitions.find(',', at), partitions.size());
            if (partitions.compare(at, comma - at, p->string_view()) == 0) return true;
            at = comma + 1;
        }
    return false;
}

std::set<std::string>
names(const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *v) {
    std::set<std::string> out;
    if (v)
        for (const auto *s : *v) out.insert(s->str());
    return out;
}

// sshare's TRESRunMins: the TRES-minutes the association's running jobs may still use by their
// time limits (counted under AccountingStorageEnforce=limits), every TRES Slurm lists by default.
std::string run_minutes_text(const policy::UsageIndex &use, const AssocRec *rec, int64_t now) {
    policy::Tres t = {{"cpu", 0},     {"mem", 0},     {"energy", 0}, {"node", 0},
                      {"billing", 0}, {"fs/disk", 0}, {"vmem", 0},   {"pages", 0}};
    if (rec)
        for (const auto &[name, mins] :
             policy::run_minutes(use.use(policy::usage_key_assoc(rec->key())), uint64_t(now) / 60))
            t[name] = mins;
    return policy::tres_text(t);
}

std::string priority_type(const Ctx &ctx) {
    return ctx.conf.priority_type.empty() ? "priority/basic" : ctx.conf.priority_type;
}

void priority_factors_reply(Priorities::Impl &m, const Req &q, const Resp &resp) {
    const auto *r = q->msg->body_as_PriorityFactorsRequest();
    const Viewer viewer(m.ctx, q->peer.uid);
    const drover_priority_factors w = m.calls.weights();
    flatbuffers::FlatBufferBuilder fbb(4096);
    std::vector<flatbuffers::Offset<proto::JobPriority>> rows;
    Priorities::Impl::Lookups seen;
    for (Job *j : m.jobs.pending()) {
        // Held jobs, and those whose priority an administrator set, have no factors (as Slurm).
        if (!m.calls || j->priority == 0 || (j->state_flags & DROVER_JOB_FLAG_PRIO_SET) ||
            !viewer.sees_job(*j))
            continue;
        if (!listed(r->job_ids(), j->id) || !listed(r->user_ids(), j->uid) ||
            !listed_partition(r->partitions(), j->partition))
            continue;
        // The factors now (the priority is the last pass's: age may have moved on since).
        drover_priority_factors f{};
        (void)m.compute(*j, &f, seen);
        auto fo = write_factors(fbb, f, w);
        rows.push_back(proto::CreateJobPriorityDirect(
            fbb, j->id, j->uid, j->user_name.c_str(), j->account.c_str(), j->partition.c_str(),
            std::string(policy::job_qos(*j)).c_str(), j->priority, fo));
    }
    auto wo = write_factors(fbb, w, w);
    auto body =
        proto::CreatePriorityFactorsResponseDirect(fbb, priority_type(m.ctx).c_str(), wo, &rows);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::PriorityFactorsResponse, body.Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

// Which rows of the tree sshare shows: account rows (those named with -A, and what is under
// them), user rows of the users named (-u), of all users (-a) or of the caller; with
// PrivateData=usage, a user sees only its own user rows.
struct ShareFilter {
    std::set<std::string> accounts, users;
    bool all_users = false, sees_others = true;
    std::string me;

    bool under_listed(const policy::FsTree &t, uint32_t i) const {
        if (accounts.empty()) return true;
        for (; i < t.nodes().size(); i = t.nodes()[i].parent)
            if (accounts.count(std::string(t.nodes()[i].account.ptr, t.nodes()[i].account.len)))
                return true;
        return false;
    }
    bool shows(const policy::FsTree &t, uint32_t i) const {
        const auto &a = t.nodes()[i];
        if (!under_listed(t, i)) return false;
        if (a.user.len == 0) return true;
        std::string user(a.user.ptr, a.user.len);
        if (!sees_others && user != me) return false;
        return all_users || users.count(user) || (users.empty() && user == me);
    }
};

void share_reply(Priorities::Impl &m, const Req &q, const Resp &resp) {
    const auto *r = q->msg->body_as_ShareRequest();
    ShareFilter filter{names(r->accounts()), names(r->users()), r->all_users(),
                       Viewer(m.ctx, q->peer.uid).sees_usage(), user_name_of(q->peer.uid)};
    if (!m.calls) m.rebuild_and_rank(); // priority/basic: the tree with its shares, unranked
    const auto &t = m.tree;
    flatbuffers::FlatBufferBuilder fbb(4096);
    std::vector<flatbuffers::Offset<proto::ShareRow>> rows;
    for (uint32_t i = 0; i < t.nodes().size(); ++i) {
        if (!filter.shows(t, i)) continue;
        const auto &a = t.nodes()[i];
        const AssocRec *rec = t.rec(i);
        policy::Settings s = rec ? rec->settings() : policy::Settings{};
        auto grp = s.count("grptresmins") ? policy::display(s, "grptresmins", policy::Owner::Assoc)
                                          : std::string();
        rows.push_back(proto::CreateShareRowDirect(
            fbb, m.ctx.conf.cluster_name.c_str(), std::string(a.account.ptr, a.account.len).c_str(),
            std::string(a.user.ptr, a.user.len).c_str(), rec ? rec->partition.c_str() : "",
            t.depth(i), a.shares_raw, a.shares_norm, a.usage_raw, a.usage_norm, a.usage_eff,
            a.fairshare, a.level_fs, grp.c_str(),
            run_minutes_text(m.jobs.usage(), rec, Ctx::now()).c_str()));
    }
    auto body = proto::CreateShareResponseDirect(fbb, priority_type(m.ctx).c_str(),
                                                 m.calls.fair_tree(), &rows);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ShareResponse, body.Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace

net::Routes Priorities::routes() {
    return {
        {proto::Body::PriorityFactorsRequest, net::Caller::Anyone,
         [this](const Req &q, const Resp &r) { priority_factors_reply(*impl_, q, r); }},
        {proto::Body::ShareRequest, net::Caller::Anyone,
         [this](const Req &q, const Resp &r) { share_reply(*impl_, q, r); }},
    };
}

} // namespace drover::ctld
