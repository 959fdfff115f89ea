// placement.cpp - the nodes a job may use and the select plugin's test of them.
#include "ctld/sched/placement.hpp"

#include <algorithm>

#include "common/timefmt.hpp"
#include "ctld/context.hpp"
#include "ctld/nodes/features.hpp"
#include "ctld/jobs/job.hpp"
#include "ctld/jobs/job_codec.hpp"
#include "ctld/nodes/node_mgr.hpp"

namespace drover::ctld {

void Placement::narrow_for(const Job &job, Bitmap &nodes) const {
    if (job.ext().exc_bits.size()) nodes.subtract(job.ext().exc_bits);
    // Constraints each node can answer alone are applied here, whatever the select plugin.
    const std::string &constraint = job.ext().constraint;
    if (!constraint.empty() && per_node_constraint(constraint))
        for (std::size_t i = nodes.next(0); i < nodes.size(); i = nodes.next(i + 1))
            if (!node_satisfies(constraint, nodes_.selectable_features(nodes_.at(uint32_t(i)))))
                nodes.clear(i);
}

Bitmap Placement::usable_for(const Job &job, const Partition &part) const {
    Bitmap usable = nodes_.usable(part);
    narrow_for(job, usable);
    return usable;
}

int Placement::test_job(const Job &job, const Partition &part) const {
    Bitmap all = part.nodes;
    narrow_for(job, all);
    Bitmap picked;
    Status s = select_.job_test(codec::job_view(job), all, DROVER_SELECT_TEST_ONLY, &picked);
    return s.code() == DROVER_ENOSPC ? DROVER_ENOSPC : DROVER_OK;
}

std::string Placement::estimate(const Job &job, const Partition &part, uint32_t would_be_id) const {
    Bitmap usable = usable_for(job, part);
    Bitmap picked;
    Status s = select_.job_test(codec::job_view(job), usable, DROVER_SELECT_RUN_NOW, &picked);
    std::string when = "Unknown", nodes = "(null)";
    uint32_t cpus = alloc_tasks(job) * job.cpus_per_task;
    if (s.ok()) {
        std::vector<uint32_t> idx;
        for (std::size_t i = picked.next(0); i < picked.size(); i = picked.next(i + 1))
            idx.push_back(uint32_t(i));
        when = format_timestamp(std::max(Ctx::now(), job.eligible_time)); // --begin: not before
        nodes = nodes_.names(idx);
    }
    return "Job " + std::to_string(would_be_id) + " to start at " + when + " using " +
           std::to_string(cpus) + " processors on nodes " + nodes + " in partition " +
           part.conf->name;
}

} // namespace drover::ctld
