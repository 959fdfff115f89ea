// alloc.hpp - what a job holds on each of its nodes, how it is worked out from the node set,
// and taking and giving it back.
//
// The split of a job over its nodes depends only on the nodes, the request and what other
// jobs hold, so job_test and job_begin (and job_begin replayed after a restart, in the same
// order) work out the same split: tasks go one per node, then fill nodes in index order up to
// what each can host; CPUs are taken by lowest id (whole cores under CR_Core); GPUs and other
// generic resources by lowest index (typed requests first).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "node_res.hpp"
#include "options.hpp"
#include "request.hpp"

namespace cons_tres {

struct NodeAlloc {
    uint32_t node = 0;
    uint32_t tasks = 0;
    std::vector<uint32_t> cpu_ids; // ascending
    uint64_t mem_mb = 0;           // held (0 when memory is not consumable)
    std::vector<std::pair<std::string, std::vector<uint32_t>>> gres; // name -> indexes
};

struct JobAlloc {
    uint32_t job_id = 0;
    bool exclusive = false;
    bool suspended = false;       // its CPUs (and its claim on the nodes) are given back meanwhile
    std::vector<NodeAlloc> nodes; // by node index

    const NodeAlloc *on(uint32_t node) const;
};

// Works out job's allocation on nodes (ascending indexes) given what others hold. Where the
// nodes cannot hold it (a replay that does not match, or a core that starts a job select did not
// choose) it takes what it needs anyway, sharing CPUs or GPUs, and says so in warnings.
JobAlloc place(const std::vector<NodeRes> &table, const Options &opt, const Request &req,
               const std::vector<uint32_t> &nodes, std::vector<std::string> &warnings);

// Records a's holdings on the nodes, or gives them back (of a suspended job, what it still holds).
void hold(std::vector<NodeRes> &table, const JobAlloc &a);
void release(std::vector<NodeRes> &table, const JobAlloc &a);
// What a suspended job gives up and takes back on resume, as Slurm's cons_tres does: its CPUs and
// its claim on the nodes (exclusive or shared); its memory and generic resources stay held.
void hold_cpus(std::vector<NodeRes> &table, const JobAlloc &a, bool take);

// "0-3,8" from ascending ids.
std::string id_list(const std::vector<uint32_t> &ids);
// "gpu:0-1,nic:0"
std::string gres_list(const NodeAlloc &a);

} // namespace cons_tres
