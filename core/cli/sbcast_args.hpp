// sbcast_args.hpp - sbcast's options, the SBCAST_* variables that set their defaults, and where
// DEST lands; no I/O, so tests and the fuzzer can drive it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.hpp"

namespace drover::cli {

struct SbcastArgs : CommonFlags {
    std::string source, dest;      // dest as written (resolve_bcast_dest makes it absolute)
    uint32_t job_id = 0;           // -j or SLURM_JOB_ID; 0: none
    uint32_t step_id = 0xfffffffe; // -j J.S; NO_VAL: the job's nodes
    std::string compress;          // -C's library ("lz4", "none"); accepted, sent as is
    std::string exclude;           // --exclude
    bool force = false, preserve = false, send_libs = false;
    uint32_t fanout = 0;               // -F; 0: TreeWidth
    uint32_t block_size = 8u << 20;    // -s
    uint32_t timeout_ms = 0;           // -t; 0: MessageTimeout
    std::vector<std::string> warnings; // "Ignoring unrecognized --send-libs value 'x'"
};

// Parses sbcast's arguments; env is the caller's environment (SBCAST_*, SLURM_JOB_ID). Throws
// UsageError for an unknown option, drover::ParseError for "Need two file names, have N names",
// a bad job id or one missing ("Need a job id to run this command. ...").
SbcastArgs parse_sbcast_args(std::span<const std::string> args,
                             const std::vector<std::pair<std::string, std::string>> &env);

// Where a relative destination goes: BcastParameters' DestDir= when set, else cwd.
std::string bcast_dest_dir(const std::string &bcast_parameters, const std::string &cwd);

// DEST as the nodes write it: an absolute path as is; a relative one under BcastParameters'
// DestDir= when set, else under cwd. Throws ParseError for a path ending in '/' ("Target filename
// cannot be a directory.").
std::string resolve_bcast_dest(const std::string &dest, const std::string &bcast_parameters,
                               const std::string &cwd);

// "8m", "512k", "4096" as sbcast's -s takes them; 0 for a bad one (the default block size).
uint32_t bcast_block_size(const std::string &v);

} // namespace drover::cli
