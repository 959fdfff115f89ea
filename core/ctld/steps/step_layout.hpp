// step_layout.hpp - where a step's tasks go inside its job's allocation: which of the job's nodes,
// how many tasks and CPUs on each, and which task ids (block, cyclic, plane or arbitrary). A pure
// function of the request and the CPUs free on each node, so it is tested alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace drover::ctld {

struct StepShape {
    uint32_t num_tasks = 1;
    uint32_t min_nodes = 0, max_nodes = 0; // 0 = not given
    uint32_t cpus_per_task = 1;
    uint32_t ntasks_per_node = 0;
    bool exact = false;      // only the CPUs the tasks need (else all the job's CPUs on each node)
    bool overlap = false;    // uses CPUs without taking them from other steps
    bool overcommit = false; // -O: more tasks than CPUs, spread over the nodes picked
    bool cyclic = false;
    uint32_t plane = 0;        // -m plane=N: tasks go N at a time to each node in turn
    std::vector<bool> allowed; // per job node (-w/-x); empty = all
    // -m arbitrary: task i's job node position (the host list's order); empty: not arbitrary.
    std::vector<uint32_t> arbitrary;
};

struct NodeCpus {
    uint32_t total = 0; // the job's CPUs on the node
    uint32_t free = 0;  // not held by a running step
};

struct StepLayout {
    std::vector<uint32_t> nodes; // positions in the job's node list, ascending
    std::vector<uint32_t> tasks_per_node;
    std::vector<uint32_t> cpus_per_node;
    std::vector<std::vector<uint32_t>> task_ids; // per node
};

// Lays the step out on the job's nodes: OK with out set; DROVER_EBUSY ("Requested nodes are
// busy") when it would fit once running steps end; DROVER_ENOSPC when it never fits this job (the
// text says so, in Slurm's words).
Status layout_step(const StepShape &shape, const std::vector<NodeCpus> &nodes, StepLayout *out);

} // namespace drover::ctld
