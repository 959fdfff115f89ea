// priorities.cpp - Priorities: usage charged, decayed and kept; the tree ranked; pending jobs'
// priorities set from it every PriorityCalcPeriod.
#include "ctld/sched/priorities_impl.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/gres.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_codec.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/policy/acct_policy.hpp"
#include "ctld/policy/job_qos.hpp"
#include "ctld/jobs/partition_list.hpp"
#include "ctld/store/committer.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

state::Bytes bytes(const std::vector<uint8_t> &v) {
    return {v.data(), v.size()};
}

} // namespace

Priorities::Impl::Impl(Ctx &c, NodeManager &n, JobManager &j)
    : ctx(c), nodes(n), jobs(j), calls(c.plugins.priority_calls()), timer(c.io) {}

Priorities::Priorities(Ctx &ctx, NodeManager &nodes, JobManager &jobs)
    : impl_(std::make_unique<Impl>(ctx, nodes, jobs)) {
    if (!impl_->calls) return;
    jobs.set_priority_source([this](const Job &job) { return priority_of(job); });
    ctx.events.assocs_changed.subscribe([this] { impl_->rebuild_and_rank(); });
    ctx.events.job_ended.subscribe([this](const Job &job) {
        impl_->charge_end(job, job.end_time ? job.end_time : Ctx::now());
    });
}

Priorities::~Priorities() = default;

void Priorities::start() {
    auto &m = *impl_;
    if (!m.calls) return;
    std::size_t bad = 0;
    const auto prefix = policy::UsageLedger::record_key("");
    m.ctx.store.scan_from(state::Table::Meta, bytes(prefix), [&](state::Bytes k, state::Bytes v) {
        if (k.size() < prefix.size() || !std::equal(prefix.begin(), prefix.end(), k.begin()))
            return false;
        bad += !m.ledger.load(k, v);
        return true;
    });
    const auto clock = policy::UsageLedger::clock_key();
    if (auto v = m.ctx.store.get(state::Table::Meta, bytes(clock)))
        bad += !m.ledger.load(clock, *v);
    if (bad) spdlog::error("{} usage record(s) in the state store do not decode; skipped", bad);
    m.tick(true);
}

std::optional<uint32_t> Priorities::priority_of(const Job &job) {
    auto &m = *impl_;
    if (!m.calls) return std::nullopt;
    Impl::Lookups seen;
    return m.compute(job, nullptr, seen);
}

void Priorities::Impl::tick(bool starting) {
    const int64_t now = Ctx::now();
    // What running jobs used since the last tick (from their start after a first start).
    std::vector<std::pair<std::vector<std::string>, double>> due;
    for (Job *j : jobs.running()) {
        if (j->state == DROVER_JOB_SUSPENDED) continue; // it uses no CPUs meanwhile
        const int64_t from = std::max(j->start_time, ledger.tick());
        std::vector<std::string> keys;
        if (double rate = charge_rate(*j, &keys); rate > 0 && now > from)
            due.emplace_back(std::move(keys), rate * double(now - from));
    }
    ledger.decay(now, ctx.conf.priority_decay_half_life_s);
    for (const auto &[keys, amount] : due) ledger.charge(keys, amount);
    std::vector<std::string> cleared;
    if (ledger.reset_if_due(now, ctx.conf.priority_usage_reset_period, starting, &cleared)) {
        spdlog::info("usage reset (PriorityUsageResetPeriod={})",
                     ctx.conf.priority_usage_reset_period);
        for (const auto &k : cleared)
            ctx.commit.txn().del(state::Table::Meta, bytes(policy::UsageLedger::record_key(k)));
    }
    save_all();
    rebuild_and_rank();
    reprioritise();
    timer.expires_after(
        std::chrono::seconds(std::max<uint64_t>(1, ctx.conf.priority_calc_period_s)));
    timer.async_wait([this](const boost::system::error_code &ec) {
        if (!ec) tick(false);
    });
}

void Priorities::Impl::save(const std::string &assoc_key) {
    ctx.commit.txn().put(state::Table::Meta, bytes(policy::UsageLedger::record_key(assoc_key)),
                         bytes(policy::UsageLedger::encode_usage(ledger.usage(assoc_key))));
}

void Priorities::Impl::save_all() {
    for (const auto &[k, u] : ledger.all()) save(k);
    ctx.commit.txn().put(state::Table::Meta, bytes(policy::UsageLedger::clock_key()),
                         bytes(ledger.encode_clock()));
}

void Priorities::Impl::rebuild_and_rank() {
    tree = policy::FsTree(ctx.acct.assocs(), ctx.conf.cluster_name, ledger);
    totals = cluster();
    if (tree.nodes().empty() || !calls) return;
    if (Status s = calls.fairshare(tree.nodes()); !s.ok())
        spdlog::error("fair-share not ranked: {}", s.text());
}

