// proctrack_calls.hpp - ProctrackCalls: the node daemon's calls into the proctrack plugin
// (drover/proctrack.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <drover/proctrack.h>

#include "plugin/calls.hpp"

namespace drover::plugin {

// Each method's comment ends with what it answers when the op is absent.
class ProctrackCalls : public Calls<drover_proctrack_ops> {
  public:
    using Calls::Calls;

    // Puts pid into a new container for job_id/step_id; its id into *cont. Absent: ENOENT.
    Status cont_create(uint32_t job_id, uint32_t step_id, int32_t pid, drover_cont_id *cont) const;
    // Sends sig to every process in cont (DROVER_ENOENT: none left). Absent: ENOENT.
    Status cont_signal(drover_cont_id cont, int sig) const;
    // Up to max pids in cont into *pids (empty on failure). Absent: ENOENT.
    Status cont_pids(drover_cont_id cont, uint32_t max, std::vector<int32_t> *pids) const;
    // Forgets an emptied container. Absent: DROVER_OK (nothing to forget).
    Status cont_destroy(drover_cont_id cont) const;
    // Limits cont to mem_bytes (0: none) and the CPU list cpus ("0-3,8"; empty: none), and
    // keeps it from opening the device files deny_devices lists ("/dev/nvidia1,/dev/nvidia3";
    // empty: none). Absent: DROVER_OK (the plugin does not enforce limits).
    Status cont_limit(drover_cont_id cont, uint64_t mem_bytes, std::string_view cpus,
                      std::string_view deny_devices) const;
    // What cont has used (struct_size: as much as the plugin filled in), or nullopt when it
    // fails. Absent: nullopt (the plugin does not measure).
    std::optional<drover_cont_usage> cont_usage(drover_cont_id cont) const;
};

} // namespace drover::plugin
