// alloc.cpp - per-node allocation of a chosen node set.
#include "alloc.hpp"

#include <algorithm>
#include <numeric>

#include "fit.hpp"

namespace cons_tres {

const NodeAlloc *JobAlloc::on(uint32_t node) const {
    for (const NodeAlloc &n : nodes)
        if (n.node == node) return &n;
    return nullptr;
}

namespace {

// count CPU ids on node: whole units (cores, or single CPUs under CR_CPU), least used first,
// then lowest id.
std::vector<uint32_t> pick_cpus(const NodeRes &node, const Options &opt, uint64_t count) {
    const uint32_t unit = opt.cpu_unit ? 1 : node.threads_per_core;
    struct Unit {
        uint32_t first, end, use;
    };
    std::vector<Unit> units;
    for (uint32_t first = 0; first < node.cpus; first += unit) {
        Unit u{first, std::min(first + unit, node.cpus), 0};
        for (uint32_t c = u.first; c < u.end; ++c)
            u.use = std::max<uint32_t>(u.use, node.cpu_use[c]);
        units.push_back(u);
    }
    std::stable_sort(units.begin(), units.end(),
                     [](const Unit &a, const Unit &b) { return a.use < b.use; });
    std::vector<uint32_t> ids;
    for (const Unit &u : units) {
        if (ids.size() >= count) break;
        for (uint32_t c = u.first; c < u.end; ++c) ids.push_back(c);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

// count indexes of pool (of type, when not empty), not in taken: free ones by lowest index,
// then (overcommitting) held ones. Returns how many were short of free.
uint64_t pick_gres(const GresPool &pool, const std::string &type, uint64_t count,
                   std::vector<uint32_t> &taken) {
    uint64_t short_of_free = 0;
    for (int pass = 0; pass < 2 && count > 0; ++pass) {
        for (uint32_t i = 0; i < pool.size() && count > 0; ++i) {
            if ((!type.empty() && pool.types[i] != type) ||
                std::find(taken.begin(), taken.end(), i) != taken.end())
                continue;
            if (pass == 0 && pool.used[i] != 0) continue;
            taken.push_back(i);
            --count;
            if (pass == 1) ++short_of_free;
        }
    }
    return short_of_free + count;
}

std::vector<uint32_t> &gres_entry(NodeAlloc &a, const std::string &name) {
    for (auto &[n, idx] : a.gres)
        if (n == name) return idx;
    a.gres.emplace_back(name, std::vector<uint32_t>{});
    return a.gres.back().second;
}

} // namespace

JobAlloc place(const std::vector<NodeRes> &table, const Options &opt, const Request &req,
               const std::vector<uint32_t> &nodes, std::vector<std::string> &warnings) {
    JobAlloc a;
    a.job_id = req.job_id;
    a.exclusive = req.exclusive();
    const std::string job = "job " + std::to_string(req.job_id);

    // Tasks: one per node, then fill in index order up to each node's capacity.
    const size_t n = nodes.size();
    std::vector<uint32_t> cap(n), tasks(n, 1);
    bool short_of_room = false;
    for (size_t i = 0; i < n; ++i) {
        const NodeRes &node = table[nodes[i]];
        cap[i] = capacity(node, opt, req, false, req.tasks);
        if (cap[i] == 0) {
            short_of_room = true;
            cap[i] = std::max<uint32_t>(capacity(node, opt, req, true, req.tasks), 1);
        }
    }
    uint64_t left = req.tasks > n ? req.tasks - n : 0;
    for (size_t i = 0; i < n && left > 0; ++i) {
        const uint64_t add = std::min<uint64_t>(cap[i] - 1, left);
        tasks[i] += static_cast<uint32_t>(add);
        left -= add;
    }
    if (left > 0 && n > 0) {
        short_of_room = true;
        tasks[0] += static_cast<uint32_t>(left);
    }

    // --gpus: one per node while they last, then fill in index order.
    std::vector<uint64_t> spare(n, 0), gpus(n, 0);
    uint64_t gpus_left = req.gpus_total;
    if (gpus_left) {
        for (size_t i = 0; i < n; ++i) spare[i] = spare_gpus(table[nodes[i]], req, tasks[i], false);
        for (int pass = 0; pass < 2; ++pass)
            for (size_t i = 0; i < n && gpus_left > 0; ++i) {
                const uint64_t add =
                    pass == 0 ? std::min<uint64_t>(spare[i] > 0, 1) : spare[i] - gpus[i];
                const uint64_t take = std::min(add, gpus_left);
                gpus[i] += take;
                gpus_left -= take;
            }
        if (gpus_left > 0 && n > 0) {
            short_of_room = true;
            gpus[0] += gpus_left;
        }
    }

    bool overcommitted = short_of_room;
    for (size_t i = 0; i < n; ++i) {
        const NodeRes &node = table[nodes[i]];
        NodeAlloc na;
        na.node = nodes[i];
        na.tasks = tasks[i];
        const uint64_t cpus = std::min<uint64_t>(cpus_for(node, opt, req, tasks[i]), node.cpus);
        na.cpu_ids = pick_cpus(node, opt, cpus);
        if (opt.mem_consumable) na.mem_mb = mem_for(node, req, na.cpu_ids.size());
        if (a.exclusive) {
            for (const GresPool &p : node.gres) {
                std::vector<uint32_t> all(p.size());
                std::iota(all.begin(), all.end(), 0u);
                if (!all.empty()) na.gres.emplace_back(p.name, std::move(all));
            }
        } else {
            // Typed needs first, so that untyped ones do not take the typed units.
            for (int typed = 1; typed >= 0; --typed)
                for (const GresNeed &g : req.gres) {
                    if (g.type.empty() == (typed == 1)) continue;
                    uint64_t count = g.per_node + g.per_task * tasks[i];
                    if (g.name == "gpu" && g.type.empty()) count += gpus[i];
                    const GresPool *p = node.pool(g.name);
                    if (!p || count == 0) {
                        overcommitted = overcommitted || count > 0;
                        continue;
                    }
                    if (pick_gres(*p, g.type, count, gres_entry(na, g.name)) > 0)
                        overcommitted = true;
                }
            if (gpus[i] > 0 &&
                std::none_of(req.gres.begin(), req.gres.end(),
                             [](const GresNeed &g) { return g.name == "gpu" && g.type.empty(); })) {
                if (const GresPool *p = node.pool("gpu")) {
                    if (pick_gres(*p, "", gpus[i], gres_entry(na, "gpu")) > 0) overcommitted = true;
                } else {
                    overcommitted = true;
                }
            }
            for (auto &[name, idx] : na.gres) std::sort(idx.begin(), idx.end());
            na.gres.erase(std::remove_if(na.gres.begin(), na.gres.end(),
                                         [](const auto &g) { return g.second.empty(); }),
                          na.gres.end());
        }
        a.nodes.push_back(std::move(na));
    }
    if (overcommitted)
        warnings.push_back(job + " does not fit the nodes it was given (" + std::to_string(n) +
                           "); it shares CPUs or generic resources there");
    return a;
}

namespace {
void dec(auto &v) {
    if (v > 0) --v;
}
} // namespace

void hold_cpus(std::vector<NodeRes> &table, const JobAlloc &a, bool take) {
    for (const NodeAlloc &na : a.nodes) {
        if (na.node >= table.size()) continue;
        NodeRes &node = table[na.node];
        for (uint32_t c : na.cpu_ids)
            if (c < node.cpu_use.size()) take ? void(++node.cpu_use[c]) : dec(node.cpu_use[c]);
        take ? void(++node.jobs) : dec(node.jobs);
        if (a.exclusive) take ? void(++node.exclusive_jobs) : dec(node.exclusive_jobs);
        node.refresh_free();
    }
}

void hold(std::vector<NodeRes> &table, const JobAlloc &a) {
    for (const NodeAlloc &na : a.nodes) {
        NodeRes &node = table[na.node];
        node.mem_used += na.mem_mb;
        for (const auto &[name, idx] : na.gres)
            if (GresPool *p = node.pool(name))
                for (uint32_t i : idx)
                    if (i < p->size()) ++p->used[i];
    }
    if (!a.suspended) hold_cpus(table, a, true);
}

void release(std::vector<NodeRes> &table, const JobAlloc &a) {
    for (const NodeAlloc &na : a.nodes) {
        if (na.node >= table.size()) continue;
        NodeRes &node = table[na.node];
        node.mem_used -= std::min(node.mem_used, na.mem_mb);
        for (const auto &[name, idx] : na.gres)
            if (GresPool *p = node.pool(name))
                for (uint32_t i : idx)
                    if (i < p->size()) dec(p->used[i]);
    }
    if (!a.suspended) hold_cpus(table, a, false);
}

std::string id_list(const std::vector<uint32_t> &ids) {
    std::string out;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        if (!out.empty()) out.push_back(',');
        out += std::to_string(ids[i]);
        if (j > i) out += "-" + std::to_string(ids[j]);
        i = j + 1;
    }
    return out;
}

std::string gres_list(const NodeAlloc &a) {
    std::string out;
    for (const auto &[name, idx] : a.gres) {
        if (!out.empty()) out.push_back(',');
        out += name + ":" + id_list(idx);
    }
    return out;
}

} // namespace cons_tres
