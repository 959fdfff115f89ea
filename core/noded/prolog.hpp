// prolog.hpp - Prolog and Epilog: programs the admin names in slurm.conf, run as root on each
// node of a job (before its first process there, and after its end).
#pragma once

#include <cstdint>
#include <string>

namespace drover::noded {

// Runs path with the job's basic SLURM_* variables and waits for it; returns its wait status.
int run_script(const std::string &path, uint32_t job_id, uint32_t uid, const std::string &user,
               const std::string &nodes, const std::string &node = {});

} // namespace drover::noded
