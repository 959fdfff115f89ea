// reboot.hpp - the node's part of scontrol reboot: RebootProgram, started on its own (it takes
// the machine down, droverd with it), as slurmd runs it.
#pragma once

#include <sys/types.h>

#include <string>

namespace drover::noded {

// Starts command (slurm.conf's RebootProgram, run by /bin/sh) in a session of its own, with
// SLURMD_NODENAME=node and none of droverd's descriptors. Returns its pid (for the caller to
// reap), or -1 when it could not fork.
pid_t start_reboot_program(const std::string &command, const std::string &node);

} // namespace drover::noded
