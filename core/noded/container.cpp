// container.cpp - proctrack calls: null checks for the optional operations, errors logged here.
#include "noded/container.hpp"

#include <csignal>
#include <drover/plugin.h>
#include <spdlog/spdlog.h>

namespace drover::noded {

namespace {

// How many pids one listing asks for: more than any step runs on one node.
constexpr uint32_t kMaxPids = 4096;

} // namespace

Status Containers::create(uint32_t job, uint32_t step, pid_t pid, const StepLimits &limits,
                          const std::string &label, drover_cont_id *cont) const {
    if (!pt_) return {DROVER_EIO, "proctrack: no plugin to track the step's processes"};
    if (Status s = pt_.cont_create(job, step, pid, cont); !s.ok())
        return {DROVER_EIO, "proctrack: " + std::string(s.reason())};
    // ABI 1.3: a plugin that cannot enforce limits runs the step without them.
    if (Status s = pt_.cont_limit(*cont, limits.mem_mb << 20, limits.cpus, limits.deny_devices);
        !s.ok()) {
        // A step whose devices should be hidden does not run with them open (ConstrainDevices).
        if (!limits.deny_devices.empty()) {
            (void)pt_.cont_destroy(*cont);
            return {DROVER_EIO, "proctrack: devices not confined: " + s.text()};
        }
        spdlog::warn("step {}: limits not applied: {}", label, s.text());
    }
    return {};
}

bool Containers::signal(drover_cont_id cont, int sig) const {
    // DROVER_ENOENT (nothing left in it) is the common answer at a step's end: not logged.
    return pt_.cont_signal(cont, sig).ok();
}

std::vector<int32_t> Containers::pids(drover_cont_id cont) const {
    std::vector<int32_t> pids;
    if (!pt_.cont_pids(cont, kMaxPids, &pids).ok()) pids.clear();
    return pids;
}

std::optional<drover_cont_usage> Containers::usage(drover_cont_id cont) const {
    return pt_.cont_usage(cont);
}

void Containers::destroy(drover_cont_id cont) const {
    signal(cont, SIGKILL);
    if (Status s = pt_.cont_destroy(cont); !s.ok())
        spdlog::debug("proctrack: container {} not destroyed: {}", cont, s.text());
}

} // namespace drover::noded
