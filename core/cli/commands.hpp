// commands.hpp - the entry point of each command the drover binary runs.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "common/version.hpp"

namespace drover::cli {

// "slurm 23.11.0\n": what every command's --version (and scontrol version) prints, in Slurm's
// form, naming the Slurm release Drover follows (Drover's own version: scontrol show config).
inline std::string version_line() {
    return std::string("slurm ") + kSlurmRelease + "\n";
}

// Each takes its arguments without argv[0] and returns the exit status.
int sbatch_main(std::span<const std::string> args);
int squeue_main(std::span<const std::string> args);
int scancel_main(std::span<const std::string> args);
int sinfo_main(std::span<const std::string> args);
int scontrol_main(std::span<const std::string> args);
int sacct_main(std::span<const std::string> args);
int srun_main(std::span<const std::string> args);
int salloc_main(std::span<const std::string> args);
int sstat_main(std::span<const std::string> args);
int sacctmgr_main(std::span<const std::string> args);
int sdiag_main(std::span<const std::string> args);
int sbcast_main(std::span<const std::string> args);
int sattach_main(std::span<const std::string> args);
int sreport_main(std::span<const std::string> args);
int sprio_main(std::span<const std::string> args);
int sshare_main(std::span<const std::string> args);

} // namespace drover::cli
