// factors.hpp - a pending job's multifactor priority: each factor normalised to 0..1, then
// priority = site + sum(weight x factor) - nice, at least 1 (0 is a held job's).
#pragma once

#include <cstdint>
#include <span>

#include <drover/priority.h>

#include "settings.hpp"

namespace drover::multifactor {

// The job's factors (age, association, fair-share, job size, partition, QOS, TRES), site and
// nice, from the cluster, the tree of the last fair-share pass and the settings.
drover_priority_factors job_factors(const Settings &s, const drover_priority_cluster &c,
                                    std::span<const drover_priority_assoc> assocs,
                                    const drover_priority_job &job);

// The weighted sum of factors f, as the scheduler orders by.
uint32_t combine(const Settings &s, const drover_priority_factors &f);

} // namespace drover::multifactor
