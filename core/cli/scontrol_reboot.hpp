// scontrol_reboot.hpp - scontrol reboot and cancel_reboot: print nothing when done, Slurm's words
// when refused; return the exit status.
#pragma once

#include <span>
#include <string>

namespace drover::cli {

// reboot [ASAP] [nextstate=RESUME|DOWN] [reason=TEXT] ALL|NODES (words: what follows "reboot").
int reboot_nodes(std::span<const std::string> words);
// cancel_reboot NODES.
int cancel_reboot(std::span<const std::string> words);

} // namespace drover::cli
