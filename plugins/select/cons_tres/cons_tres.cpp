// cons_tres.cpp - select/cons_tres: cores (or CPUs), memory and generic resources (GPUs) as
// consumable resources, several jobs per node.
//
// slurm.conf: SelectTypeParameters picks what is consumed (CR_Core_Memory when unset, Slurm's
// default for cons_tres; CR_Core, CR_CPU, CR_CPU_Memory, CR_Memory). With memory consumable a
// job holds on each node its --mem, or --mem-per-cpu times its CPUs there, or else DefMemPerCPU
// times its CPUs, or DefMemPerNode, or else, as in Slurm, all of the node's memory. Without it
// memory only bounds: the request must fit RealMemory.
//
// job_test chooses nodes (see choose.hpp for the policy, fit.hpp for one node, alloc.hpp for
// the split over nodes); job_begin records the allocation, worked out again from the node set
// the same way, so a replay after a restart rebuilds it; job_fini gives it back.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <new>
#include <string>
#include <vector>

#include <drover/plugin.hpp>
#include <drover/select.h>

#include "alloc.hpp"
#include "node_res.hpp"
#include "options.hpp"
#include "request.hpp"
#include "select.hpp"

namespace {

using drover::sdk::guard;
using drover::sdk::guard_or;
using drover::sdk::set_error;
using namespace cons_tres;

struct State {
    drover::sdk::Host host;
    Options opt;
    std::vector<NodeRes> table;
    std::map<uint32_t, JobAlloc> jobs; // job id -> what it holds
};

// At most this many lines of one batch of warnings reach the log.
constexpr size_t kMaxWarnings = 20;

void log_warnings(const State &s, const std::vector<std::string> &warnings) {
    for (size_t i = 0; i < warnings.size() && i < kMaxWarnings; ++i) s.host.warn(warnings[i]);
    if (warnings.size() > kMaxWarnings)
        s.host.warn(std::to_string(warnings.size() - kMaxWarnings) + " more warnings");
}

std::vector<uint32_t> bits(drover_bitmap_view b, size_t limit) {
    std::vector<uint32_t> out;
    if (!b.words) return out;
    const uint32_t n = static_cast<uint32_t>(std::min<size_t>(b.nbits, limit));
    for (uint32_t i = 0; i < n; ++i)
        if ((b.words[i / 64] >> (i % 64)) & 1u) out.push_back(i);
    return out;
}

void read_options(State &s) {
    s.opt = parse_options(s.host.conf("SelectTypeParameters"), s.host.conf("DefMemPerCPU"),
                          s.host.conf("DefMemPerNode"));
    log_warnings(s, s.opt.warnings);
}

int ct_node_init(void *state, const drover_node_view *nodes, uint32_t count, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        std::vector<std::string> warnings;
        std::vector<NodeRes> table;
        table.reserve(count);
        for (uint32_t i = 0; i < count; ++i)
            table.push_back(node_from_view(node_view_at(nodes, i), warnings));
        s.table = std::move(table);
        // The core replays job_begin for every running job after this.
        s.jobs.clear();
        log_warnings(s, warnings);
        s.host.debug("node table: " + std::to_string(count) + " nodes, " + s.opt.base);
        return DROVER_OK;
    });
}

int ct_job_test(void *state, const drover_job_view *job, drover_bitmap_view usable, int mode,
                drover_bitmap *picked, drover_error *err) {
    return guard(err, [&] {
        const auto &s = *static_cast<State *>(state);
        Request req;
        try {
            req = make_request(*job, s.opt, static_cast<uint32_t>(s.table.size()));
        } catch (const std::invalid_argument &e) {
            set_error(err, "job " + std::to_string(job->job_id) + ": " + e.what());
            return DROVER_ENOSPC;
        }
        if (std::string f = unknown_feature(s.table, req); !f.empty()) {
            set_error(err,
                      "job " + std::to_string(job->job_id) + ": no node has feature '" + f + "'");
            return DROVER_ENOSPC;
        }
        const std::vector<uint32_t> open = bits(usable, s.table.size());
        std::vector<uint32_t> chosen;
        const bool test_only = mode == DROVER_SELECT_TEST_ONLY;
        if (!select_nodes(s.table, s.opt, req, open, test_only, chosen)) {
            if (!test_only && select_nodes(s.table, s.opt, req, open, true, chosen)) {
                set_error(err, "job " + std::to_string(job->job_id) +
                                   ": the resources it needs are in use");
                return DROVER_EBUSY;
            }
            set_error(err, explain_refusal(s.table, s.opt, req, open));
            return DROVER_ENOSPC;
        }
        for (uint32_t i : chosen)
            if (i < picked->nbits) picked->words[i / 64] |= uint64_t{1} << (i % 64);
        return DROVER_OK;
    });
}

