// job_signal_spec.hpp - sbatch --signal=[{R|B}:]SIG[@TIME]: which signal to send how many seconds
// before a job's time limit, and whether only to the batch shell.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace drover::ctld {

// Signal names without "SIG" (USR1, TERM, ...) or with it, or numbers; 0 when unknown.
int signal_number(std::string_view name);

// Parses the spec; TIME defaults to 60 seconds. Returns false when malformed.
bool parse_signal_spec(std::string_view spec, int *sig, uint32_t *secs, bool *batch_only);

} // namespace drover::ctld
