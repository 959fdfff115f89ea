// scontrol_hosts.hpp - scontrol show hostnames, hostlist and hostlistsorted: hostlist expressions
// expanded and written, here in the command, as job scripts call them on their nodes.
#pragma once

#include <span>
#include <string>

namespace drover::cli {

// scontrol show hostnames [EXPR]: each name of EXPR (SLURM_NODELIST when absent) on its own line.
// An expression that is not a hostlist is said on standard error, as Slurm says it; the status
// stays 0, as Slurm's does.
int show_hostnames(std::span<const std::string> rest);

// scontrol show hostlist|hostlistsorted NAMES: the names (a list, "-" for standard input, or the
// absolute path of a file of names) as one expression, in their order or sorted. Status 1, with
// Slurm's message, when there are none or they cannot be read.
int show_hostlist(std::span<const std::string> rest, bool sorted);

} // namespace drover::cli
