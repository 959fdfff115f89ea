// topology.hpp - the node's CPUs as task binding sees them: each CPU's kernel id, socket and core.
#pragma once

#include <vector>

#include "common/cpu_bind.hpp"

namespace drover::noded {

// This machine's, from hwloc (which reads the kernel's view, cgroup restrictions aside); a
// machine hwloc cannot read is one socket of single-thread cores.
std::vector<CpuPlace> detect_topology();

} // namespace drover::noded
