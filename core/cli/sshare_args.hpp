// sshare_args.hpp - sshare's options as Slurm 23.11 reads them: -a, -A, -e, -h/-n, -l, -m, -M,
// -o, -p, -P, -u, -U, -v, -V, --help, --usage; --json, --yaml and --autocomplete, which Drover
// refuses; -q and -t, which Slurm's parser takes and its sshare then rejects. Lists are read as
// Slurm's slurm_addto_char_list reads them (split at commas, each item once; accounts and format
// items lower-cased).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cli/field_layout.hpp"
#include "cli/options.hpp"

namespace drover::cli {

struct SshareArgs : CommonFlags {
    bool all_users = false;                  // -a, or -u -1 (a later -u NAME takes it back)
    bool long_format = false;                // -l
    bool noheader = false;                   // -n, -h
    bool partitions = false;                 // -m: the Partition column
    bool users_only = false;                 // -U: no account lines
    bool help_format = false;                // -e, --helpformat: list the fields and stop
    FieldLayout layout = FieldLayout::fixed; // -p, -P (the last one given wins)
    std::vector<std::string> accounts;       // -A: lower-cased, each once
    std::vector<std::string> users;          // -u: as written, each once; a number is a uid
    std::vector<std::string> format;         // -o (all of them): lower-cased items, each once
    std::vector<std::string> clusters;       // -M: accepted; the controller serves its own
    // -q or -t: Slurm's getopt takes them, then sshare prints "getopt error, returned <c>" and
    // exits 1. 0 when neither was given.
    char getopt_error = 0;
};

// Throws UsageError for an unknown option or a missing argument, and drover::ParseError for an
// option Drover does not implement (--json, --yaml, --autocomplete). Words that are not options
// are ignored, as Slurm's sshare ignores them.
SshareArgs parse_sshare_args(std::span<const std::string> args);

// What -v writes to stderr before asking: "Users requested:" and "Accounts requested:", each
// followed by "\t: <name>" lines ("\t: all" for all of them). users are the users asked for (the
// uids of -u already named); caller is asked for when neither -a nor -u is given.
std::string sshare_verbose_text(const SshareArgs &a, const std::vector<std::string> &users,
                                const std::string &caller);

} // namespace drover::cli