double Priorities::Impl::charge_rate(const Job &job, std::vector<std::string> *keys) const {
    const auto &db = ctx.acct.assocs();
    const auto *a = db.job_assoc(ctx.conf.cluster_name, job.user_name, job.account, job.partition);
    if (!a) return 0;
    for (const AssocRec *r = a; r; r = db.parent(*r)) keys->push_back(r->key());
    const auto *q = db.qos(policy::job_qos(job));
    return double(job.alloc_cpus) * (q ? q->limits().usage_factor : 1.0);
}

void Priorities::Impl::charge_end(const Job &job, int64_t until) {
    const int64_t from = std::max(job.start_time, ledger.tick());
    if (job.start_time == 0 || until <= from) return;
    std::vector<std::string> keys;
    const double rate = charge_rate(job, &keys);
    if (rate <= 0) return;
    ledger.charge(keys, rate * double(until - from));
    for (const auto &k : keys) save(k);
}

drover_priority_cluster Priorities::Impl::cluster() const {
    drover_priority_cluster c{};
    c.struct_size = sizeof c;
    c.now = Ctx::now();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const NodeConf &n = *nodes.at(uint32_t(i)).conf;
        c.nodes += 1;
        c.cpus += n.cpus;
        c.mem_mb += n.real_memory_mb;
        try {
            for (const auto &g : parse_node_gres(n.gres.get()))
                if (g.name == "gpu") c.gpus += g.count;
        } catch (const std::exception &) {}
    }
    for (const auto *q : ctx.acct.assocs().all(DROVER_ACCT_QOS))
        c.max_qos_priority = std::max<uint32_t>(
            c.max_qos_priority, uint32_t(std::min<uint64_t>(q->limits().priority, 0xffffffffu)));
    c.max_assoc_priority = tree.max_priority();
    c.max_partition_factor = 1;
    for (const auto &p : ctx.conf.partitions)
        c.max_partition_factor = std::max(c.max_partition_factor, p.priority_job_factor);
    return c;
}

uint32_t Priorities::Impl::compute(const Job &job, drover_priority_factors *out,
                                   Lookups &seen) const {
    const auto &db = ctx.acct.assocs();
    drover_job_view view = codec::job_view(job);
    drover_priority_job in{};
    in.struct_size = sizeof in;
    in.job = &view;
    const std::string &part = job.partition; // one name: submission keeps the first of a list
    auto a = seen.assoc.find({job.user_name, job.account, part});
    if (a == seen.assoc.end()) {
        const auto *rec = db.job_assoc(ctx.conf.cluster_name, job.user_name, job.account, part);
        a = seen.assoc
                .emplace(Who{job.user_name, job.account, part},
                         rec ? tree.index(rec->key()) : DROVER_NO_VAL)
                .first;
    }
    in.assoc = a->second;
    // Age counts from when the job could run: not while it waits on a dependency or is held.
    const bool waiting = job.reason == "Dependency" || job.hold != Hold::None;
    in.eligible_time = waiting ? 0 : std::max(job.submit_time, job.eligible_time);
    const std::string_view qos = policy::job_qos(job);
    auto q = seen.qos.find(qos);
    if (q == seen.qos.end()) {
        const auto *rec = db.qos(qos);
        const uint64_t prio = rec ? rec->limits().priority : 0;
        q = seen.qos.emplace(qos, uint32_t(std::min<uint64_t>(prio, 0xffffffffu))).first;
    }
    in.qos_priority = q->second;
    auto p = seen.part.find(part);
    if (p == seen.part.end()) {
        // -p a,b: the highest factor of its partitions.
        std::optional<uint32_t> factor;
        for (const auto &name : partition_names(part))
            if (const Partition *pt = nodes.partition(name); pt && pt->conf)
                factor = std::max(factor.value_or(0), pt->conf->priority_job_factor);
        p = seen.part.emplace(part, factor.value_or(1)).first;
    }
    in.partition_factor = p->second;
    const policy::JobSize size = policy::job_size(job);
    in.cpus = size.cpus;
    in.nodes = size.nodes;
    in.mem_mb = size.mem_mb;
    in.gpus = size.gpus;
    drover_priority_cluster c = totals;
    c.now = seen.now;
    return calls.job_priority(c, tree.nodes(), in, out);
}

void Priorities::Impl::reprioritise() {
    Lookups seen;
    bool changed = false;
    for (Job *j : jobs.pending()) {
        if (j->priority == 0 || (j->state_flags & DROVER_JOB_FLAG_PRIO_SET)) continue;
        uint32_t p = compute(*j, nullptr, seen);
        if (p != j->priority) {
            jobs.set_priority(*j, p);
            changed = true;
        }
    }
    if (changed) ctx.events.queue_changed.publish();
}

} // namespace drover::ctld
