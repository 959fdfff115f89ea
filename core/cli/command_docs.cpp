// command_docs.cpp - the table of every program's documentation sources (command_docs.hpp).
#include "cli/command_docs.hpp"

#include <vector>

#include "common/daemon_help.hpp"

namespace drover::cli {

std::span<const CommandDoc> command_docs() {
    static const std::vector<CommandDoc> docs = {
        {"sbatch", 1, "submit a batch script", sbatch_options(), sbatch_help()},
        {"squeue", 1, "list the jobs and steps in the queue", squeue_options(), squeue_help()},
        {"scancel", 1, "signal or cancel jobs and steps", scancel_options(), scancel_help()},
        {"sinfo", 1, "show partitions and nodes", sinfo_options(), sinfo_help()},
        {"scontrol", 1, "show and change jobs, nodes, partitions, reservations and the controller",
         scontrol_options(), scontrol_help()},
        {"sacct", 1, "show the accounting records of jobs and steps", sacct_options(),
         sacct_help()},
        {"srun", 1, "run a job step, in an allocation or in one it makes", srun_options(),
         srun_help()},
        {"salloc", 1, "make an allocation and run a command in it", srun_options(), salloc_help()},
        {"sstat", 1, "show what running steps use", sstat_options(), sstat_help()},
        {"sacctmgr", 1, "manage clusters, accounts, users, associations and QOS",
         sacctmgr_options(), sacctmgr_help()},
        {"sdiag", 1, "show the controller's statistics", sdiag_options(), sdiag_help()},
        {"sbcast", 1, "copy a file to the nodes of a job", sbcast_options(), sbcast_help()},
        {"sattach", 1, "attach to the standard streams of a running step", sattach_options(),
         sattach_help()},
        {"sreport", 1, "reports made from the accounting records", sreport_options(),
         sreport_help()},
        {"sprio", 1, "show the priority factors of pending jobs", sprio_options(), sprio_help()},
        {"sshare", 1, "show the fair-share usage of associations", sshare_options(), sshare_help()},
        {"droverctld", 8, "the Drover controller", {}, kCtldHelp},
        {"droverd", 8, "the Drover node daemon", {}, kNodedHelp},
        {"drover-restd", 8, "the Drover REST daemon (slurmrestd's paths)", {}, kRestdHelp},
    };
    return docs;
}

const CommandDoc *find_command_doc(std::string_view name) {
    for (const auto &d : command_docs())
        if (d.name == name) return &d;
    return nullptr;
}

} // namespace drover::cli
