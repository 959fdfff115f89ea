// select.cpp - candidates per constraint variant, then choose_nodes; and refusal messages.
#include "select.hpp"

#include <algorithm>

#include "choose.hpp"
#include "fit.hpp"

namespace cons_tres {

namespace {

bool has_feature(const NodeRes &n, const std::string &f) {
    return std::binary_search(n.features.begin(), n.features.end(), f);
}

std::string gres_text(const GresNeed &g, uint64_t count) {
    return std::to_string(count) + " " + g.name + (g.type.empty() ? "" : ":" + g.type);
}

} // namespace

bool select_nodes(const std::vector<NodeRes> &table, const Options &opt, const Request &req,
                  const std::vector<uint32_t> &usable, bool ignore, std::vector<uint32_t> &nodes) {
    Need need;
    need.tasks = req.tasks;
    need.min_nodes = req.min_nodes;
    need.max_nodes = req.max_nodes;
    need.gpus = req.gpus_total;
    need.contiguous = req.contiguous;
    for (const auto &[feature, count] : req.constraint.counts()) need.counts.push_back(count);
    const auto &counts = req.constraint.counts();

    for (size_t v = 0; v < req.constraint.variants(); ++v) {
        std::vector<Cand> cands;
        for (uint32_t i : usable) {
            if (i >= table.size() || req.is_excluded(i)) continue;
            const NodeRes &node = table[i];
            if (!node_matches(node, req, v)) continue;
            Cand c;
            c.node = i;
            c.weight = node.weight;
            c.cap = capacity(node, opt, req, ignore, req.tasks);
            if (c.cap == 0) continue;
            c.free_cpus = free_cpus(node, opt, req, ignore);
            if (req.gpus_total) c.gpus = spare_gpus(node, req, 1, ignore);
            for (size_t t = 0; t < counts.size() && t < 32; ++t)
                if (has_feature(node, counts[t].first)) c.counted |= 1u << t;
            cands.push_back(c);
        }
        bool required_ok = std::all_of(req.required.begin(), req.required.end(), [&](uint32_t r) {
            return std::any_of(cands.begin(), cands.end(),
                               [&](const Cand &c) { return c.node == r; });
        });
        if (required_ok && choose_nodes(cands, req.required, need, nodes)) return true;
    }
    return false;
}

std::string unknown_feature(const std::vector<NodeRes> &table, const Request &req) {
    for (const std::string &f : req.constraint.names())
        if (std::none_of(table.begin(), table.end(),
                         [&](const NodeRes &n) { return has_feature(n, f); }))
            return f;
    return "";
}

std::string explain_refusal(const std::vector<NodeRes> &table, const Options &opt,
                            const Request &req, const std::vector<uint32_t> &usable) {
    const std::string job = "job " + std::to_string(req.job_id) + ": ";
    if (req.min_nodes > req.max_nodes)
        return job + "asks for at least " + std::to_string(req.min_nodes) + " nodes but at most " +
               std::to_string(req.max_nodes);
    std::vector<const NodeRes *> open;
    for (uint32_t i : usable)
        if (i < table.size() && !req.is_excluded(i)) open.push_back(&table[i]);
    for (uint32_t r : req.required)
        if (!std::binary_search(usable.begin(), usable.end(), r) || req.is_excluded(r))
            return job + "required node " + (r < table.size() ? table[r].name : std::to_string(r)) +
                   " is not usable";
    if (open.empty()) return job + "no usable nodes";
    std::vector<const NodeRes *> matching;
    for (const NodeRes *n : open)
        for (size_t v = 0; v < req.constraint.variants(); ++v)
            if (req.constraint.matches(n->features, v)) {
                matching.push_back(n);
                break;
            }
    if (matching.empty()) return job + "no usable node has the requested features";
    std::erase_if(matching, [&](const NodeRes *n) { return n->tmp_mb < req.tmp_mb; });
    if (matching.empty())
        return job + "no usable node has " + std::to_string(req.tmp_mb) + " MB of TmpDisk";
    // Which check refuses one task everywhere?
    Misfit common = Misfit::Ok;
    bool same = true;
    for (const NodeRes *n : matching) {
        Misfit m = check(*n, opt, req, 1, true);
        if (m == Misfit::Ok) {
            same = false;
            break;
        }
        if (common == Misfit::Ok)
            common = m;
        else if (common != m)
            same = false;
    }
    if (same && common == Misfit::Cpus) {
        const NodeRes &n = *matching.front();
        return job + "needs " + std::to_string(cpus_for(n, opt, req, 1)) +
               " CPU(s) on a node, more than any usable node has";
    }
    if (same && common == Misfit::Memory)
        return job + "needs " +
               std::to_string(
                   mem_for(*matching.front(), req, cpus_for(*matching.front(), opt, req, 1))) +
               " MB of memory on a node, more than any usable node has";
    if (same && (common == Misfit::Gres || common == Misfit::Gpus)) {
        std::string what;
        for (const GresNeed &g : req.gres)
            what += (what.empty() ? "" : ", ") + gres_text(g, g.per_node + g.per_task);
        if (common == Misfit::Gpus || what.empty()) what = "a GPU for --gpus";
        return job + "no usable node has " + what;
    }
    if (req.gpus_total) {
        uint64_t total = 0;
        for (const NodeRes *n : matching) total += free_gres(*n, "gpu", "", true);
        if (total < req.gpus_total)
            return job + "asks for " + std::to_string(req.gpus_total) +
                   " GPUs; the usable nodes have " + std::to_string(total);
    }
    std::string mx = req.max_nodes == DROVER_INFINITE ? std::string("any number of")
                                                      : "at most " + std::to_string(req.max_nodes);
    return job + std::to_string(req.tasks) + " task(s) of " + std::to_string(req.cpus_per_task) +
           " CPU(s) on at least " + std::to_string(req.min_nodes) + " and " + mx + " node(s)" +
           (req.contiguous ? " (contiguous)" : "") +
           (req.constraint.counts().empty() ? "" : " with the requested feature counts") +
           " is more than the usable nodes offer";
}

} // namespace cons_tres
