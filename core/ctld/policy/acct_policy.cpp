// acct_policy.cpp - QOS choice, submit limits and start limits.
#include "ctld/policy/acct_policy.hpp"
#include "ctld/policy/job_qos.hpp"

#include <algorithm>
#include <map>

#include "common/ascii.hpp"
#include "common/error.hpp"
#include "common/licenses.hpp"
#include "common/timefmt.hpp"
#include "ctld/jobs/job.hpp"

namespace drover::ctld::policy {

namespace {

// The limit kinds whose pending reason names the TRES (Slurm's reason strings).
enum Scope {
    AssocGrp,
    AssocMaxJob,
    AssocMaxNode,
    QosGrp,
    QosMaxJob,
    QosMaxNode,
    QosMaxUser,
    QosMaxAcct,
    QosMin,
    AssocMaxMins,
    QosMaxMins,
    AssocGrpRunMins,
    QosGrpRunMins
};

// Columns: cpu, mem, node, billing, gres, license, energy, other.
constexpr const char *kReasons[][8] = {
    {"AssocGrpCpuLimit", "AssocGrpMemLimit", "AssocGrpNodeLimit", "AssocGrpBilling", "AssocGrpGRES",
     "AssocGrpLicense", "AssocGrpEnergy", "AssocGrpUnknown"},
    {"AssocMaxCpuPerJobLimit", "AssocMaxMemPerJob", "AssocMaxNodePerJobLimit",
     "AssocMaxBillingPerJob", "AssocMaxGRESPerJob", "AssocMaxLicensePerJob", "AssocMaxEnergyPerJob",
     "AssocMaxUnknownPerJob"},
    {"AssocMaxCpuPerNode", "AssocMaxMemPerNode", "AssocMaxUnknownPerNode", "AssocMaxBillingPerNode",
     "AssocMaxGRESPerNode", "AssocMaxUnknownPerNode", "AssocMaxEnergyPerNode",
     "AssocMaxUnknownPerNode"},
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
    {"AssocMaxCpuMinutesPerJobLimit", "AssocMaxMemMinutesPerJob", "AssocMaxNodeMinutesPerJob",
     "AssocMaxBillingMinutesPerJob", "AssocMaxGRESMinutesPerJob", "AssocMaxLicenseMinutesPerJob",
     "AssocMaxEnergyMinutesPerJob", "AssocMaxUnknownMinutesPerJob"},
    {"QOSMaxCpuMinutesPerJobLimit", "QOSMaxMemoryMinutesPerJob", "QOSMaxNodeMinutesPerJob",
     "QOSMaxBillingMinutesPerJob", "QOSMaxGRESMinutesPerJob", "QOSMaxLicenseMinutesPerJob",
     "QOSMaxEnergyMinutesPerJob", "QOSMaxUnknownMinutesPerJob"},
    {"AssocGrpCPURunMinutesLimit", "AssocGrpMemRunMinutes", "AssocGrpNodeRunMinutes",
     "AssocGrpBillingRunMinutes", "AssocGrpGRESRunMinutes", "AssocGrpLicenseRunMinutes",
     "AssocGrpEnergyRunMinutes", "AssocGrpUnknownRunMinutes"},
    {"QOSGrpCPURunMinutesLimit", "QOSGrpMemoryRunMinutes", "QOSGrpNodeRunMinutes",
     "QOSGrpBillingRunMinutes", "QOSGrpGRESRunMinutes", "QOSGrpLicenseRunMinutes",
     "QOSGrpEnergyRunMinutes", "QOSGrpUnknownRunMinutes"},
};

const char *reason(Scope scope, const std::string &tres) {
    int col = tres == "cpu"                    ? 0
              : tres == "mem"                  ? 1
              : tres == "node"                 ? 2
              : tres == "billing"              ? 3
              : tres.rfind("gres/", 0) == 0    ? 4
              : tres.rfind("license/", 0) == 0 ? 5
              : tres == "energy"               ? 6
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

// What a job asks for times its time limit (nothing without one): TRES-minutes.
Tres tres_minutes(const Job &job, const Tres &asked) {
    Tres out;
    if (job.time_limit_min != kInfinite)
        for (const auto &[k, v] : asked) out[k] = v * job.time_limit_min;
    return out;
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

// A running job's TRES: what it holds over all its nodes (size), and on its largest node.
JobTres running_tres(const Job &j, const JobSize &size) {
    JobTres t;
    uint64_t max_cpu = 0, max_mem = 0;
    for (std::size_t i = 0; i < j.nodes.size(); ++i) {
        max_cpu = std::max<uint64_t>(max_cpu, i < j.node_cpus.size() ? j.node_cpus[i] : 0);
        max_mem = std::max(max_mem, job_mem_on(j, i));
    }
    t.total = {{"cpu", size.cpus}, {"node", size.nodes}, {"billing", size.cpus}};
    t.per_node = {{"cpu", max_cpu}, {"billing", max_cpu}};
    if (size.mem_mb) {
        t.total["mem"] = size.mem_mb;
        t.per_node["mem"] = max_mem;
    }
    return t;
}

} // namespace

JobSize job_size(const Job &j) {
    JobSize s;
    const uint64_t asked_nodes = std::max(1u, j.min_nodes);
    if (j.running()) {
        for (std::size_t i = 0; i < j.nodes.size(); ++i) {
            s.cpus += i < j.node_cpus.size() ? j.node_cpus[i] : 0;
            s.mem_mb += job_mem_on(j, i);
        }
        s.nodes = j.nodes.size();
    } else {
        s.nodes = asked_nodes;
        s.cpus = uint64_t(std::max(1u, alloc_tasks(j))) * std::max(1u, j.cpus_per_task);
        s.cpus = std::max<uint64_t>(s.cpus, s.nodes * j.min_cpus_per_node);
        s.mem_mb = j.mem_per_node_mb ? j.mem_per_node_mb * s.nodes : j.mem_per_cpu_mb * s.cpus;
    }
    const JobExtra &x = j.ext();
    s.gpus = x.gpus            ? x.gpus
             : x.gpus_per_node ? uint64_t(x.gpus_per_node) * asked_nodes
                               : uint64_t(x.gpus_per_task) * j.num_tasks;
    return s;
}

JobTres job_tres(const Job &j) {
    const JobSize s = job_size(j);
    JobTres t = j.running() ? running_tres(j, s) : JobTres{};
    if (!j.running()) {
        t.total = {{"cpu", s.cpus}, {"node", s.nodes}, {"billing", s.cpus}};
        t.per_node = {{"cpu", ceil_div(s.cpus, s.nodes)}, {"billing", ceil_div(s.cpus, s.nodes)}};
        if (s.mem_mb) {
            t.total["mem"] = s.mem_mb;
            t.per_node["mem"] = ceil_div(s.mem_mb, s.nodes);
        }
    }
    const JobExtra &x = j.ext();
    if (!x.licenses.empty()) try {
            for (const auto &l : parse_licenses(x.licenses))
                t.total["license/" + l.name] += l.count;
        } catch (const ParseError &) {}
    if (s.gpus) {
        t.total["gres/gpu"] = s.gpus;
        t.per_node["gres/gpu"] =
            x.gpus_per_node ? x.gpus_per_node : ceil_div(s.gpus, std::max(1u, j.min_nodes));
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

std::vector<const AssocRec *> AcctPolicy::qos_path(const Job &job) const {
    const AssocRec *mine = db_.qos(job_qos(job));
    const AssocRec *part = nullptr;
    if (part_qos_)
        if (std::string name = part_qos_(job.partition); !name.empty()) part = db_.qos(name);
    std::vector<const AssocRec *> out;
    // The partition's QOS comes first unless the job's has OverPartQOS.
    bool over = mine && mine->limits().over_part_qos;
    const AssocRec *order[] = {over ? mine : part, over ? part : mine};
    for (const AssocRec *q : order)
        if (q && (out.empty() || out.front() != q)) out.push_back(q);
    return out;
}

std::string AcctPolicy::choose_qos(Job &job) const {
    if (!active()) return {};
    auto ch = chain(job);
    std::string q = ascii_lower(job.qos);
    std::vector<std::string> allowed =
        ch.empty() ? std::vector<std::string>{"normal"} : db_.qos_list(*ch.front());
    if (q.empty()) q = ch.empty() ? "" : db_.default_qos(*ch.front());
    if (q.empty()) q = allowed.size() == 1 ? allowed.front() : "normal";
    if (!db_.qos(q)) return kInvalidQos;
    if (enforce_.qos && !ch.empty() &&
        std::find(allowed.begin(), allowed.end(), q) == allowed.end())
        return kInvalidQos;
    job.qos = q;
    return {};
}

namespace {

// The first value along the QOS path, then the associations, that is set (kNoLimit: none), and
// whether a QOS gave it (the index into qos, or -1).
struct Found {
    uint64_t value = kNoLimit;
    int qos = -1;
};
Found first(const std::vector<const AssocRec *> &qos, uint64_t Limits::*qf,
            const std::vector<const AssocRec *> &assocs, uint64_t Limits::*af) {
    for (std::size_t i = 0; i < qos.size(); ++i)
        if (qos[i]->limits().*qf != kNoLimit) return {qos[i]->limits().*qf, int(i)};
    if (af)
        for (const AssocRec *a : assocs)
            if (a->limits().*af != kNoLimit) return {a->limits().*af, -1};
    return {};
}

// Per TRES, the first limit along the QOS path (with the QOS it came from).
struct TresFound {
    Tres limits;
    std::map<std::string, std::string> from; // TRES -> QOS name
};
TresFound first_tres(const std::vector<const AssocRec *> &qos, Tres Limits::*f) {
    TresFound out;
    for (const AssocRec *q : qos)
        for (const auto &[k, v] : q->limits().*f)
            if (out.limits.emplace(k, v).second) out.from[k] = q->name;
    return out;
}

} // namespace

std::string AcctPolicy::check_submit(Job &job, const UsageIndex &use, std::string *why) const {
    if (!db_.loaded() || !enforce_.limits) return {};
    const uint64_t n = submitted_by(job);
    auto over_count = [n](uint64_t have, uint64_t lim) {
        return lim != kNoLimit && have + n > lim;
    };
    const auto qos = qos_path(job);
    const auto ch = chain(job);
    // The MaxWall in force: a job without a time limit gets it as its limit.
    Found wall = first(qos, &Limits::max_wall, ch, &Limits::max_wall);
    if (wall.value != kNoLimit && job.time_limit_min == kInfinite)
        job.time_limit_min = uint32_t(wall.value);
    const char *r = nullptr;
    Found pu = first(qos, &Limits::max_submit_pu, ch, &Limits::max_submit);
    Found pa = first(qos, &Limits::max_submit_pa, ch, nullptr);
    if (pu.qos >= 0 &&
        over_count(use.use(usage_key_qos_user(qos[pu.qos]->name, job.uid)).submitted, pu.value))
        r = "QOSMaxSubmitJobPerUserLimit";
    else if (pu.qos < 0 && !ch.empty() &&
             over_count(use.use(usage_key_assoc(ch.front()->key())).submitted, pu.value))
        r = "AssocMaxSubmitJobLimit";
    else if (pa.qos >= 0 &&
             over_count(use.use(usage_key_qos_account(qos[pa.qos]->name, job.account)).submitted,
                        pa.value))
        r = "MaxSubmitJobsPerAccount";
    else if (wall_over(job, wall.value))
        r = wall.qos >= 0 ? "QOSMaxWallDurationPerJobLimit" : "AssocMaxWallDurationPerJobLimit";
    bool qos_grp = false;
    for (const AssocRec *q : qos) {
        qos_grp = qos_grp || q->limits().grp_submit != kNoLimit;
        if (!r && over_count(use.use(usage_key_qos(q->name)).submitted, q->limits().grp_submit))
            r = "QOSGrpSubmitJobsLimit";
        if (!r && q->limits().deny_on_limit) r = job_size_reason(job, qos, ch, /*qos_only=*/true);
    }
    for (std::size_t i = 0; !r && !qos_grp && i < ch.size(); ++i)
        if (over_count(use.use(usage_key_assoc(ch[i]->key())).submitted,
                       ch[i]->limits().grp_submit))
            r = "AssocGrpSubmitJobsLimit";
    if (!r) return {};
    if (why) *why = r;
    return kPolicyRefused;
}

const char *AcctPolicy::job_size_reason(const Job &job, const std::vector<const AssocRec *> &qos,
                                        const std::vector<const AssocRec *> &ch,
                                        bool qos_only) const {
    JobTres t = job_tres(job);
    TresFound max_job = first_tres(qos, &Limits::max_tres),
              max_node = first_tres(qos, &Limits::max_tres_pn);
    if (const auto *x = over(max_job.limits, {}, t.total)) return reason(QosMaxJob, *x);
    if (const auto *x = over(max_node.limits, {}, t.per_node)) return reason(QosMaxNode, *x);
    // (x points into the limits it is given: they must outlive it.)
    const TresFound min_job = first_tres(qos, &Limits::min_tres);
    if (const auto *x = under(min_job.limits, t.total)) return reason(QosMin, *x);
    // MaxTRESMins: what the job asks for times its time limit (a job without one is not held).
    const Tres mins = tres_minutes(job, t.total);
    TresFound max_mins = first_tres(qos, &Limits::max_tres_mins);
    if (const auto *x = over(max_mins.limits, {}, mins)) return reason(QosMaxMins, *x);
    if (qos_only) {
        // DenyOnLimit treats a Grp limit as a Max limit.
        for (const AssocRec *q : qos)
            if (const auto *x = over(q->limits().grp_tres, {}, t.total)) return reason(QosGrp, *x);
        return nullptr;
    }
    // Per TRES, the first association on the path that limits it (unless a QOS does).
    Tres assoc_job, assoc_node, assoc_mins;
    for (const AssocRec *a : ch) {
        for (const auto &[k, v] : a->limits().max_tres)
            if (!max_job.limits.count(k)) assoc_job.emplace(k, v);
        for (const auto &[k, v] : a->limits().max_tres_pn)
            if (!max_node.limits.count(k)) assoc_node.emplace(k, v);
        for (const auto &[k, v] : a->limits().max_tres_mins)
            if (!max_mins.limits.count(k)) assoc_mins.emplace(k, v);
    }
    if (const auto *x = over(assoc_job, {}, t.total)) return reason(AssocMaxJob, *x);
    if (const auto *x = over(assoc_node, {}, t.per_node)) return reason(AssocMaxNode, *x);
    if (const auto *x = over(assoc_mins, {}, mins)) return reason(AssocMaxMins, *x);
    return nullptr;
}

const char *AcctPolicy::check_start(const Job &job, const UsageIndex &use, int64_t now) const {
    if (!db_.loaded() || !enforce_.limits) return nullptr;
    const auto qos = qos_path(job);
    const auto ch = chain(job);
    const JobTres t = job_tres(job);
    const Tres mins = tres_minutes(job, t.total);
    const uint64_t now_min = uint64_t(std::max<int64_t>(now, 0)) / 60;
    for (const AssocRec *q : qos) {
        const Limits &l = q->limits();
        const Use &u = use.use(usage_key_qos(q->name));
        if (l.grp_jobs != kNoLimit && u.running >= l.grp_jobs) return "QOSGrpJobsLimit";
        if (const auto *x = over(l.grp_tres, u.tres, t.total)) return reason(QosGrp, *x);
        if (!l.grp_tres_run_mins.empty())
            if (const auto *x = over(l.grp_tres_run_mins, run_minutes(u, now_min), mins))
                return reason(QosGrpRunMins, *x);
    }
    if (const char *r = job_size_reason(job, qos, ch, false)) return r;
    TresFound pu = first_tres(qos, &Limits::max_tres_pu),
              pa = first_tres(qos, &Limits::max_tres_pa);
    for (const auto &[k, lim] : pu.limits)
        if (over({{k, lim}}, use.use(usage_key_qos_user(pu.from[k], job.uid)).tres, t.total))
            return reason(QosMaxUser, k);
    for (const auto &[k, lim] : pa.limits)
        if (over({{k, lim}}, use.use(usage_key_qos_account(pa.from[k], job.account)).tres, t.total))
            return reason(QosMaxAcct, k);
    Found ja = first(qos, &Limits::max_jobs_pa, ch, nullptr);
    if (ja.qos >= 0 &&
        use.use(usage_key_qos_account(qos[ja.qos]->name, job.account)).running >= ja.value)
        return "MaxJobsPerAccount";
    Found ju = first(qos, &Limits::max_jobs_pu, ch, &Limits::max_jobs);
    if (ju.qos >= 0 && use.use(usage_key_qos_user(qos[ju.qos]->name, job.uid)).running >= ju.value)
        return "QOSMaxJobsPerUserLimit";
    if (ju.qos < 0 && ju.value != kNoLimit && !ch.empty() &&
        use.use(usage_key_assoc(ch.front()->key())).running >= ju.value)
        return "AssocMaxJobsLimit";
    Found wall = first(qos, &Limits::max_wall, ch, &Limits::max_wall);
    if (wall_over(job, wall.value))
        return wall.qos >= 0 ? "QOSMaxWallDurationPerJobLimit" : "AssocMaxWallDurationPerJobLimit";
    return assoc_grp_reason(qos, ch, t, mins, use, now_min);
}

const char *AcctPolicy::assoc_grp_reason(const std::vector<const AssocRec *> &qos,
                                         const std::vector<const AssocRec *> &ch, const JobTres &t,
                                         const Tres &mins, const UsageIndex &use,
                                         uint64_t now_min) const {
    // A Grp limit a QOS has replaces the associations' same limit.
    bool qos_jobs = false;
    Tres qos_tres, qos_run;
    for (const AssocRec *q : qos) {
        qos_jobs = qos_jobs || q->limits().grp_jobs != kNoLimit;
        for (const auto &[k, v] : q->limits().grp_tres) qos_tres.emplace(k, v);
        for (const auto &[k, v] : q->limits().grp_tres_run_mins) qos_run.emplace(k, v);
    }
    for (const AssocRec *a : ch) {
        const Limits &l = a->limits();
        const Use &u = use.use(usage_key_assoc(a->key()));
        if (!qos_jobs && l.grp_jobs != kNoLimit && u.running >= l.grp_jobs)
            return "AssocGrpJobsLimit";
        if (const auto *x = over(l.grp_tres, u.tres, t.total, &qos_tres))
            return reason(AssocGrp, *x);
        if (!l.grp_tres_run_mins.empty())
            if (const auto *x = over(l.grp_tres_run_mins, run_minutes(u, now_min), mins, &qos_run))
                return reason(AssocGrpRunMins, *x);
    }
    return nullptr;
}

Share AcctPolicy::share_of(const Job &job) const {
    Share s;
    if (!active() || job.finished()) return s;
    for (const AssocRec *a : chain(job)) s.keys.push_back(usage_key_assoc(a->key()));
    for (const AssocRec *q : qos_path(job)) {
        s.keys.push_back(usage_key_qos(q->name));
        s.keys.push_back(usage_key_qos_user(q->name, job.uid));
        s.keys.push_back(usage_key_qos_account(q->name, job.account));
    }
    s.submitted = job.running() ? 1 : submitted_by(job);
    s.running = job.running();
    if (s.running) s.tres = job_tres(job).total;
    if (s.running && job.time_limit_min != kInfinite)
        s.end_min = uint64_t(std::max<int64_t>(job.start_time, 0) / 60) + job.time_limit_min;
    return s;
}

} // namespace drover::ctld::policy
