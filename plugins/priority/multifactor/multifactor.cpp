// multifactor.cpp - priority/multifactor: Slurm's multifactor priority (PriorityType=
// priority/multifactor). The core lends the association tree with its decayed usage once per
// PriorityCalcPeriod; this plugin ranks it (Fair Tree, or classic with NO_FAIR_TREE) and weighs
// each pending job's factors (fairshare.hpp, factors.hpp, settings.hpp).
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <drover/plugin.hpp>
#include <drover/priority.h>

#include "factors.hpp"
#include "fairshare.hpp"
#include "settings.hpp"

namespace {

using drover::multifactor::Settings;
using drover::sdk::guard;

struct State {
    drover::sdk::Host host;
    Settings settings;
};

int mf_fairshare(void *state, drover_priority_assoc *assocs, uint32_t count, drover_error *err) {
    return guard(err, [&] {
        const auto &s = static_cast<State *>(state)->settings;
        std::span<drover_priority_assoc> tree(assocs, count);
        if (s.fair_tree)
            drover::multifactor::fair_tree(tree);
        else
            drover::multifactor::classic(tree, s.damping);
        return DROVER_OK;
    });
}

uint32_t mf_job_priority(void *state, const drover_priority_cluster *cluster,
                         const drover_priority_assoc *assocs, uint32_t count,
                         const drover_priority_job *job, drover_priority_factors *out) {
    return drover::sdk::guard_or<uint32_t>(1, [&] {
        const auto &s = static_cast<State *>(state)->settings;
        auto f = drover::multifactor::job_factors(s, *cluster, {assocs, count}, *job);
        if (out) *out = f;
        uint32_t p = drover::multifactor::combine(s, f);
        // INCR_ONLY: a pending job's priority never goes down.
        if (s.incr_only && job->job->priority > p) p = job->job->priority;
        return p;
    });
}

void mf_weights(void *state, drover_priority_factors *out) {
    *out = static_cast<State *>(state)->settings.weights;
}

int mf_fair_tree(void *state) {
    return static_cast<State *>(state)->settings.fair_tree ? 1 : 0;
}

int mf_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] {
        auto st = std::make_unique<State>(State{drover::sdk::Host(ctx, host), {}});
        std::vector<std::string> warnings;
        try {
            st->settings = drover::multifactor::read_settings(
                [&](std::string_view key) { return st->host.conf(key); }, &warnings);
        } catch (const std::invalid_argument &e) {
            drover::sdk::set_error(err, e.what());
            return DROVER_EINVAL;
        }
        for (const auto &w : warnings) st->host.warn(w);
        *state_out = st.release();
        return DROVER_OK;
    });
}

void mf_fini(void *state) {
    delete static_cast<State *>(state);
}

const drover_priority_ops mf_ops = {
    .struct_size = sizeof(drover_priority_ops),
    .fairshare = mf_fairshare,
    .job_priority = mf_job_priority,
    .weights = mf_weights,
    .fair_tree = mf_fair_tree,
};

} // namespace

DROVER_PLUGIN("priority", "multifactor", "0.1.0", mf_init, mf_fini, &mf_ops)
