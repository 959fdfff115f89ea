// cpu_bind_layout.cpp - the CPUs each local task of a step is bound to (task_cpus), as Slurm's
// task/affinity lays tasks out: automatic binding gives each task its -c CPUs in whole cores (or
// threads) taken socket by socket as -m says (cyclic: each task from the next socket; block: fill
// a socket first; fcyclic: each CPU from the next socket), then widens them to the level bound to.
#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "common/cpu_bind.hpp"
#include "common/error.hpp"

namespace drover {

namespace {

using Unit = std::vector<CpuPlace>; // a core (its available threads), or one thread

// The step's CPUs here as units, per socket in order.
std::map<uint32_t, std::deque<Unit>> units_by_socket(const BindLayout &l, bool threads,
                                                     uint32_t *per_core) {
    std::set<uint32_t> step(l.step.begin(), l.step.end());
    std::vector<CpuPlace> avail;
    for (const CpuPlace &p : l.node)
        if (step.empty() || step.count(p.os)) avail.push_back(p);
    std::sort(avail.begin(), avail.end(), [](const CpuPlace &a, const CpuPlace &b) {
        return std::tie(a.socket, a.core, a.os) < std::tie(b.socket, b.core, b.os);
    });
    std::map<uint32_t, std::deque<Unit>> out;
    std::map<uint32_t, uint32_t> threads_of_core;
    std::map<uint32_t, uint32_t> seen; // threads of each core met so far
    for (const CpuPlace &p : avail) {
        if (l.threads_per_core && seen[p.core]++ >= l.threads_per_core) continue;
        auto &q = out[p.socket];
        if (threads || q.empty() || q.back().front().core != p.core) q.emplace_back();
        q.back().push_back(p);
        *per_core = std::max(*per_core, ++threads_of_core[p.core]);
    }
    return out;
}

// Which units each task takes, socket by socket as the distribution says; when the step has
// fewer units than its tasks want, the next task starts over from the first.
std::vector<std::vector<Unit>> deal(std::map<uint32_t, std::deque<Unit>> units, uint32_t tasks,
                                    uint32_t per_task, const std::string &dist,
                                    uint32_t per_socket) {
    const auto all = units;
    std::vector<uint32_t> sockets;
    for (const auto &[s, q] : units) sockets.push_back(s);
    std::vector<std::vector<Unit>> out(tasks);
    std::size_t next = 0;
    auto left = [&units] {
        std::size_t n = 0;
        for (const auto &[s, q] : units) n += q.size();
        return n;
    };
    std::vector<uint32_t> started(sockets.size()); // tasks started on each socket
    for (uint32_t t = 0; t < tasks && !sockets.empty(); ++t) {
        std::size_t s = dist == "block" ? 0 : next;
        if (per_socket && *std::min_element(started.begin(), started.end()) >= per_socket)
            std::fill(started.begin(), started.end(), 0); // every socket is full: a new round
        while (per_socket && started[s % sockets.size()] >= per_socket) ++s;
        ++started[s % sockets.size()];
        for (uint32_t k = 0; k < per_task; ++k) {
            if (left() == 0) units = all;
            while (units[sockets[s % sockets.size()]].empty()) ++s;
            auto &q = units[sockets[s % sockets.size()]];
            out[t].push_back(q.front());
            q.pop_front();
            if (dist == "fcyclic") ++s;
        }
        next = dist == "fcyclic" ? s : next + 1;
    }
    return out;
}

std::vector<uint32_t> sorted_ids(std::set<uint32_t> ids) {
    return {ids.begin(), ids.end()};
}

// Automatic binding (--cpu-bind=cores and the like, or the default).
std::vector<std::vector<uint32_t>> automatic(const CpuBind &bind, const BindLayout &l) {
    bool threads = bind.level == CpuBind::threads;
    uint32_t per_core = 1;
    auto units = units_by_socket(l, threads, &per_core);
    uint32_t cpt = std::max(1u, l.cpus_per_task);
    std::size_t total = 0;
    for (const auto &[s, q] : units) total += q.size();
    // No task takes more than the step has here (-c comes with the request).
    uint32_t per_task =
        uint32_t(std::min<std::size_t>(threads ? cpt : (cpt + per_core - 1) / per_core, total));
    auto dealt = deal(units, l.tasks, per_task, l.distribution.empty() ? "cyclic" : l.distribution,
                      l.tasks_per_socket);
    std::vector<std::vector<uint32_t>> out;
    for (const auto &task : dealt) {
        std::set<uint32_t> ids, sockets;
        for (const Unit &u : task)
            for (const CpuPlace &p : u) ids.insert(p.os), sockets.insert(p.socket);
        if (bind.level == CpuBind::sockets || bind.level == CpuBind::ldoms)
            for (const auto &[s, q] : units)
                for (const Unit &u : q)
                    for (const CpuPlace &p : u)
                        if (sockets.count(s)) ids.insert(p.os);
        out.push_back(sorted_ids(ids));
    }
    return out;
}

// The node's CPUs on the given sockets (locality domains).
std::vector<uint32_t> on_sockets(const BindLayout &l, const std::set<uint32_t> &sockets) {
    std::set<uint32_t> ids;
    for (const CpuPlace &p : l.node)
        if (sockets.count(p.socket)) ids.insert(p.os);
    if (ids.empty()) throw ParseError("--cpu-bind names no locality domain of this node");
    return sorted_ids(ids);
}

} // namespace

std::vector<std::vector<uint32_t>> task_cpus(const CpuBind &bind, const BindLayout &l) {
    if (bind.kind == CpuBind::unset && bind.level != CpuBind::any) return automatic(bind, l);
    std::vector<std::vector<uint32_t>> out(l.tasks);
    std::set<uint32_t> node, sockets;
    for (const CpuPlace &p : l.node) node.insert(p.os), sockets.insert(p.socket);
    for (uint32_t t = 0; t < l.tasks && !node.empty(); ++t) {
        const auto *item = bind.lists.empty() ? nullptr : &bind.lists[t % bind.lists.size()];
        bool listed = bind.kind == CpuBind::map_cpu || bind.kind == CpuBind::mask_cpu ||
                      bind.kind == CpuBind::map_ldom || bind.kind == CpuBind::mask_ldom;
        if (listed && !item) throw ParseError("--cpu-bind: an empty list");
        switch (bind.kind) {
        case CpuBind::rank:
            out[t] = {*std::next(node.begin(), long(t % node.size()))};
            break;
        case CpuBind::map_cpu:
        case CpuBind::mask_cpu:
            for (uint32_t id : *item)
                if (node.count(id)) out[t].push_back(id);
            if (out[t].empty())
                throw ParseError("--cpu-bind: task " + std::to_string(t) +
                                 "'s CPUs are none of this node's");
            break;
        case CpuBind::rank_ldom:
            out[t] = on_sockets(l, {*std::next(sockets.begin(), long(t % sockets.size()))});
            break;
        case CpuBind::map_ldom:
        case CpuBind::mask_ldom:
            out[t] = on_sockets(l, std::set<uint32_t>(item->begin(), item->end()));
            break;
        default:
            break;
        }
    }
    return out;
}

} // namespace drover
