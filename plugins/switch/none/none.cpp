// none.cpp - switch/none: no interconnect to set up; job_init and job_fini succeed and log.
#include <string>

#include <drover/plugin.hpp>
#include <drover/switch.h>

namespace {

using drover::sdk::guard;
using drover::sdk::to_view;

struct State {
    drover::sdk::Host host;
};

int none_job_init(void *state, uint32_t job_id, drover_str node_list, drover_env_add_fn env_add,
                  void *env_arg, drover_error *err) {
    return guard(err, [&] {
        const auto &s = *static_cast<State *>(state);
        s.host.debug("job " + std::to_string(job_id) + " on " + std::string(to_view(node_list)) +
                     ": nothing to set up");
    });
}

int none_job_fini(void *state, uint32_t job_id, drover_error *err) {
    return guard(err, [&] {
        const auto &s = *static_cast<State *>(state);
        s.host.debug("job " + std::to_string(job_id) + ": nothing to tear down");
    });
}

int none_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] { *state_out = new State{drover::sdk::Host(ctx, host)}; });
}

void none_fini(void *state) {
    delete static_cast<State *>(state);
}

const drover_switch_ops none_ops = {
    .struct_size = sizeof(drover_switch_ops),
    .job_init = none_job_init,
    .job_fini = none_job_fini,
};

} // namespace

DROVER_PLUGIN("switch", "none", "0.1.0", none_init, none_fini, &none_ops)
