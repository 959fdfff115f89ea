// mem_bind.hpp - srun's --mem-bind: the NUMA nodes each task's memory comes from, as Slurm's
// task/affinity sets them (set_mempolicy), and the line --mem-bind=verbose writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/cpu_bind.hpp"

namespace drover {

struct MemBind {
    enum Kind { unset, none, local, rank, map_mem, mask_mem };
    Kind kind = unset;
    bool verbose = false;
    bool prefer = false; // the first node preferred, others allowed (else only those)
    std::vector<std::vector<uint32_t>> lists; // map_mem: one node each; mask_mem: a mask's nodes
};

// --mem-bind's value (Slurm's syntax: "verbose,local", "map_mem:0,1", "prefer,mask_mem:0x3";
// sort and nosort accepted). Throws ParseError with Slurm's words for a token it does not know.
MemBind parse_mem_bind(std::string_view text);

// Each local task's NUMA nodes, given the node's CPUs and the CPUs each task is bound to (empty:
// unbound); an empty set means no policy. Throws ParseError for a map or mask naming no NUMA
// node of this node.
std::vector<std::vector<uint32_t>> task_mems(const MemBind &bind, const std::vector<CpuPlace> &node,
                                             const std::vector<std::vector<uint32_t>> &task_cpus);

// "mem-bind=TYPE - NODE, task GLOBAL LOCAL [PID]: mask 0xMASK set" ("mem-bind PREFER TYPE"
// with prefer; no " set" when no policy was set).
std::string mem_bind_verbose_line(const MemBind &bind, const std::string &node, uint32_t task,
                                  uint32_t local, long pid, const std::vector<uint32_t> &mems);

} // namespace drover
