// topology.cpp - the machine's CPUs from hwloc.
#include "noded/topology.hpp"

#include <hwloc.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace drover::noded {

std::vector<CpuPlace> detect_topology() {
    hwloc_topology_t topo;
    std::vector<CpuPlace> out;
    if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
        int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        for (int i = 0; i < n; ++i) {
            hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, unsigned(i));
            hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
            hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
            // The PU's nearest NUMA node: the first of its node set.
            int numa = pu->nodeset ? hwloc_bitmap_first(pu->nodeset) : -1;
            out.push_back({pu->os_index, pkg ? pkg->logical_index : 0,
                           core ? core->logical_index : pu->logical_index,
                           numa < 0 ? 0u : uint32_t(numa)});
        }
        hwloc_topology_destroy(topo);
    }
    if (out.empty()) {
        spdlog::warn(
            "hwloc cannot read this machine's topology: one socket of single-thread cores");
        long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
        out = uniform_topology(1, uint32_t(cpus > 0 ? cpus : 1), 1);
    }
    return out;
}

} // namespace drover::noded
