// acct_policy.cpp - QOS choice, submit limits and start limits.
#include "ctld/policy/acct_policy.hpp"

#include <algorithm>

#include "common/timefmt.hpp"
#include "ctld/jobs/job.hpp"

namespace drover::ctld::policy {

namespace {

// The limit kinds whose pending reason names the TRES (Slurm's reason strings).
enum Scope { AssocGrp, AssocMaxJob, AssocMaxNode, QosGrp, QosMaxJob, QosMaxNode, QosMaxUser,
             QosMaxAcct, QosMin };

// Columns: cpu, mem, node, billing, gres, license, energy, other.
constexpr const char *kReasons[][8] = {
    {"AssocGrpCpuLimit", "AssocGrpMemLimit", "AssocGrpNodeLimit", "AssocGrpBilling",
     "AssocGrpGRES", "AssocGrpLicense", "AssocGrpEnergy", "AssocGrpUnknown"},
    {"AssocMaxCpuPerJobLimit", "AssocMaxMemPerJob", "AssocMaxNodePerJobLimit",
     "AssocMaxBillingPerJob", "AssocMaxGRESPerJob", "AssocMaxLicensePerJob",
     "AssocMaxEnergyPerJob", "AssocMaxUnknownPerJob"},
    {"AssocMaxCpuPerNode", "AssocMaxMemPerNode", "AssocMaxUnknownPerNode",
     "AssocMaxBillingPerNode", "AssocMaxGRESPerNode", "AssocMaxUnknownPerNode",
     "AssocMaxEnergyPerNode", "AssocMaxUnknownPerNode"},
    {"QOSGrpCpuLimit", "QOSGrpMemLimit", "QOSGrpNodeLimit", "QOSGrpBilling", "QOSGrpGRES",
     "QOSGrpLicense", "QOSGrpEnergy", "QOSGrpUnknown"},
    {"QOSMaxCpuPerJobLimit", "QOSMaxMemoryPerJob", "QOSMaxNodePerJobLimit", "QOSMaxBillingPerJob",
     "QOSMaxGRESPerJob", "QOSMaxLicensePerJob", "QOSMaxEnergyPerJob", "QOSMaxUnknownPerJob"},
    {"QOSMaxCpuPerNode", "QOSMaxMemoryPerNode", "QOSMaxUnknownPerNode", "QOSMaxBillingPerNode",
     "QOSMaxGRESPerNode", "QOSMaxUnknownPerNode", "QOSMaxEnergyPerNode", "QOSMaxUnknownPerNode"},
    {"QOSMaxCpuPerUserLimit", "QOSMaxMemoryPerUser", "QOSMaxNodePerUserLimit",
     "QOSMaxBillingPerUser", "QOSMaxGRESPerUser", "QOSMaxLicensePerUser", "QOSMaxEnergyPerUser",
     "QOSMaxUnknownPerUser"},
    {"MaxCpuPerAccount", "MaxMemoryPerAccount", "MaxNodePerAccount", "MaxBillingPerAccount",
     "MaxGRESPerAccount", "MaxLicensePerAccount", "MaxEnergyPerAccount", "MaxUnknownPerAccount"},
    {"QOSMinCpuNotSatisfied", "QOSMinMemory", "QOSMinNode", "QOSMinBilling", "QOSMinGRES",
     "QOSMinLicense", "QOSMinEnergy", "QOSMinUnknown"},
};

const char *reason(Scope scope, const std::string &tres) {
    int col = tres == "cpu"     ? 0
              : tres == "mem"   ? 1
              : tres == "node"  ? 2
              : tres == "billing" ? 3
              : tres.rfind("gres/", 0) == 0    ? 4
              : tres.rfind("license/", 0) == 0 ? 5
              : tres == "energy" ? 6
                                 : 7;
    return kReasons[scope][col];
}

uint64_t get(const Tres &t, const std::string &name) {
    auto it = t.find(name);
    return it == t.end() ? 0 : it->second;
}

// The first TRES of limits that held + asked would pass (skipping those skip has), or nullptr.
const std::string *over(const Tres &limits, const Tres &held, const Tres &asked,
                        const Tres *skip = nullptr) {
    for (const auto &[name, lim] : limits) {
        if (skip && skip->count(name)) continue;
        if (get(held, name) + get(asked, name) > lim) return &name;
    }
    return nullptr;
}

const std::string *under(const Tres &limits, const Tres &asked) {
    for (const auto &[name, lim] : limits)
        if (get(asked, name) < lim) return &name;
    return nullptr;
}

uint32_t ceil_div(uint64_t a, uint64_t b) {
    return uint32_t(b ? (a + b - 1) / b : a);
}

uint64_t submitted_by(const Job &job) {
    return job.is_array_record() ? std::max<uint64_t>(1, job.array->pending.size()) : 1;
}

bool wall_over(const Job &job, uint64_t lim) {
    return lim != kNoLimit && job.time_limit_min != kInfinite && job.time_limit_min > lim;
}

JobTres running_tres(const Job &j) {
    JobTres t;
    uint64_t cpus = 0, mem = 0, max_cpu = 0, max_mem = 0;
    for (std::size_t i = 0; i < j.nodes.size(); ++i) {
        uint64_t c = i < j.node_cpus.size() ? j.node_cpus[i] : 0, m = job_mem_on(j, i);
        cpus += c;
        mem += m;
        max_cpu = std::max(max_cpu, c);
        max_mem = std::max(max_mem, m);
    }
    t.total = {{"cpu", cpus}, {"node", j.nodes.size()}, {"billing", cpus}};
    t.per_node = {{"cpu", max_cpu}, {"billing", max_cpu}};
    if (mem) {
        t.total["mem"] = mem;
        t.per_node["mem"] = max_mem;
    }
    return t;
}

} // namespace

Enforce Enforce::parse(std::string_view text) {
    Enforce e;
    for (const auto &raw : list_items(text)) {
        std::string item = raw;
        for (char &c : item) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (item == "qos") e.qos = true;
        if (item == "limits" || item == "safe") e.limits = true;
    }
    return e;
}

JobTres job_tres(const Job &j) {
    JobTres t = j.running() ? running_tres(j) : JobTres{};
    uint64_t nodes = std::max(1u, j.min_nodes);
    if (!j.running()) {
        uint64_t cpus = uint64_t(std::max(1u, alloc_tasks(j))) * std::max(1u, j.cpus_per_task);
        cpus = std::max<uint64_t>(cpus, nodes * j.min_cpus_per_node);
        uint64_t mem = j.mem_per_node_mb ? j.mem_per_node_mb * nodes : j.mem_per_cpu_mb * cpus;
        t.total = {{"cpu", cpus}, {"node", nodes}, {"billing", cpus}};
        t.per_node = {{"cpu", ceil_div(cpus, nodes)}, {"billing", ceil_div(cpus, nodes)}};
        if (mem) {
            t.total["mem"] = mem;
            t.per_node["mem"] = ceil_div(mem, nodes);
        }
    }
    const JobExtra &x = j.ext();
    uint64_t gpus = x.gpus ? x.gpus
                    : x.gpus_per_node ? uint64_t(x.gpus_per_node) * nodes
                                      : uint64_t(x.gpus_per_task) * j.num_tasks;
    if (gpus) {
        t.total["gres/gpu"] = gpus;
        t.per_node["gres/gpu"] = x.gpus_per_node ? x.gpus_per_node : ceil_div(gpus, nodes);
    }
    return t;
}

std::vector<const AssocRec *> AcctPolicy::chain(const Job &job) const {
    std::vector<const AssocRec *> out;
    for (const AssocRec *a = db_.job_assoc(cluster_, job.user_name, job.account, job.partition);
         a && out.size() < 64; a = db_.parent(*a))
        out.push_back(a);
    return out;
}

const AssocRec *AcctPolicy::job_qos(const Job &job) const {
    return db_.qos(job.qos.empty() ? "normal" : job.qos);
}

std::string AcctPolicy::choose_qos(Job &job) const {
    if (!active()) return {};
    auto ch = chain(job);
    std::string q = job.qos;
    for (char &c : q) c = char(std::tolower(static_cast<unsigned char>(c)));
    std::vector<std::string> allowed =
        ch.empty() ? std::vector<std::string>{"normal"} : db_.qos_list(*ch.front());
    if (q.empty()) q = ch.empty() ? "" : db_.default_qos(*ch.front());
    if (q.empty()) q = allowed.size() == 1 ? allowed.front() : "normal";
    if (!db_.qos(q)) return kInvalidQos;
    if (enforce_.qos && !ch.empty() && std::find(allowed.begin(), allowed.end(), q) == allowed.end())
        return kInvalidQos;
    job.qos = q;
    return {};
}

std::string AcctPolicy::check_submit(Job &job, const UsageIndex &use, std::string *why) const {
    if (!db_.loaded() || !enforce_.limits) return {};
    const uint64_t n = submitted_by(job);
    auto over_count = [n](uint64_t have, uint64_t lim) { return lim != kNoLimit && have + n > lim; };
    const AssocRec *qrec = job_qos(job);
    const Limits none;
    const Limits &q = qrec ? qrec->limits() : none;
    const std::string qname = qrec ? qrec->name : "normal";
    auto ch = chain(job);
    // The first MaxWall on the path: a job without a time limit gets it as its limit.
    uint64_t wall = q.max_wall;
    for (const AssocRec *a : ch) wall = wall != kNoLimit ? wall : a->limits().max_wall;
    if (wall != kNoLimit && job.time_limit_min == kInfinite) job.time_limit_min = uint32_t(wall);
    const char *r = nullptr;
    if (over_count(use.use(usage_key_qos_user(qname, job.uid)).submitted, q.max_submit_pu))
        r = "QOSMaxSubmitJobPerUserLimit";
    else if (over_count(use.use(usage_key_qos_account(qname, job.account)).submitted,
                        q.max_submit_pa))
        r = "MaxSubmitJobsPerAccount";
    else if (over_count(use.use(usage_key_qos(qname)).submitted, q.grp_submit))
        r = "QOSGrpSubmitJobsLimit";
    else if (wall_over(job, q.max_wall))
        r = "QOSMaxWallDurationPerJobLimit";
    else if (q.deny_on_limit)
        r = job_size_reason(job, q, ch, /*qos_only=*/true);
    for (std::size_t i = 0; !r && i < ch.size(); ++i) {
        const Limits &a = ch[i]->limits();
        const Use &u = use.use(usage_key_assoc(ch[i]->key()));
        if (q.grp_submit == kNoLimit && over_count(u.submitted, a.grp_submit))
            r = "AssocGrpSubmitJobsLimit";
    }
    if (!r && !ch.empty() && q.max_submit_pu == kNoLimit) {
        uint64_t lim = kNoLimit;
        for (const AssocRec *a : ch) lim = lim != kNoLimit ? lim : a->limits().max_submit;
        if (over_count(use.use(usage_key_assoc(ch.front()->key())).submitted, lim))
            r = "AssocMaxSubmitJobLimit";
    }
    if (!r && q.max_wall == kNoLimit && wall_over(job, wall)) r = "AssocMaxWallDurationPerJobLimit";
    if (!r) return {};
    if (why) *why = r;
    return kPolicyRefused;
}

const char *AcctPolicy::job_size_reason(const Job &job, const Limits &q,
                                        const std::vector<const AssocRec *> &ch,
                                        bool qos_only) const {
    JobTres t = job_tres(job);
    if (const auto *x = over(q.max_tres, {}, t.total)) return reason(QosMaxJob, *x);
    if (const auto *x = over(q.max_tres_pn, {}, t.per_node)) return reason(QosMaxNode, *x);
    if (const auto *x = under(q.min_tres, t.total)) return reason(QosMin, *x);
    if (qos_only) {
        // DenyOnLimit treats a Grp limit as a Max limit.
        if (const auto *x = over(q.grp_tres, {}, t.total)) return reason(QosGrp, *x);
        return nullptr;
    }
    // Per TRES, the first association on the path that limits it (unless the QOS does).
    Tres max_job, max_node;
    for (const AssocRec *a : ch) {
        for (const auto &[k, v] : a->limits().max_tres)
            if (!q.max_tres.count(k)) max_job.emplace(k, v);
        for (const auto &[k, v] : a->limits().max_tres_pn)
            if (!q.max_tres_pn.count(k)) max_node.emplace(k, v);
    }
    if (const auto *x = over(max_job, {}, t.total)) return reason(AssocMaxJob, *x);
    if (const auto *x = over(max_node, {}, t.per_node)) return reason(AssocMaxNode, *x);
    return nullptr;
}

const char *AcctPolicy::check_start(const Job &job, const UsageIndex &use) const {
    if (!db_.loaded() || !enforce_.limits) return nullptr;
    const AssocRec *qrec = job_qos(job);
    const Limits none;
    const Limits &q = qrec ? qrec->limits() : none;
    const std::string qname = qrec ? qrec->name : "normal";
    const JobTres t = job_tres(job);
    const Use &qu = use.use(usage_key_qos(qname));
    const Use &quser = use.use(usage_key_qos_user(qname, job.uid));
    const Use &qacct = use.use(usage_key_qos_account(qname, job.account));
    auto ch = chain(job);
    if (q.grp_jobs != kNoLimit && qu.running >= q.grp_jobs) return "QOSGrpJobsLimit";
    if (const auto *x = over(q.grp_tres, qu.tres, t.total)) return reason(QosGrp, *x);
    if (const char *r = job_size_reason(job, q, ch, false)) return r;
    if (const auto *x = over(q.max_tres_pu, quser.tres, t.total)) return reason(QosMaxUser, *x);
    if (const auto *x = over(q.max_tres_pa, qacct.tres, t.total)) return reason(QosMaxAcct, *x);
    if (q.max_jobs_pa != kNoLimit && qacct.running >= q.max_jobs_pa) return "MaxJobsPerAccount";
    if (q.max_jobs_pu != kNoLimit && quser.running >= q.max_jobs_pu)
        return "QOSMaxJobsPerUserLimit";
    if (wall_over(job, q.max_wall)) return "QOSMaxWallDurationPerJobLimit";
    return assoc_start_reason(job, q, ch, t, use);
}

const char *AcctPolicy::assoc_start_reason(const Job &job, const Limits &q,
                                           const std::vector<const AssocRec *> &ch,
                                           const JobTres &t, const UsageIndex &use) const {
    uint64_t max_jobs = kNoLimit, max_wall = kNoLimit;
    for (const AssocRec *a : ch) {
        const Limits &l = a->limits();
        const Use &u = use.use(usage_key_assoc(a->key()));
        if (q.grp_jobs == kNoLimit && l.grp_jobs != kNoLimit && u.running >= l.grp_jobs)
            return "AssocGrpJobsLimit";
        if (const auto *x = over(l.grp_tres, u.tres, t.total, &q.grp_tres))
            return reason(AssocGrp, *x);
        max_jobs = max_jobs != kNoLimit ? max_jobs : l.max_jobs;
        max_wall = max_wall != kNoLimit ? max_wall : l.max_wall;
    }
    if (!ch.empty() && q.max_jobs_pu == kNoLimit && max_jobs != kNoLimit &&
        use.use(usage_key_assoc(ch.front()->key())).running >= max_jobs)
        return "AssocMaxJobsLimit";
    if (q.max_wall == kNoLimit && wall_over(job, max_wall)) return "AssocMaxWallDurationPerJobLimit";
    return nullptr;
}

Share AcctPolicy::share_of(const Job &job) const {
    Share s;
    if (!active() || job.finished()) return s;
    for (const AssocRec *a : chain(job)) s.keys.push_back(usage_key_assoc(a->key()));
    const std::string q = job.qos.empty() ? "normal" : job.qos;
    s.keys.push_back(usage_key_qos(q));
    s.keys.push_back(usage_key_qos_user(q, job.uid));
    s.keys.push_back(usage_key_qos_account(q, job.account));
    s.submitted = job.running() ? 1 : submitted_by(job);
    s.running = job.running();
    if (s.running) s.tres = job_tres(job).total;
    return s;
}

} // namespace drover::ctld::policy
