// kill_body.hpp - the body of DELETE /slurm/vX/jobs (slurmrestd's kill_jobs_msg) as the scancel
// request it stands for: the jobs named, the signal and the filters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drover::restd {

struct KillBody {
    std::vector<std::string> jobs; // "12", "20_3", "93+1", as scancel takes them
    int signal = 9;                // SIGKILL (cancel) unless "signal" names another
    std::string job_name, partition, user_name;
    std::vector<uint32_t> states; // "job_state": base states
    bool batch_only = false;      // flags BATCH_JOB (scancel -b)
    bool full = false;            // flags FULL_JOB (scancel -f)
};

// Throws BadRequest (submit_body.hpp) naming the field for malformed JSON, a wrong type, an
// unknown field, signal or state, or a body that names no job and no filter.
KillBody parse_kill_body(std::string_view json);

} // namespace drover::restd
