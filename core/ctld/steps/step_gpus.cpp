// step_gpus.cpp - a step's GPUs out of its job's.
#include "ctld/steps/step_gpus.hpp"

#include <algorithm>

#include <drover/plugin.h>

#include "common/gres.hpp"

namespace drover::ctld {

StepGpuAsk step_gpu_ask(uint32_t gpus, uint32_t per_node, uint32_t per_task,
                        const std::string &gres) {
    StepGpuAsk ask;
    ask.total = gpus;
    ask.per_node = per_node;
    ask.per_task = per_task;
    ask.given = gpus || per_node || per_task;
    if (ask.given || gres.empty()) return ask;
    // The controller has checked --gres already; an unparsable one asks for nothing here.
    std::vector<GresCount> items;
    try {
        items = parse_gres_request(gres);
    } catch (const std::exception &) {
        return ask;
    }
    uint64_t n = gres_total(items, "gpu");
    // "none" or only zero counts: no GPU; other resources alone say nothing of GPUs.
    ask.given = items.empty() || n > 0;
    ask.per_node = uint32_t(std::min<uint64_t>(n, UINT32_MAX));
    return ask;
}

namespace {

std::vector<uint32_t> free_gpus(const NodeGpus &g, bool overlap) {
    if (overlap) return g.job;
    std::vector<uint32_t> out;
    for (uint32_t id : g.job)
        if (!std::binary_search(g.held.begin(), g.held.end(), id)) out.push_back(id);
    return out;
}

// How many GPUs the step needs on each layout node; total asks are spread in node order over
// what is free, then over what the job has (so that a shortfall says Busy, not Impossible).
std::vector<uint32_t> wanted(const StepGpuAsk &ask, const StepLayout &lay,
                             const std::vector<NodeGpus> &job_gpus, bool overlap) {
    std::vector<uint32_t> want(lay.nodes.size(), 0);
    if (!ask.total) {
        for (std::size_t k = 0; k < lay.nodes.size(); ++k)
            want[k] = ask.per_node ? ask.per_node : ask.per_task * lay.tasks_per_node[k];
        return want;
    }
    uint64_t left = ask.total;
    for (bool any : {false, true})
        for (std::size_t k = 0; k < lay.nodes.size() && left; ++k) {
            const NodeGpus &g = job_gpus[lay.nodes[k]];
            uint32_t room = uint32_t((any ? g.job.size() : free_gpus(g, overlap).size())) - want[k];
            uint32_t take = uint32_t(std::min<uint64_t>(room, left));
            want[k] += take;
            left -= take;
        }
    if (left) want[0] += uint32_t(std::min<uint64_t>(left, UINT32_MAX - want[0]));
    return want;
}

} // namespace

Status pick_step_gpus(const StepGpuAsk &ask, const StepLayout &lay,
                      const std::vector<NodeGpus> &job_gpus, bool overlap, StepGpus *out) {
    out->seen.assign(lay.nodes.size(), {});
    out->held.assign(lay.nodes.size(), {});
    if (!ask.given) {
        for (std::size_t k = 0; k < lay.nodes.size(); ++k)
            out->seen[k] = job_gpus[lay.nodes[k]].job;
        return {};
    }
    std::vector<uint32_t> want = wanted(ask, lay, job_gpus, overlap);
    for (std::size_t k = 0; k < lay.nodes.size(); ++k)
        if (want[k] > job_gpus[lay.nodes[k]].job.size())
            return {DROVER_ENOSPC, "Requested node configuration is not available"};
    for (std::size_t k = 0; k < lay.nodes.size(); ++k) {
        std::vector<uint32_t> free = free_gpus(job_gpus[lay.nodes[k]], overlap);
        if (want[k] > free.size()) return {DROVER_EBUSY, "Requested nodes are busy"};
        out->seen[k].assign(free.begin(), free.begin() + want[k]);
        if (!overlap) out->held[k] = out->seen[k];
    }
    return {};
}

} // namespace drover::ctld
