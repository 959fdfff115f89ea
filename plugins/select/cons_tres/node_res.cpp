// node_res.cpp - building a node from the core's view.
#include "node_res.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include <drover/plugin.hpp>

#include "gres_spec.hpp"

namespace cons_tres {

const GresPool *NodeRes::pool(std::string_view gres_name) const {
    for (const GresPool &p : gres)
        if (p.name == gres_name) return &p;
    return nullptr;
}

GresPool *NodeRes::pool(std::string_view gres_name) {
    return const_cast<GresPool *>(static_cast<const NodeRes *>(this)->pool(gres_name));
}

void NodeRes::refresh_free() {
    free_cpus = 0;
    free_core_cpus = 0;
    for (uint32_t first = 0; first < cpus; first += threads_per_core) {
        const uint32_t end = std::min(first + threads_per_core, cpus);
        uint32_t idle = 0;
        for (uint32_t c = first; c < end; ++c) idle += cpu_use[c] == 0;
        free_cpus += idle;
        if (idle == end - first) free_core_cpus += idle;
    }
}

const drover_node_view &node_view_at(const drover_node_view *nodes, uint32_t i) {
    size_t stride = nodes[0].struct_size;
    if (stride < offsetof(drover_node_view, gres) || stride > (1u << 16))
        stride = sizeof(drover_node_view);
    return *reinterpret_cast<const drover_node_view *>(reinterpret_cast<const char *>(nodes) +
                                                       stride * i);
}

NodeRes node_from_view(const drover_node_view &v, std::vector<std::string> &warnings) {
    NodeRes n;
    n.name = std::string(drover::sdk::to_view(v.name));
    n.cpus = v.cpus ? v.cpus : 1;
    n.threads_per_core = std::clamp<uint32_t>(v.threads_per_core, 1, n.cpus);
    n.mem_mb = v.real_memory_mb;
    n.tmp_mb = v.tmp_disk_mb;
    n.weight = v.weight;
    std::string_view f = drover::sdk::to_view(v.features);
    while (!f.empty()) {
        size_t comma = f.find(',');
        std::string_view one = f.substr(0, comma);
        while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
        while (!one.empty() && one.back() == ' ') one.remove_suffix(1);
        if (!one.empty()) n.features.emplace_back(one);
        f = comma == std::string_view::npos ? std::string_view() : f.substr(comma + 1);
    }
    std::sort(n.features.begin(), n.features.end());
    n.features.erase(std::unique(n.features.begin(), n.features.end()), n.features.end());
    n.cpu_use.assign(n.cpus, 0);
    n.refresh_free();

    if (!DROVER_HAS(drover_node_view, &v, gres)) return n;
    std::string_view spec = drover::sdk::to_view(v.gres);
    try {
        for (const GresItem &g : parse_gres_list(spec)) {
            GresPool *p = n.pool(g.name);
            if (!p) {
                n.gres.push_back(GresPool{g.name, {}, {}});
                p = &n.gres.back();
            }
            uint64_t add = g.count;
            if (p->size() + add > kMaxGresUnits) {
                warnings.push_back("node " + n.name + ": more than " +
                                   std::to_string(kMaxGresUnits) + " " + g.name +
                                   " units; the rest are ignored");
                add = kMaxGresUnits - p->size();
            }
            p->types.insert(p->types.end(), add, g.type);
            p->used.insert(p->used.end(), add, 0);
        }
    } catch (const std::invalid_argument &e) {
        warnings.push_back("node " + n.name + ": " + e.what() + " in Gres '" + std::string(spec) +
                           "'; its generic resources are ignored");
        n.gres.clear();
    }
    return n;
}

} // namespace cons_tres
