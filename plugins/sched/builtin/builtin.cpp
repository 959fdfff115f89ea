// builtin.cpp - sched/builtin: strict priority FIFO, as in the Slurm design paper.
//
// Each pass orders the pending jobs by priority (highest first), then job id (oldest first), and
// asks the core to start them in that order. The first job of a partition that cannot start
// because its resources are busy (DROVER_EBUSY) blocks that partition for the rest of the pass,
// so no lower-priority job overtakes it there; other partitions go on. A job that is not eligible
// (EPERM) or can never run (ENOSPC) blocks nothing. A job submitted to several partitions
// ("a,b") is skipped if any of them is blocked, and blocks all of them.
#include <vector>

#include <drover/plugin.hpp>
#include <drover/sched.h>

#include "../common/strict_fifo.hpp"

namespace {

using drover::sched_common::by_priority;
using drover::sched_common::run_fifo;
using drover::sdk::guard;

struct State {
    drover::sdk::Host host;
};

int builtin_schedule(void *state, const drover_sched_host *host, drover_sched_pass *pass,
                     drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        uint32_t started = 0;
        for (const auto &[id, rc] : run_fifo(host, pass, by_priority(host, pass)))
            started += rc == DROVER_OK;
        if (started) s.host.debug("pass started " + std::to_string(started) + " job(s)");
        return DROVER_OK;
    });
}

int builtin_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                 drover_error *err) {
    return guard(err, [&] {
        *state_out = new State{drover::sdk::Host(ctx, host)};
        return DROVER_OK;
    });
}

void builtin_fini(void *state) {
    delete static_cast<State *>(state);
}

const drover_sched_ops builtin_ops = {
    .struct_size = sizeof(drover_sched_ops),
    .job_priority = nullptr, // the core's default: earlier submissions first
    .schedule = builtin_schedule,
};

} // namespace

DROVER_PLUGIN("sched", "builtin", "0.1.0", builtin_init, builtin_fini, &builtin_ops)
