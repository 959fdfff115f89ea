// priority_calls.cpp - PriorityCalls: NULL checks and Status for the priority plugin.
#include "plugin/priority_calls.hpp"

namespace drover::plugin {

Status PriorityCalls::fairshare(std::span<drover_priority_assoc> assocs) const {
    if (!ops().fairshare) return absent("fairshare");
    drover_error err{};
    const auto timing = timed("fairshare");
    return status(ops().fairshare(state(), assocs.data(), uint32_t(assocs.size()), &err), err,
                  "fairshare");
}

uint32_t PriorityCalls::job_priority(const drover_priority_cluster &cluster,
                                     std::span<const drover_priority_assoc> assocs,
                                     const drover_priority_job &job,
                                     drover_priority_factors *out) const {
    if (!ops().job_priority) return 0;
    if (out) {
        *out = drover_priority_factors{};
        out->struct_size = sizeof *out;
    }
    const auto timing = timed("job_priority");
    return ops().job_priority(state(), &cluster, assocs.data(), uint32_t(assocs.size()), &job, out);
}

drover_priority_factors PriorityCalls::weights() const {
    drover_priority_factors w{};
    w.struct_size = sizeof w;
    if (!ops().weights) return w;
    const auto timing = timed("weights");
    ops().weights(state(), &w);
    return w;
}

bool PriorityCalls::fair_tree() const {
    if (!ops().fair_tree) return false;
    const auto timing = timed("fair_tree");
    return ops().fair_tree(state()) != 0;
}

} // namespace drover::plugin
