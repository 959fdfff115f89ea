// backfill.cpp - sched/backfill: strict priority FIFO, then backfill
// (SchedulerType=sched/backfill).
//
// Every pass first does what sched/builtin does (../common/strict_fifo.hpp). Then, at most every
// bf_interval seconds, it plans (planner.hpp): the jobs at the head of the queue get reservations
// from their expected start, and lower-priority jobs start now where they would end before any
// reservation needs their CPUs. SchedulerParameters (bf_interval, bf_max_job_test, bf_window,
// bf_resolution, bf_busy_nodes, bf_continue) are read at every pass, so a reconfiguration applies
// at once.
//
// With a core older than ABI 1.1 (no planning services in the sched host table) the plugin is
// strict FIFO only.
#include <chrono>
#include <string>
#include <vector>

#include <drover/plugin.hpp>
#include <drover/sched.h>

#include "../common/strict_fifo.hpp"
#include "params.hpp"
#include "planner.hpp"
#include "stats.hpp"

namespace {

using drover::sdk::guard;
using drover::sdk::to_view;
using namespace drover::backfill;
using drover::sched_common::by_priority;
using drover::sched_common::run_fifo;

struct State {
    drover::sdk::Host host;
    bool whole_nodes = true; // the select plugin allocates whole nodes
    std::string params_text; // SchedulerParameters as last parsed
    bool parsed = false;
    Params params;
    int64_t last_plan = 0; // pass clock of the last plan; 0 = none yet
    Counters counters;     // sdiag's backfill figures
};

// Reads SchedulerParameters when they changed, logging each bad bf_* value once.
const Params &current_params(State &s, const drover_sched_host *host, drover_sched_pass *pass) {
    const std::string_view text = to_view(host->parameters(pass));
    if (s.parsed && text == s.params_text) return s.params;
    std::vector<std::string> warnings;
    s.params = parse_params(text, &warnings);
    s.params_text.assign(text);
    s.parsed = true;
    for (const auto &w : warnings) s.host.warn(w);
    return s.params;
}

int backfill_schedule(void *state, const drover_sched_host *host, drover_sched_pass *pass,
                      drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        const auto t0 = std::chrono::steady_clock::now();
        const auto order = by_priority(host, pass);
        const auto tried = run_fifo(host, pass, order);
        if (!DROVER_HAS(drover_sched_host, host, parameters)) return DROVER_OK;
        const Params &params = current_params(s, host, pass);
        const int64_t now = host->now(pass);
        if (s.last_plan != 0 && now - s.last_plan < static_cast<int64_t>(params.interval_s) &&
            now >= s.last_plan)
            return DROVER_OK;
        const auto t1 = std::chrono::steady_clock::now();
        Planner planner(host, pass, params, s.whole_nodes);
        planner.build();
        const PlanStats st = planner.run(order, tried);
        const auto t2 = std::chrono::steady_clock::now();
        // bf_interval counts from the end of this plan, on the pass's clock.
        s.last_plan = now + std::chrono::duration_cast<std::chrono::seconds>(t2 - t0).count();
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(t2 - t1).count();
        s.counters.cycle(st, static_cast<uint32_t>(order.size()),
                         static_cast<uint32_t>(planner.timeline().step_count()), now,
                         static_cast<uint64_t>(us));
        if (st.started || st.reserved)
            s.host.debug("plan: " + std::to_string(st.examined) + " job(s) examined, " +
                         std::to_string(st.started) + " started, " + std::to_string(st.reserved) +
                         " reserved, " + std::to_string(st.ineligible) + " not eligible, " +
                         std::to_string(st.unplanned) + " beyond bf_window" +
                         (st.hit_max_job_test ? " (bf_max_job_test reached)" : "") + " in " +
                         std::to_string(us / 1000) + "." + std::to_string(us % 1000 / 100) + " ms");
        return DROVER_OK;
    });
}

int backfill_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                  drover_error *err) {
    return guard(err, [&] {
        auto *s = new State{drover::sdk::Host(ctx, host)};
        // The core's default select plugin is select/linear: whole nodes unless told otherwise.
        const auto select = s->host.conf("SelectType");
        s->whole_nodes = !select || select->find("linear") != std::string_view::npos;
        *state_out = s;
        return DROVER_OK;
    });
}

void backfill_fini(void *state) {
    delete static_cast<State *>(state);
}

int backfill_stats(void *state, int reset, drover_sched_stats *out) {
    return guard(nullptr, [&] {
        static_cast<State *>(state)->counters.report(out, reset != 0);
        return DROVER_OK;
    });
}

const drover_sched_ops backfill_ops = {
    .struct_size = sizeof(drover_sched_ops),
    .job_priority = nullptr, // the core's default: earlier submissions first
    .schedule = backfill_schedule,
    .stats = backfill_stats,
};

} // namespace

DROVER_PLUGIN("sched", "backfill", "0.1.0", backfill_init, backfill_fini, &backfill_ops)
