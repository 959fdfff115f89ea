// priority_calls.hpp - PriorityCalls: the core's calls into the priority plugin
// (drover/priority.h).
#pragma once

#include <cstdint>
#include <span>

#include <drover/priority.h>

#include "plugin/calls.hpp"

namespace drover::plugin {

// Each method's comment ends with what it answers when the op is absent.
class PriorityCalls : public Calls<drover_priority_ops> {
  public:
    using Calls::Calls;

    // Sets the tree's fair-share numbers. Absent: ENOENT (no plugin: priority/basic).
    Status fairshare(std::span<drover_priority_assoc> assocs) const;
    // A pending job's priority and factors. Absent: 0 (the caller keeps its own order).
    uint32_t job_priority(const drover_priority_cluster &cluster,
                          std::span<const drover_priority_assoc> assocs,
                          const drover_priority_job &job, drover_priority_factors *out) const;
    // The weights in the factors' places. Absent: all zero.
    drover_priority_factors weights() const;
    // Whether fair-share is Fair Tree. Absent: false.
    bool fair_tree() const;
};

} // namespace drover::plugin
