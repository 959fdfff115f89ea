// job_states.hpp - job state names as squeue, scontrol and sacct print and accept them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drover::cli {

// JobInfo.state is a drover_job_state base in the low byte; the controller may OR in these
// flags, which use Slurm's bit values.
inline constexpr uint32_t kJobStateBase = 0xff;
inline constexpr uint32_t kJobFlagRequeued = 0x400;
inline constexpr uint32_t kJobFlagSpecialExit = 0x1000;
inline constexpr uint32_t kJobFlagConfiguring = 0x4000;
inline constexpr uint32_t kJobFlagCompleting = 0x8000;
inline constexpr uint32_t kJobFlagRevoked = 0x00080000; // a federated job's copy not run here

// Pseudo states that -t/--states may name besides the base states.
inline constexpr uint32_t kStateCompleting = 0x100;
inline constexpr uint32_t kStateConfiguring = 0x101;
inline constexpr uint32_t kStateRequeued = 0x102;
inline constexpr uint32_t kStateSpecialExit = 0x103;
inline constexpr uint32_t kStateRevoked = 0x104;

// "RUNNING", "COMPLETING", "OUT_OF_MEMORY", ...
const char *job_state_long(uint32_t state);
// "R", "CG", "OOM", ...
const char *job_state_compact(uint32_t state);

// Pending, running or suspended, or still completing/configuring: what squeue shows by default.
bool job_is_active(uint32_t state);
// Ended for good: what sbatch --wait waits for.
bool job_is_finished(uint32_t state);

// One -t/--states entry (long or compact name, any case) as a base state or a kState* pseudo
// state; nullopt when unknown.
std::optional<uint32_t> parse_job_state(std::string_view name);

// A parsed -t list. Empty = no filter; "all" sets all.
struct JobStateFilter {
    bool all = false;
    std::vector<uint32_t> states; // base states and kState* pseudo states
    bool empty() const { return !all && states.empty(); }
    bool matches(uint32_t state) const;
};

// Parses "PD,R" / "pending,running" / "all". Throws drover::ParseError("Invalid job state
// specified: X") for an unknown name.
JobStateFilter parse_job_state_list(std::string_view list);

// The names listed after an invalid state, comma-separated.
std::string valid_job_state_names();

// A raw wait status as "code:signal" ("0:0", "1:0", "0:9").
std::string exit_code_string(int32_t wait_status);

} // namespace drover::cli
