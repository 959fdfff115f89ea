// mpmd.hpp - `srun [OPTIONS] PROG ARGS : [-n N] PROG ARGS ...`: one step whose tasks run the
// components' programs in turn (the first component's tasks first), as one MPI world under
// --mpi. The step is launched as a --multi-prog configuration srun writes itself.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cli/srun_opts.hpp"

namespace drover::cli {

// args split at each ":" that stands alone; one part when there is none.
std::vector<std::span<const std::string>> mpmd_components(std::span<const std::string> args);

// The step's request: the first component's options, the sum of the components' tasks (-n, 1
// when not given) and the --multi-prog text that gives each task its program. env is srun's
// (SLURM_NTASKS is not taken: each component says its own). Throws what parse_srun throws, and
// ParseError for a component with no program.
SrunRequest mpmd_request(const std::vector<std::span<const std::string>> &components,
                         std::vector<std::pair<std::string, std::string>> env);

} // namespace drover::cli
