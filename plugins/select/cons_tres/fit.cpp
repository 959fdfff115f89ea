// fit.cpp - per-node fit of a job's tasks.
#include "fit.hpp"

#include <algorithm>

namespace cons_tres {

uint64_t cpus_for(const NodeRes &node, const Options &opt, const Request &req, uint32_t tasks) {
    if (req.exclusive()) return node.cpus;
    uint64_t c = std::max<uint64_t>(uint64_t{tasks} * req.cpus_per_task, req.min_cpus);
    if (!opt.cpu_unit) {
        const uint64_t tpc = node.threads_per_core;
        c = (c + tpc - 1) / tpc * tpc;
    }
    return c;
}

uint64_t mem_for(const NodeRes &node, const Request &req, uint64_t cpus) {
    switch (req.mem_kind) {
    case MemKind::PerNode:
        return req.mem_mb;
    case MemKind::PerCpu:
        return req.mem_mb * cpus;
    case MemKind::WholeNode:
        return node.mem_mb;
    case MemKind::None:
        break;
    }
    return 0;
}

uint32_t free_cpus(const NodeRes &node, const Options &opt, const Request &req, bool ignore) {
    if (ignore || !opt.cpus_consumable || req.share == DROVER_SHARE_OVERSUB) return node.cpus;
    return opt.cpu_unit ? node.free_cpus : node.free_core_cpus;
}

uint64_t free_gres(const NodeRes &node, std::string_view name, std::string_view type, bool ignore) {
    const GresPool *p = node.pool(name);
    if (!p) return 0;
    uint64_t n = 0;
    for (size_t i = 0; i < p->size(); ++i)
        if ((type.empty() || p->types[i] == type) && (ignore || p->used[i] == 0)) ++n;
    return n;
}

namespace {

// Checks every gres need of the job for t tasks; spare (if not null) gets the GPUs left over.
bool gres_fit(const NodeRes &node, const Request &req, uint32_t tasks, bool ignore,
              uint64_t *spare) {
    // Typed needs first, then what is left of each name for the untyped needs.
    for (const GresNeed &n : req.gres)
        if (!n.type.empty() &&
            n.per_node + n.per_task * tasks > free_gres(node, n.name, n.type, ignore))
            return false;
    for (const GresPool &p : node.gres) {
        uint64_t need = 0;
        for (const GresNeed &n : req.gres)
            if (n.name == p.name) need += n.per_node + n.per_task * tasks;
        uint64_t have = free_gres(node, p.name, "", ignore);
        if (need > have) return false;
        if (spare && p.name == "gpu") *spare = have - need;
    }
    for (const GresNeed &n : req.gres)
        if (n.per_node + n.per_task * tasks > 0 && !node.pool(n.name)) return false;
    return true;
}

} // namespace

uint64_t spare_gpus(const NodeRes &node, const Request &req, uint32_t tasks, bool ignore) {
    uint64_t spare = 0;
    return gres_fit(node, req, tasks, ignore, &spare) ? spare : 0;
}

bool node_matches(const NodeRes &node, const Request &req, size_t variant) {
    return node.tmp_mb >= req.tmp_mb && req.constraint.matches(node.features, variant);
}

Misfit check(const NodeRes &node, const Options &opt, const Request &req, uint32_t tasks,
             bool ignore) {
    if (!ignore && (node.exclusive_jobs > 0 || (req.exclusive() && node.jobs > 0)))
        return Misfit::Shared;
    if (req.ntasks_per_node && tasks > req.ntasks_per_node) return Misfit::Cpus;
    const uint64_t cpus = cpus_for(node, opt, req, tasks);
    if (uint64_t{tasks} * req.cpus_per_task > node.cpus || cpus > node.cpus ||
        cpus > free_cpus(node, opt, req, ignore))
        return Misfit::Cpus;
    const uint64_t mem = mem_for(node, req, cpus);
    const uint64_t mem_free = opt.mem_consumable && !ignore
                                  ? node.mem_mb - std::min(node.mem_mb, node.mem_used)
                                  : node.mem_mb;
    if (mem > mem_free) return Misfit::Memory;
    uint64_t spare = 0;
    if (!gres_fit(node, req, tasks, ignore, &spare)) return Misfit::Gres;
    if (req.gpus_total && spare == 0) return Misfit::Gpus;
    return Misfit::Ok;
}

uint32_t capacity(const NodeRes &node, const Options &opt, const Request &req, bool ignore,
                  uint32_t limit) {
    uint32_t hi = std::min(limit, node.cpus / req.cpus_per_task);
    if (req.ntasks_per_node) hi = std::min(hi, req.ntasks_per_node);
    if (hi == 0 || check(node, opt, req, 1, ignore) != Misfit::Ok) return 0;
    uint32_t lo = 1; // fits; the answer is in [lo, hi]
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo + 1) / 2;
        if (check(node, opt, req, mid, ignore) == Misfit::Ok)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace cons_tres
