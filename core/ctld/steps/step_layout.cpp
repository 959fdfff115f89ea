// step_layout.cpp - node choice and task distribution for steps.
#include "ctld/steps/step_layout.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include <drover/plugin.h>

namespace drover::ctld {

namespace {

// Tasks each node can hold given its usable CPUs.
std::vector<uint32_t> capacity(const StepShape &s, const std::vector<NodeCpus> &nodes,
                               bool all_free) {
    std::vector<uint32_t> cap(nodes.size(), 0);
    uint32_t c = std::max(1u, s.cpus_per_task);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (!s.allowed.empty() && !s.allowed[i]) continue;
        uint32_t free = all_free || s.overlap ? nodes[i].total : nodes[i].free;
        // Without --exact a step takes every CPU the job has on a node, so the node must be idle.
        if (!s.exact && !s.overlap && free != nodes[i].total) free = 0;
        cap[i] = free / c;
        if (s.ntasks_per_node && cap[i] < s.ntasks_per_node && !s.overcommit) cap[i] = 0;
    }
    return cap;
}

// The CPUs the step takes on each node of its layout: what its tasks need with --exact or
// --overlap, else all the job has there.
void set_cpus(const StepShape &s, const std::vector<NodeCpus> &nodes, StepLayout *out) {
    out->cpus_per_node.clear();
    for (std::size_t i = 0; i < out->nodes.size(); ++i)
        out->cpus_per_node.push_back(
            s.exact || s.overlap
                ? std::min(out->tasks_per_node[i] * std::max(1u, s.cpus_per_task),
                           nodes[out->nodes[i]].total) // -O: its tasks share what there is
                : nodes[out->nodes[i]].total);
}

// -O: the tasks the picked nodes' CPUs cannot hold go to those nodes in turn, one each, as
// Slurm's block layout oversubscribes once every node is full.
void overcommit(std::vector<uint32_t> &cap, const std::vector<uint32_t> &picked, uint32_t room,
                uint32_t n) {
    for (std::size_t i = 0; room < n && !picked.empty(); i = (i + 1) % picked.size()) {
        ++cap[picked[i]];
        ++room;
    }
}

// Picks nodes and spreads tasks; false when the capacities cannot hold the step.
bool place(const StepShape &s, const std::vector<NodeCpus> &nodes, std::vector<uint32_t> cap,
           StepLayout *out) {
    uint32_t n = std::max(1u, s.num_tasks);
    uint32_t usable =
        uint32_t(std::count_if(cap.begin(), cap.end(), [](uint32_t v) { return v > 0; }));
    uint32_t want; // nodes to use
    if (s.ntasks_per_node)
        want = (n + s.ntasks_per_node - 1) / s.ntasks_per_node;
    else if (s.min_nodes)
        want = s.min_nodes;
    else if (s.plane) // as many nodes as the planes fill
        want = std::min<uint32_t>((n + s.plane - 1) / s.plane, usable);
    else if (s.exact)
        want = 0; // as few as hold the tasks
    else
        want = std::min<uint32_t>(n, usable);
    if (s.min_nodes && want < s.min_nodes) want = s.min_nodes;
    if (want > n) want = n;
    if (want > usable) return false;
    std::vector<uint32_t> picked;
    uint32_t room = 0;
    for (uint32_t i = 0; i < cap.size(); ++i) {
        if (!cap[i]) continue;
        if (want ? picked.size() == want : room >= n) break;
        picked.push_back(i);
        room += cap[i];
    }
    if (room < n && want) {
        // The first nodes are too small: take the roomiest ones instead.
        std::vector<uint32_t> order(cap.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return cap[a] > cap[b]; });
        picked.assign(order.begin(), order.begin() + want);
        std::sort(picked.begin(), picked.end());
        room = 0;
        for (uint32_t i : picked) room += cap[i];
    }
    if (s.overcommit && room < n) {
        overcommit(cap, picked, room, n);
        room = n;
    }
    if (room < n || picked.empty()) return false;
    if (s.max_nodes && picked.size() > s.max_nodes) return false;
    std::size_t k = picked.size();
    std::vector<uint32_t> count(k, 0);
    std::vector<std::vector<uint32_t>> ids(k);
    if (s.cyclic || s.plane) {
        // Round after round, each node takes the next plane of tasks (cyclic: one).
        uint32_t plane = s.plane ? s.plane : 1, t = 0;
        while (t < n)
            for (std::size_t i = 0; i < k && t < n; ++i)
                for (uint32_t j = 0; j < plane && t < n && count[i] < cap[picked[i]]; ++j) {
                    ++count[i];
                    ids[i].push_back(t++);
                }
    } else {
        // Every node gets one, then the rest fill nodes in order.
        uint32_t left = n;
        for (std::size_t i = 0; i < k; ++i) count[i] = 1, --left;
        for (std::size_t i = 0; i < k && left; ++i) {
            uint32_t extra = std::min(left, cap[picked[i]] - count[i]);
            if (s.ntasks_per_node) extra = std::min(extra, s.ntasks_per_node - count[i]);
            count[i] += extra;
            left -= extra;
        }
        if (left) return false;
        uint32_t t = 0;
        for (std::size_t i = 0; i < k; ++i)
            for (uint32_t j = 0; j < count[i]; ++j) ids[i].push_back(t++);
    }
    out->nodes = picked;
    out->tasks_per_node = count;
    out->task_ids = ids;
    set_cpus(s, nodes, out);
    return true;
}

// -m arbitrary: each task where the host list puts it; false when a node cannot hold its share.
bool place_arbitrary(const StepShape &s, const std::vector<NodeCpus> &nodes,
                     const std::vector<uint32_t> &cap, StepLayout *out) {
    std::map<uint32_t, std::vector<uint32_t>> by_node;
    for (uint32_t t = 0; t < s.arbitrary.size(); ++t) by_node[s.arbitrary[t]].push_back(t);
    *out = {};
    for (auto &[pos, ids] : by_node) {
        if (pos >= cap.size() || ids.size() > cap[pos]) return false;
        out->nodes.push_back(pos);
        out->tasks_per_node.push_back(uint32_t(ids.size()));
        out->task_ids.push_back(std::move(ids));
    }
    set_cpus(s, nodes, out);
    return !out->nodes.empty();
}

bool place_any(const StepShape &s, const std::vector<NodeCpus> &nodes,
               const std::vector<uint32_t> &cap, StepLayout *out) {
    return s.arbitrary.empty() ? place(s, nodes, cap, out) : place_arbitrary(s, nodes, cap, out);
}

} // namespace

Status layout_step(const StepShape &s, const std::vector<NodeCpus> &nodes, StepLayout *out) {
    StepLayout ideal;
    if (!place_any(s, nodes, capacity(s, nodes, true), &ideal)) {
        uint32_t cpus = 0;
        for (const auto &n : nodes) cpus += n.total;
        std::string why = "Requested node configuration is not available";
        if (uint64_t(std::max(1u, s.num_tasks)) * std::max(1u, s.cpus_per_task) > cpus)
            why += " (" + std::to_string(s.num_tasks) + " tasks of " +
                   std::to_string(s.cpus_per_task) + " CPUs in an allocation of " +
                   std::to_string(cpus) + " CPUs)";
        return {DROVER_ENOSPC, why};
    }
    if (!place_any(s, nodes, capacity(s, nodes, false), out))
        return {DROVER_EBUSY, "Requested nodes are busy"};
    return {};
}

} // namespace drover::ctld
