// factors.cpp - the factors of priority/multifactor and their weighted sum.
#include "factors.hpp"

#include <algorithm>
#include <cmath>

namespace drover::multifactor {

namespace {

double ratio(double part, double whole) {
    return whole > 0 ? std::clamp(part / whole, 0.0, 1.0) : 0.0;
}

// Age: how long the job has been able to run (since submission with ACCRUE_ALWAYS), over
// PriorityMaxAge, at most 1.
double age(const Settings &s, const drover_priority_cluster &c, const drover_priority_job &j) {
    const int64_t since = s.accrue_always ? j.job->submit_time : j.eligible_time;
    if (since <= 0 || c.now <= since) return 0;
    if (s.max_age_s == 0) return 1;
    return ratio(double(c.now - since), double(s.max_age_s));
}

// Job size: the mean of the job's share of the nodes and of the CPUs (1 minus that with
// PriorityFavorSmall).
double job_size(const Settings &s, const drover_priority_cluster &c, const drover_priority_job &j) {
    const double nodes = double(std::max<uint64_t>(1, j.nodes));
    double share = ratio(nodes, double(c.nodes));
    if (j.cpus) share = (share + ratio(double(j.cpus), double(c.cpus))) / 2;
    return std::clamp(s.favor_small ? 1.0 - share : share, 0.0, 1.0);
}

} // namespace

drover_priority_factors job_factors(const Settings &s, const drover_priority_cluster &c,
                                    std::span<const drover_priority_assoc> assocs,
                                    const drover_priority_job &j) {
    drover_priority_factors f{};
    f.struct_size = sizeof f;
    f.age = age(s, c, j);
    if (j.assoc < assocs.size()) {
        f.fairshare = assocs[j.assoc].fairshare;
        f.assoc = ratio(assocs[j.assoc].priority, c.max_assoc_priority);
    }
    f.job_size = job_size(s, c, j);
    f.partition = s.no_normal_part ? double(j.partition_factor)
                                   : ratio(j.partition_factor, c.max_partition_factor);
    f.qos = s.no_normal_qos ? double(j.qos_priority) : ratio(j.qos_priority, c.max_qos_priority);
    const uint64_t want[DROVER_PRIORITY_TRES_COUNT] = {j.cpus, j.mem_mb, j.nodes, j.gpus};
    const uint64_t have[DROVER_PRIORITY_TRES_COUNT] = {c.cpus, c.mem_mb, c.nodes, c.gpus};
    for (int t = 0; t < DROVER_PRIORITY_TRES_COUNT; ++t)
        f.tres[t] = ratio(double(want[t]), double(have[t]));
    f.site = j.site_factor;
    f.nice = int64_t(j.job->nice) - int64_t(DROVER_NICE_OFFSET);
    return f;
}

uint32_t combine(const Settings &s, const drover_priority_factors &f) {
    const auto &w = s.weights;
    double sum = double(f.site) + w.age * f.age + w.assoc * f.assoc + w.fairshare * f.fairshare +
                 w.job_size * f.job_size + w.partition * f.partition + w.qos * f.qos;
    for (int t = 0; t < DROVER_PRIORITY_TRES_COUNT; ++t) sum += w.tres[t] * f.tres[t];
    sum -= double(f.nice);
    // 0 is a held job's; the top value is kept for scontrol top's "above everything".
    return uint32_t(std::clamp(std::floor(sum), 1.0, double(0xfffffffeu)));
}

} // namespace drover::multifactor
