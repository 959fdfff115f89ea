// container.hpp - the proctrack container around every step on a node (the batch script's
// included): the one door to the proctrack plugin, with its optional operations checked and its
// errors handled in one place.
//
// A container holds every process of one step, however it forks (drover/proctrack.h). The node
// creates it around the step's first process before that runs, limits it to what the job holds
// here, signals it, lists and measures it while the step runs, and destroys it at the step's end.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <drover/proctrack.h>

#include "common/status.hpp"
#include "plugin/plugin_set.hpp"
#include "plugin/proctrack_calls.hpp"

namespace drover::noded {

// What a step may use on this node.
struct StepLimits {
    uint64_t mem_mb = 0;      // 0: none
    std::string cpus;         // "0-1,4"; empty: any
    std::string deny_devices; // comma-separated device files the step may not open
};

// The proctrack plugin as the node uses it. Holds a reference to the plugin's bound operations
// (which the plugin set owns and outlives every step); the ops table stays behind this class, so
// that callers see containers, not the plugin ABI.
class Containers {
  public:
    explicit Containers(const plugin::Bound<drover_proctrack_ops> &pt) : pt_(pt) {}

    // Puts pid (the step's first process, held before it runs) in a new container for
    // (job, step) and applies limits. Success, or why no container could be made (DROVER_EIO,
    // whatever the plugin answered: the node failed, not the request; pid is not tracked then).
    // A limit the plugin refuses, or cannot apply, is logged against label ("7.batch", "7.0")
    // and the step runs without it, as before; but a step with devices to hide (deny_devices)
    // does not run at all when they cannot be.
    Status create(uint32_t job, uint32_t step, pid_t pid, const StepLimits &limits,
                  const std::string &label, drover_cont_id *cont) const;
    // Sends sig to every process of the container; false when none was left (or it failed).
    bool signal(drover_cont_id cont, int sig) const;
    // The processes in the container now (none when it is empty or cannot be listed).
    std::vector<int32_t> pids(drover_cont_id cont) const;
    // The container's own figures (memory peak, OOM kills, CPU); none when the plugin cannot
    // measure.
    std::optional<drover_cont_usage> usage(drover_cont_id cont) const;
    // The step is over: SIGKILL to whatever is left, then the container is forgotten.
    void destroy(drover_cont_id cont) const;

  private:
    plugin::ProctrackCalls pt_;
};

} // namespace drover::noded
