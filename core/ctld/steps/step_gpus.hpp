// step_gpus.hpp - the GPUs a step gets on each node of its layout: what srun asked for (-G,
// --gpus-per-node, --gpus-per-task, --gres=gpu:N) out of the job's GPUs there that no other step
// holds. A pure function of the request, the layout and what is held, so it is tested alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ctld/steps/step_layout.hpp"

namespace drover::ctld {

struct StepGpuAsk {
    bool given = false; // none given: the step sees every GPU of the job and holds none
    uint32_t total = 0, per_node = 0, per_task = 0;
};

// The ask from the request's counts and its --gres (whose gpu count is per node; "none" or a
// zero count asks for no GPU at all).
StepGpuAsk step_gpu_ask(uint32_t gpus, uint32_t per_node, uint32_t per_task,
                        const std::string &gres);

struct NodeGpus {
    std::vector<uint32_t> job;  // the job's GPU indexes on the node, ascending
    std::vector<uint32_t> held; // those running steps hold
};

struct StepGpus {
    std::vector<std::vector<uint32_t>> seen; // per layout node: the GPUs the step sees
    std::vector<std::vector<uint32_t>> held; // per layout node: those it takes from others
};

// Picks the step's GPUs on each node of lay (nodes indexes job_gpus by job node position).
// --overlap (overlap) takes GPUs others hold too and holds none. DROVER_ENOSPC: the job has too
// few GPUs; DROVER_EBUSY: running steps hold them (in Slurm's words).
Status pick_step_gpus(const StepGpuAsk &ask, const StepLayout &lay,
                      const std::vector<NodeGpus> &job_gpus, bool overlap, StepGpus *out);

} // namespace drover::ctld
