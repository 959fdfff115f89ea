// sched_calls.hpp - SchedCalls: the core's calls into the sched plugin (drover/sched.h).
#pragma once

#include <cstdint>
#include <optional>

#include <drover/sched.h>

#include "plugin/calls.hpp"

namespace drover::plugin {

// Each method's comment ends with what it answers when the op is absent.
class SchedCalls : public Calls<drover_sched_ops> {
  public:
    using Calls::Calls;

    // The priority of a newly submitted job. Absent: nullopt (the core's own order, earlier
    // submissions first).
    std::optional<uint32_t> job_priority(const drover_job_view &job) const;
    // One scheduling pass over what host lends. Absent: ENOENT.
    Status schedule(const drover_sched_host &host, drover_sched_pass *pass) const;
    // The plugin's backfill counters (struct_size: as much as the plugin filled in), resetting
    // them after when reset is set; nullopt when it fails. Absent: nullopt (no backfill counters).
    std::optional<drover_sched_stats> stats(bool reset) const;
};

} // namespace drover::plugin
