// choose.hpp - picking a job's set of nodes among candidates that can each host some of it.
//
// Policy (deterministic):
//   - nodes of the lowest weight first: a heavier node is used only when the lighter ones
//     (all lighter weights together) cannot hold the job;
//   - required nodes always, then, for each a*N term, nodes with a until N of the set have it;
//   - as few nodes as the job's tasks (and --gpus) allow, but at least min_nodes;
//   - among the nodes that keep the job feasible, best fit first: fewest free CPUs, then the
//     lowest index, so partly used nodes fill up before empty ones are broken into;
//   - contiguous jobs take a window of consecutive indexes: the lightest (by its heaviest
//     node), then the shortest, then the lowest.
#pragma once

#include <cstdint>
#include <vector>

namespace cons_tres {

struct Cand {
    uint32_t node = 0; // node index
    uint32_t weight = 0;
    uint32_t cap = 0;       // tasks it can host (>= 1)
    uint32_t free_cpus = 0; // for best fit
    uint64_t gpus = 0;      // GPUs it can give to --gpus
    uint32_t counted = 0;   // bit t: it has the feature of the job's t-th a*N term
};

struct Need {
    uint64_t tasks = 1;
    uint32_t min_nodes = 1;
    uint32_t max_nodes = 0xffffffffu;
    uint64_t gpus = 0;
    std::vector<uint32_t> counts; // per a*N term: N
    bool contiguous = false;
};

// cands in node index order; required: node indexes that must be chosen (each must be among
// cands). Sets nodes (ascending) and returns true, or returns false.
bool choose_nodes(const std::vector<Cand> &cands, const std::vector<uint32_t> &required,
                  const Need &need, std::vector<uint32_t> &nodes);

} // namespace cons_tres
