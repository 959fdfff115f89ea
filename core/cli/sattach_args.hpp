// sattach_args.hpp - sattach's options and the step it attaches to; no I/O, so tests and the
// fuzzer can drive it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "cli/options.hpp"

namespace drover::cli {

struct SattachArgs : CommonFlags {
    uint32_t job_id = 0, step_id = 0;
    // --input-filter, --output-filter, --error-filter: one task; nullopt: every task ("-").
    std::optional<uint32_t> input_filter, output_filter, error_filter;
    bool label = false, layout = false, pty = false, quiet = false;
};

// Parses sattach's arguments (options stop at the step). Throws UsageError for an unknown
// option, drover::ParseError with Slurm's words for the rest: "too many parameters", "Failed
// to parse stepid from command line options", "Invalid numeric value \"x\" for output-filter.",
// "don't specify both --pty and I/O filtering", "don't specify both --verbose (-v) and --quiet
// (-Q)". An --output-filter alone filters stderr too.
SattachArgs parse_sattach_args(std::span<const std::string> args);

inline constexpr const char *kSattachUsage = "Usage: sattach [options] <jobid.stepid>\n";

} // namespace drover::cli
