// container.cpp - proctrack calls: null checks for the optional operations, errors logged here.
#include "noded/container.hpp"

#include <csignal>
#include <spdlog/spdlog.h>

namespace drover::noded {

namespace {

// How many pids one listing asks for: more than any step runs on one node.
constexpr uint32_t kMaxPids = 4096;

} // namespace

std::string Containers::create(uint32_t job, uint32_t step, pid_t pid, const StepLimits &limits,
                               const std::string &label, drover_cont_id *cont) const {
    drover_error err{};
    if (!pt_.ops.cont_create) return "proctrack: no plugin to track the step's processes";
    if (pt_.ops.cont_create(pt_.state, job, step, pid, cont, &err) != DROVER_OK)
        return std::string("proctrack: ") + err.text;
    // ABI 1.3: a plugin that cannot enforce limits runs the step without them.
    if (!pt_.ops.cont_limit) return {};
    drover_cont_limits lim{};
    lim.struct_size = sizeof lim;
    lim.mem_bytes = limits.mem_mb << 20;
    lim.cpus = {limits.cpus.data(), limits.cpus.size()};
    if (pt_.ops.cont_limit(pt_.state, *cont, &lim, &err) != DROVER_OK)
        spdlog::warn("step {}: limits not applied: {}", label, err.text);
    return {};
}

bool Containers::signal(drover_cont_id cont, int sig) const {
    drover_error err{};
    // DROVER_ENOENT (nothing left in it) is the common answer at a step's end: not logged.
    return pt_.ops.cont_signal && pt_.ops.cont_signal(pt_.state, cont, sig, &err) == DROVER_OK;
}

std::vector<int32_t> Containers::pids(drover_cont_id cont) const {
    std::vector<int32_t> pids(kMaxPids);
    uint32_t n = kMaxPids;
    drover_error err{};
    if (!pt_.ops.cont_pids ||
        pt_.ops.cont_pids(pt_.state, cont, pids.data(), &n, &err) != DROVER_OK)
        n = 0;
    pids.resize(std::min(n, kMaxPids));
    return pids;
}

std::optional<drover_cont_usage> Containers::usage(drover_cont_id cont) const {
    if (!pt_.ops.cont_usage) return std::nullopt;
    drover_cont_usage cu{};
    cu.struct_size = sizeof cu;
    drover_error err{};
    if (pt_.ops.cont_usage(pt_.state, cont, &cu, &err) != DROVER_OK) return std::nullopt;
    return cu;
}

void Containers::destroy(drover_cont_id cont) const {
    signal(cont, SIGKILL);
    drover_error err{};
    if (pt_.ops.cont_destroy && pt_.ops.cont_destroy(pt_.state, cont, &err) != DROVER_OK)
        spdlog::debug("proctrack: container {} not destroyed: {}", cont, err.text);
}

} // namespace drover::noded
