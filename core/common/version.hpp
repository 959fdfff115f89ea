// version.hpp - Drover's own version, and the Slurm release whose behaviour it follows: what
// every command's --version, scontrol show config's SLURM_VERSION and the JSON output's meta
// say, since tools parse them as Slurm writes them ("slurm 23.11.0").
#pragma once

namespace drover {

inline constexpr const char *kDroverVersion = "0.1.0";

inline constexpr int kSlurmMajor = 23, kSlurmMinor = 11, kSlurmMicro = 0;
inline constexpr const char *kSlurmRelease = "23.11.0";

} // namespace drover
