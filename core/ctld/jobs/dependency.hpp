// dependency.hpp - job dependencies as sbatch --dependency writes them: "afterok:12:13",
// "after:5+10", "afterany:7_3", "singleton", several terms joined by ',' (all must hold) or '?'
// (any may hold).
#pragma once

#include "common/status.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover::ctld {

enum class DepType : uint8_t { After, AfterAny, AfterOk, AfterNotOk, AfterCorr, Singleton };

struct DepTerm {
    DepType type = DepType::AfterAny;
    uint32_t job_id = 0;
    uint32_t task_id = 0xfffffffeu; // a task of an array ("12_3"); NO_VAL: the whole job
    uint32_t delay_min = 0;         // "+N": minutes after the condition holds
};

struct Dependency {
    std::vector<DepTerm> terms;
    bool any = false; // joined by '?'
    bool empty() const { return terms.empty(); }
    // As Slurm prints it: "afterok:12_3,afterany:14".
    std::string to_string() const;
};

// Parses a --dependency value. Throws ParseError ("invalid dependency 'x': ...").
Dependency parse_dependency(std::string_view text);

// A job's --dependency (or scontrol update Dependency=) as written and parsed into x; EINVAL "Job
// dependency problem" when it does not parse. A job it names that the controller does not have
// (never, or purged) is accepted, and counts as satisfied, as in Slurm; the job itself (self, for
// an update; 0 at submission) is refused, since it could never start.
Status read_dependency(const std::string &text, uint32_t self, std::string *written,
                       Dependency *parsed);

// How a term stands now.
enum class DepState : uint8_t { Waiting, Satisfied, Never };

} // namespace drover::ctld
