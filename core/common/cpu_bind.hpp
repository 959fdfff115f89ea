// cpu_bind.hpp - srun's --cpu-bind and the CPUs each task of a step is bound to on a node, as
// Slurm's task/affinity computes them: from the node's topology (sockets, cores, threads), the
// CPUs the step holds there, its tasks there, their CPUs each (-c) and the distribution across
// sockets (-m's second level: block, cyclic or fcyclic; cyclic by default).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover {

struct CpuBind {
    enum Kind { unset, none, rank, map_cpu, mask_cpu, rank_ldom, map_ldom, mask_ldom };
    enum Level { any, sockets, cores, threads, ldoms }; // what automatic binding binds to
    Kind kind = unset;
    Level level = any;
    bool verbose = false;
    std::vector<std::vector<uint32_t>> lists; // map_*: one id each; mask_*: the ids of a mask
};

// --cpu-bind's value (Slurm's syntax: "verbose,cores", "map_cpu:0,2", "mask_cpu:0x3*2,0xc").
// Throws ParseError with Slurm's words for a token it does not know.
CpuBind parse_cpu_bind(std::string_view text);

// One CPU of a node and where it sits.
struct CpuPlace {
    uint32_t os = 0;     // the id the kernel knows it by
    uint32_t socket = 0; // its socket (and, as Slurm without NUMA, its locality domain)
    uint32_t core = 0;   // its core, numbered across the node
    uint32_t numa = 0;   // its NUMA node (the kernel's number), for --mem-bind
};

// A node of sockets x cores x threads numbered as Slurm numbers CPUs it has no topology for:
// socket-major, then core, then thread; one NUMA node (0), as the host an emulated node runs on
// may have no other.
std::vector<CpuPlace> uniform_topology(uint32_t sockets, uint32_t cores, uint32_t threads);

struct BindLayout {
    std::vector<CpuPlace> node; // every CPU of the node
    std::vector<uint32_t> step; // the step's CPUs here (os ids); empty: every CPU
    uint32_t tasks = 0;         // the step's tasks here
    uint32_t cpus_per_task = 1;
    std::string distribution;      // -m's socket level: "block", "cyclic" (default), "fcyclic"
    uint32_t threads_per_core = 0; // --threads-per-core: use only so many of each core; 0: all
    // --ntasks-per-socket: at most so many tasks start on a socket before the others have as
    // many; 0: no limit.
    uint32_t tasks_per_socket = 0;
};

// Each local task's CPUs (os ids, sorted); an empty set means unbound. Throws ParseError when
// the binding cannot be applied (a map naming no CPU of the node).
std::vector<std::vector<uint32_t>> task_cpus(const CpuBind &bind, const BindLayout &layout);

// "0x" and the mask of cpus in lowercase hex without leading zeros, as Slurm prints masks.
std::string cpu_mask_hex(const std::vector<uint32_t> &cpus);

// The line --cpu-bind=verbose writes on a task's standard error before it runs:
// "cpu-bind[-LEVEL]=TYPE - NODE, task GLOBAL LOCAL [PID]: mask 0xMASK set".
std::string cpu_bind_verbose_line(const CpuBind &bind, const std::string &node, uint32_t task,
                                  uint32_t local, long pid, const std::vector<uint32_t> &cpus);

} // namespace drover
