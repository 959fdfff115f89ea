// step_env.hpp - the environment of a step's tasks: srun's, with the step's SLURM_* variables
// set from the credential (which srun cannot forge) and this node's place in the step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "proto/message_generated.h"

namespace drover::noded {

// "KEY=value" strings shared by every task of the step on this node (per-task SLURM_PROCID,
// SLURM_LOCALID and SLURM_TASK_PID are added by the shepherd); tasks are this node's.
std::vector<std::string> step_environment(const proto::StepCred &cred,
                                          const proto::StepLaunchRequest &req, uint32_t node_index,
                                          const std::string &node,
                                          const std::vector<uint32_t> &tasks);

} // namespace drover::noded
