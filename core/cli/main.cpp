// main.cpp - the multi-call binary: runs the command its name (or its first argument) names.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_docs.hpp"
#include "cli/commands.hpp"
#include "cli/completion.hpp"
#include "cli/man_page.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/text.hpp"

using namespace drover::cli;

namespace {

struct Command {
    const char *name;
    int (*run)(std::span<const std::string>);
};

constexpr Command kCommands[] = {
    {"sbatch", sbatch_main},     {"squeue", squeue_main},     {"scancel", scancel_main},
    {"sinfo", sinfo_main},       {"scontrol", scontrol_main}, {"sacct", sacct_main},
    {"srun", srun_main},         {"salloc", salloc_main},     {"sstat", sstat_main},
    {"sacctmgr", sacctmgr_main}, {"sdiag", sdiag_main},       {"sbcast", sbcast_main},
    {"sattach", sattach_main},   {"sreport", sreport_main},   {"sprio", sprio_main},
    {"sshare", sshare_main},
};

int usage() {
    std::string msg = "Usage: drover <command> [options]\nCommands:";
    for (const auto &c : kCommands) msg.append(" ").append(c.name);
    msg += "\nOr run it through a link named after the command (sbatch, squeue, ...).\n"
           "drover --man NAME prints the man page of a command or daemon; drover --completion\n"
           "prints the bash completion script.\n";
    write_err(msg);
    return 1;
}

// drover --man NAME, drover --completion: what the build installs as man pages and completion.
int generated(const std::vector<std::string> &args) {
    if (args[0] == "--completion") {
        write_out(bash_completion(command_docs(), scontrol_words()));
        return 0;
    }
    const CommandDoc *doc = args.size() == 2 ? find_command_doc(args[1]) : nullptr;
    if (!doc) {
        write_err("drover: --man takes the name of a command or daemon\n");
        return 1;
    }
    write_out(man_page(*doc, command_docs()));
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    std::string_view prog = argc > 0 && argv[0] ? argv[0] : "drover";
    if (auto slash = prog.rfind('/'); slash != std::string_view::npos)
        prog.remove_prefix(slash + 1);
    std::vector<std::string> args;
    args.reserve(argc > 1 ? std::size_t(argc - 1) : 0);
    for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);

    if (prog == "drover") {
        if (args.empty()) return usage();
        if (args[0] == "--version" || args[0] == "-V") {
            write_out(std::string("drover ") + drover::kDroverVersion + " (slurm " +
                      drover::kSlurmRelease + ")\n");
            return 0;
        }
        if (args[0] == "--help" || args[0] == "-h") {
            usage();
            return 0;
        }
        if (args[0] == "--man" || args[0] == "--completion") return generated(args);
        prog = argv[1];
        args.erase(args.begin());
    }
    for (const auto &c : kCommands)
        if (prog == c.name) return c.run(args);
    write_err("drover: unknown command '" + std::string(prog) + "'\n");
    return usage();
}
