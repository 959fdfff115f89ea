// step_env.hpp - the environment of a step's tasks: srun's, with the step's SLURM_* variables
// set from the credential (which srun cannot forge) and this node's place in the step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/cpu_bind.hpp"
#include "common/status.hpp"
#include "noded/shepherd.hpp"
#include "proto/message_generated.h"

namespace drover {
struct Config;
}

namespace drover::noded {

// "KEY=value" strings shared by every task of the step on this node (per-task SLURM_PROCID,
// SLURM_LOCALID and SLURM_TASK_PID are added by the shepherd); tasks are this node's.
std::vector<std::string> step_environment(const proto::StepCred &cred,
                                          const proto::StepLaunchRequest &req, uint32_t node_index,
                                          const std::string &node,
                                          const std::vector<uint32_t> &tasks);

// The step's ranks node by node (in the credential's node order), from the request's task layout.
std::vector<std::vector<uint32_t>> ranks_by_node(const proto::StepLaunchRequest &req);

// Each task's GPUs here under --gpu-bind (req.gpu_bind; none: all the step's): fills every
// task's CUDA_VISIBLE_DEVICES and GPU_DEVICE_ORDINAL (overriding the step's), and with
// "verbose" the line the task prints on its standard error. relative: ConstrainDevices is on, so
// a task numbers the step's GPUs from 0. Fails (DROVER_EINVAL) when the binding cannot be made
// (a bad spec). closest takes each task's cores from its bound CPUs (bind_task_cpus first) on
// topology and each GPU's from gpu_cores.
Status bind_task_gpus(const proto::StepCred &cred, const proto::StepLaunchRequest &req,
                      uint32_t node_index, bool relative, const std::vector<CpuPlace> &topology,
                      const std::vector<std::string> &gpu_cores, std::vector<ShepherdTask> &tasks);

// TaskPlugin=task/affinity: each task's CPUs here under --cpu-bind (req.cpu_bind; none given:
// TaskPluginParam's default, else Slurm's automatic binding when the step's tasks fill its cores,
// threads or sockets here exactly), laid out on the node's topology; spec.cpu_bind gets the
// binding for the verbose lines. --ntasks-per-core binds to cores. --mem-bind (req.mem_bind)
// then gives each task its NUMA nodes (spec.mem_bind for the verbose lines). Nothing is bound
// without task/affinity. Fails (DROVER_EINVAL) when the binding cannot be made (a bad spec, a
// map naming CPUs or NUMA nodes the node does not have).
Status bind_task_cpus(const Config &conf, const std::vector<CpuPlace> &topology,
                      const proto::StepCred &cred, const proto::StepLaunchRequest &req,
                      uint32_t node_index, ShepherdSpec &spec);

} // namespace drover::noded