void forget(State &s, uint32_t job_id) {
    auto it = s.jobs.find(job_id);
    if (it == s.jobs.end()) return;
    release(s.table, it->second);
    s.jobs.erase(it);
}

int ct_job_begin(void *state, const drover_job_view *job, drover_bitmap_view nodes,
                 drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        forget(s, job->job_id); // a repeated begin replaces the earlier one
        std::string bad;
        Request req = make_request(*job, s.opt, static_cast<uint32_t>(s.table.size()), &bad);
        std::vector<std::string> warnings;
        if (!bad.empty())
            warnings.push_back("job " + std::to_string(job->job_id) + ": " + bad + "; ignored");
        JobAlloc a = place(s.table, s.opt, req, bits(nodes, s.table.size()), warnings);
        hold(s.table, a);
        s.jobs[job->job_id] = std::move(a);
        log_warnings(s, warnings);
        return DROVER_OK;
    });
}

int ct_job_fini(void *state, const drover_job_view *job, drover_error *err) {
    return guard(err, [&] { forget(*static_cast<State *>(state), job->job_id); });
}

// scontrol suspend / resume: the CPUs are given back and taken again (see hold_cpus).
int suspend_or_resume(void *state, const drover_job_view *job, bool suspend, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        auto it = s.jobs.find(job->job_id);
        if (it == s.jobs.end() || it->second.suspended == suspend) return DROVER_OK;
        it->second.suspended = suspend;
        hold_cpus(s.table, it->second, !suspend);
        return DROVER_OK;
    });
}

int ct_job_suspend(void *state, const drover_job_view *job, drover_error *err) {
    return suspend_or_resume(state, job, true, err);
}

int ct_job_resume(void *state, const drover_job_view *job, drover_error *err) {
    return suspend_or_resume(state, job, false, err);
}

const NodeAlloc *find_alloc(const State &s, uint32_t job_id, uint32_t node) {
    auto it = s.jobs.find(job_id);
    return it == s.jobs.end() ? nullptr : it->second.on(node);
}

uint32_t ct_job_cpus_on_node(void *state, uint32_t job_id, uint32_t node) {
    return guard_or<uint32_t>(0, [&]() -> uint32_t {
        const NodeAlloc *a = find_alloc(*static_cast<State *>(state), job_id, node);
        return a ? static_cast<uint32_t>(a->cpu_ids.size()) : 0;
    });
}

// Copies text into a fixed buffer; a list too long for it is cut after its last whole item.
template <size_t N>
void copy_list(char (&out)[N], const std::string &text) {
    size_t n = text.size();
    if (n >= N) {
        n = text.rfind(',', N - 1);
        if (n == std::string::npos) n = 0;
    }
    text.copy(out, n);
    out[n] = '\0';
}

int ct_job_alloc_detail(void *state, uint32_t job_id, uint32_t node, drover_node_alloc *out) {
    return guard_or<int>(DROVER_EIO, [&]() -> int {
        if (!out) return DROVER_EINVAL;
        const NodeAlloc *a = find_alloc(*static_cast<State *>(state), job_id, node);
        if (!a) return DROVER_ENOENT;
        if (out->struct_size == 0) out->struct_size = sizeof *out;
        if (DROVER_HAS(drover_node_alloc, out, cpus))
            out->cpus = static_cast<uint32_t>(a->cpu_ids.size());
        if (DROVER_HAS(drover_node_alloc, out, mem_mb)) out->mem_mb = a->mem_mb;
        if (DROVER_HAS(drover_node_alloc, out, cpu_ids))
            copy_list(out->cpu_ids, id_list(a->cpu_ids));
        if (DROVER_HAS(drover_node_alloc, out, gres)) copy_list(out->gres, gres_list(*a));
        return DROVER_OK;
    });
}

int ct_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] {
        auto *s = new State;
        s->host = drover::sdk::Host(ctx, host);
        read_options(*s);
        *state_out = s;
        return DROVER_OK;
    });
}

void ct_fini(void *state) {
    delete static_cast<State *>(state);
}

const drover_select_ops cons_tres_ops = {
    .struct_size = sizeof(drover_select_ops),
    .node_init = ct_node_init,
    .job_test = ct_job_test,
    .job_begin = ct_job_begin,
    .job_fini = ct_job_fini,
    .job_cpus_on_node = ct_job_cpus_on_node,
    .job_alloc_detail = ct_job_alloc_detail,
    .job_suspend = ct_job_suspend,
    .job_resume = ct_job_resume,
};

} // namespace

DROVER_PLUGIN("select", "cons_tres", "0.1.0", ct_init, ct_fini, &cons_tres_ops)
