// sched_calls.cpp - SchedCalls: NULL checks and Status for the sched plugin.
#include "plugin/sched_calls.hpp"

namespace drover::plugin {

std::optional<uint32_t> SchedCalls::job_priority(const drover_job_view &job) const {
    if (!ops().job_priority) return std::nullopt;
    const auto timing = timed("job_priority");
    return ops().job_priority(state(), &job);
}

Status SchedCalls::schedule(const drover_sched_host &host, drover_sched_pass *pass) const {
    if (!ops().schedule) return absent("schedule");
    drover_error err{};
    const auto timing = timed("schedule");
    return status(ops().schedule(state(), &host, pass, &err), err, "schedule");
}

std::optional<drover_sched_stats> SchedCalls::stats(bool reset) const {
    if (!ops().stats) return std::nullopt;
    drover_sched_stats s{};
    s.struct_size = sizeof s;
    const auto timing = timed("stats");
    if (ops().stats(state(), reset ? 1 : 0, &s) != DROVER_OK) return std::nullopt;
    return s;
}

} // namespace drover::plugin
