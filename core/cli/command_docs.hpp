// command_docs.hpp - what each command says about itself (its option table and help text),
// gathered for what is generated from them: man pages (drover --man) and bash completion
// (drover --completion). The tables are the ones the commands parse with, so neither can drift.
#pragma once

#include <span>
#include <string_view>

#include "cli/options.hpp"

namespace drover::cli {

struct CommandDoc {
    std::string_view name;
    int section;                      // 1: a command, 8: a daemon
    std::string_view summary;         // the man page's NAME line
    std::span<const OptSpec> options; // empty for the daemons: their help lists their options
    std::string_view help;            // what --help (or --usage) prints
};

// Every command of the drover binary, then the two daemons.
std::span<const CommandDoc> command_docs();
const CommandDoc *find_command_doc(std::string_view name);

// Each command's option table and help text, defined beside them.
std::span<const OptSpec> sacct_options();
std::span<const OptSpec> sacctmgr_options();
std::span<const OptSpec> sattach_options();
std::span<const OptSpec> sbatch_options();
std::span<const OptSpec> sbcast_options();
std::span<const OptSpec> scancel_options();
std::span<const OptSpec> scontrol_options();
std::span<const OptSpec> sdiag_options();
std::span<const OptSpec> sinfo_options();
std::span<const OptSpec> sprio_options();
std::span<const OptSpec> squeue_options();
std::span<const OptSpec> sreport_options();
std::span<const OptSpec> srun_options(); // salloc's too
std::span<const OptSpec> sshare_options();
std::span<const OptSpec> sstat_options();
std::string_view sacct_help();
std::string_view sacctmgr_help();
std::string_view sattach_help();
std::string_view sbatch_help();
std::string_view sbcast_help();
std::string_view scancel_help();
std::string_view scontrol_help();
std::string_view sdiag_help();
std::string_view sinfo_help();
std::string_view sprio_help();
std::string_view squeue_help();
std::string_view sreport_help();
std::string_view srun_help();
std::string_view salloc_help();
std::string_view sshare_help();
std::string_view sstat_help();

} // namespace drover::cli
