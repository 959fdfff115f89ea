// scontrol_pids.hpp - scontrol listpids [JOBID[.STEPID]] [NODENAME]: the processes of the job
// steps a node daemon runs (this host's, unless NODENAME is given), as Slurm prints them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace drover::proto {
struct StepPidsResponse;
}

namespace drover::cli {

// What listpids was asked for: a job ("12"), a step ("12.0", "12.batch"), or every one ("*" or
// nothing): NO_VAL where not given. Throws ParseError for an id that is not one, in Slurm's words
// ("\"x\" does not look like a jobid").
struct PidsTarget {
    uint32_t job_id = 0xfffffffeu;
    uint32_t step_id = 0xfffffffeu;
};
PidsTarget parse_pids_target(const std::string &spec);

// The table: Slurm's header, then per step its tasks' pids in local order (with their local and
// global task ids), then its other processes ("-" for both).
std::string listpids_text(const proto::StepPidsResponse &r);

// Why nothing was listed (for standard error), or nullopt when something was.
std::optional<std::string> listpids_empty(const proto::StepPidsResponse &r, const PidsTarget &t,
                                          const std::string &node);

// The command (scontrol_listpids.cpp): asks the node daemon and prints; 0, or 1 after saying why
// on standard error.
int list_pids(std::span<const std::string> rest);

} // namespace drover::cli
