// proctrack_calls.cpp - ProctrackCalls: NULL checks, struct_size and Status for proctrack.
#include "plugin/proctrack_calls.hpp"

namespace drover::plugin {

Status ProctrackCalls::cont_create(uint32_t job_id, uint32_t step_id, int32_t pid,
                                   drover_cont_id *cont) const {
    if (!ops().cont_create) return absent("cont_create");
    drover_error err{};
    const auto timing = timed("cont_create");
    return status(ops().cont_create(state(), job_id, step_id, pid, cont, &err), err, "cont_create");
}

Status ProctrackCalls::cont_signal(drover_cont_id cont, int sig) const {
    if (!ops().cont_signal) return absent("cont_signal");
    drover_error err{};
    const auto timing = timed("cont_signal");
    return status(ops().cont_signal(state(), cont, sig, &err), err, "cont_signal");
}

Status ProctrackCalls::cont_pids(drover_cont_id cont, uint32_t max,
                                 std::vector<int32_t> *pids) const {
    pids->clear();
    if (!ops().cont_pids) return absent("cont_pids");
    pids->resize(max);
    uint32_t n = max;
    drover_error err{};
    const auto timing = timed("cont_pids");
    Status s = status(ops().cont_pids(state(), cont, pids->data(), &n, &err), err, "cont_pids");
    pids->resize(s.ok() && n <= max ? n : 0);
    return s;
}

Status ProctrackCalls::cont_destroy(drover_cont_id cont) const {
    if (!ops().cont_destroy) return {};
    drover_error err{};
    const auto timing = timed("cont_destroy");
    return status(ops().cont_destroy(state(), cont, &err), err, "cont_destroy");
}

Status ProctrackCalls::cont_limit(drover_cont_id cont, uint64_t mem_bytes, std::string_view cpus,
                                  std::string_view deny_devices) const {
    if (!ops().cont_limit) return {};
    drover_cont_limits lim{};
    lim.struct_size = sizeof lim;
    lim.mem_bytes = mem_bytes;
    lim.cpus = {cpus.data(), cpus.size()};
    lim.deny_devices = {deny_devices.data(), deny_devices.size()};
    drover_error err{};
    const auto timing = timed("cont_limit");
    return status(ops().cont_limit(state(), cont, &lim, &err), err, "cont_limit");
}

std::optional<drover_cont_usage> ProctrackCalls::cont_usage(drover_cont_id cont) const {
    if (!ops().cont_usage) return std::nullopt;
    drover_cont_usage u{};
    u.struct_size = sizeof u;
    drover_error err{};
    const auto timing = timed("cont_usage");
    if (ops().cont_usage(state(), cont, &u, &err) != DROVER_OK) return std::nullopt;
    return u;
}

} // namespace drover::plugin
