// cgroup.cpp - proctrack/cgroup: a step's processes are a control group (ProctrackType=
// proctrack/cgroup), in cgroup v1 or v2 as cgroup.conf's CgroupPlugin says or the host has.
//
// Unlike proctrack/pgid nothing escapes: a process that calls setsid() or double-forks stays in
// the cgroup. The container id carries job and step, and the directories are the only state, so
// the plugin keeps nothing per step. cont_limit applies memory (ConstrainRAMSpace,
// AllowedRAMSpace), CPU (ConstrainCores) and device (ConstrainDevices) limits; cont_usage reads
// the kernel's accounting.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <drover/plugin.hpp>
#include <drover/proctrack.h>

#include "settings.hpp"
#include "tree.hpp"

namespace {

using drover::cgroup::Error;
using drover::cgroup::Step;
using drover::sdk::guard;
using drover::sdk::set_error;

struct State {
    drover::sdk::Host host;
    drover::cgroup::Settings settings;
    std::unique_ptr<drover::cgroup::Tree> tree; // null outside the node daemon
};

// Runs fn against the state's tree: an Error becomes its code with its line in err, any other
// exception DROVER_EIO.
template <class Fn>
int with_tree(void *state, drover_error *err, Fn &&fn) {
    return guard(err, [&]() -> int {
        auto *st = static_cast<State *>(state);
        if (!st->tree) {
            set_error(err, "proctrack/cgroup tracks processes only in the node daemon");
            return DROVER_EINVAL;
        }
        try {
            fn(*st->tree);
            return DROVER_OK;
        } catch (const Error &e) {
            set_error(err, e.what());
            return e.code();
        }
    });
}

int cgroup_cont_create(void *state, uint32_t job_id, uint32_t step_id, int32_t pid,
                       drover_cont_id *cont_out, drover_error *err) {
    const Step step{job_id, step_id};
    if (pid <= 1) {
        drover::sdk::set_errorf(err, "%s: pid %d cannot be tracked",
                                drover::cgroup::step_label(step).c_str(), pid);
        return DROVER_EINVAL;
    }
    return with_tree(state, err, [&](drover::cgroup::Tree &tree) {
        tree.create(step, pid);
        *cont_out = drover::cgroup::cont_of(step);
        static_cast<State *>(state)->host.debug(drover::cgroup::step_label(step) + ": pid " +
                                                std::to_string(pid) + " in its cgroup");
    });
}

int cgroup_cont_signal(void *state, drover_cont_id cont, int sig, drover_error *err) {
    return with_tree(state, err, [&](drover::cgroup::Tree &tree) {
        tree.signal(drover::cgroup::step_of(cont), sig);
    });
}

int cgroup_cont_pids(void *state, drover_cont_id cont, int32_t *pids, uint32_t *count,
                     drover_error *err) {
    const uint32_t capacity = *count;
    *count = 0;
    return with_tree(state, err, [&](drover::cgroup::Tree &tree) {
        std::vector<int32_t> found;
        try {
            found = tree.pids(drover::cgroup::step_of(cont));
        } catch (const Error &e) {
            if (e.code() != DROVER_ENOENT) throw;
            return; // no container: no processes, as for an emptied one
        }
        const uint32_t n = found.size() < capacity ? static_cast<uint32_t>(found.size()) : capacity;
        if (n) std::memcpy(pids, found.data(), n * sizeof(int32_t)); // pids may be NULL when 0
        *count = n;
    });
}

int cgroup_cont_destroy(void *state, drover_cont_id cont, drover_error *err) {
    return with_tree(state, err, [&](drover::cgroup::Tree &tree) {
        tree.destroy(drover::cgroup::step_of(cont));
    });
}

int cgroup_cont_limit(void *state, drover_cont_id cont, const drover_cont_limits *limits,
                      drover_error *err) {
    if (!limits || limits->struct_size < sizeof(uint32_t)) {
        set_error(err, "cont_limit: no limits given");
        return DROVER_EINVAL;
    }
    return with_tree(state, err, [&](drover::cgroup::Tree &tree) {
        tree.limit(drover::cgroup::step_of(cont), *limits);
    });
}

int cgroup_cont_usage(void *state, drover_cont_id cont, drover_cont_usage *usage,
                      drover_error *err) {
    if (!usage || usage->struct_size < sizeof(uint32_t)) {
        set_error(err, "cont_usage: no usage record given");
        return DROVER_EINVAL;
    }
    return with_tree(state, err, [&](drover::cgroup::Tree &tree) {
        tree.usage(drover::cgroup::step_of(cont), *usage);
    });
}

std::string yes_no(bool b) {
    return b ? "yes" : "no";
}

std::string percent(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

int cgroup_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&]() -> int {
        auto st = std::make_unique<State>();
        st->host = drover::sdk::Host(ctx, host);
        st->settings = drover::cgroup::read_settings(st->host);
        if (st->host.role() == "noded") {
            try {
                st->tree = drover::cgroup::open_tree(st->settings);
            } catch (const Error &e) {
                set_error(err, e.what());
                return e.code();
            }
            const auto &s = st->settings;
            st->host.info(st->tree->describe() + ", node " + s.node +
                          ": ConstrainRAMSpace=" + yes_no(s.constrain_ram) +
                          " ConstrainSwapSpace=" + yes_no(s.constrain_swap) +
                          " ConstrainCores=" + yes_no(s.constrain_cores) +
                          " ConstrainDevices=" + yes_no(s.constrain_devices) +
                          " AllowedRAMSpace=" + percent(s.allowed_ram_percent));
        }
        *state_out = st.release();
        return DROVER_OK;
    });
}

void cgroup_fini(void *state) {
    delete static_cast<State *>(state);
}

const drover_proctrack_ops cgroup_ops = {
    .struct_size = sizeof(drover_proctrack_ops),
    .cont_create = cgroup_cont_create,
    .cont_signal = cgroup_cont_signal,
    .cont_pids = cgroup_cont_pids,
    .cont_destroy = cgroup_cont_destroy,
    .cont_limit = cgroup_cont_limit,
    .cont_usage = cgroup_cont_usage,
};

} // namespace

DROVER_PLUGIN("proctrack", "cgroup", "0.1.0", cgroup_init, cgroup_fini, &cgroup_ops)
