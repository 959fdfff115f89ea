// request.hpp - what a job asks of select/cons_tres, read from its view with defaults applied.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drover/views.h>

#include "constraint.hpp"
#include "options.hpp"

namespace cons_tres {

// How much memory the job needs on each node.
enum class MemKind {
    None,      // nothing (memory is not consumable and the job asked for none)
    PerNode,   // mem_mb on every node (--mem, or DefMemPerNode)
    PerCpu,    // mem_mb for each CPU allocated there (--mem-per-cpu, or DefMemPerCPU)
    WholeNode, // all of the node's memory (memory consumable, no request, no default)
};

// One generic resource the job needs on a node: per_node + per_task * (its tasks there).
struct GresNeed {
    std::string name;
    std::string type; // empty = any type
    uint64_t per_node = 0;
    uint64_t per_task = 0;
};

struct Request {
    uint32_t job_id = 0;
    uint32_t tasks = 1; // at least min_nodes
    uint32_t cpus_per_task = 1;
    uint32_t min_nodes = 1; // at least the number of required nodes
    uint32_t max_nodes = DROVER_INFINITE;
    uint32_t ntasks_per_node = 0; // 0 = no cap
    uint32_t min_cpus = 0;        // --mincpus per node
    MemKind mem_kind = MemKind::None;
    uint64_t mem_mb = 0;
    uint64_t tmp_mb = 0;
    std::vector<GresNeed> gres;
    uint64_t gpus_total = 0; // --gpus, spread over the nodes
    Constraint constraint;
    std::vector<uint32_t> required; // node indexes (-w)
    std::vector<uint32_t> excluded; // node indexes (-x)
    bool contiguous = false;
    uint32_t share = DROVER_SHARE_CORES;

    bool exclusive() const { return share == DROVER_SHARE_EXCLUSIVE; }
    bool is_excluded(uint32_t node) const;
};

// Reads job with the plugin's options; node_count bounds the node bitmaps. Members the view
// lacks (an older core) read as not set. Throws std::invalid_argument for a request that can
// never be read (a bad --gres or --constraint), unless lenient is given: then the bad part is
// left out and *lenient says what it was.
Request make_request(const drover_job_view &job, const Options &opt, uint32_t node_count,
                     std::string *lenient = nullptr);

} // namespace cons_tres
