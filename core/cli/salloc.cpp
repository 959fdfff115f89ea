// salloc.cpp - salloc: get an allocation, run a command (or the user's shell) with its
// environment here, and give the allocation back when the command exits.
#include <cerrno>
#include <csignal>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drover/views.h>

#include "cli/command_docs.hpp"
#include "cli/alloc.hpp"
#include "cli/clusters.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/rpc.hpp"
#include "cli/srun_opts.hpp"
#include "cli/srun_help.hpp"
#include "cli/text.hpp"
#include "common/hostlist.hpp"

namespace drover::cli {

namespace {

constexpr const char *kProg = "salloc";

const char *kUsage =
    "Usage: salloc [-N nnodes] [-n ntasks] [-c ncpus] [--mem=MB] [-J jobname] [-t time]\n"
    "              [-p partition] [-w hosts] [-x hosts] [--no-shell] [command [args...]]\n";

volatile sig_atomic_t g_child = 0;
void forward(int sig) {
    if (g_child > 0) ::kill(g_child, sig);
}

} // namespace

int salloc_main(std::span<const std::string> args) {
    SrunRequest r;
    if (auto done = parse_srun_command(args, kProg, kUsage, &r)) return *done;
    return guarded(kProg, [&] {
        Allocation a;
        if (!allocate(r, kProg, &a)) return 1;
        std::string id = std::to_string(a.job_id);
        if (r.no_shell) return 0;
        std::vector<std::string> argv = r.argv;
        if (argv.empty()) {
            const char *shell = ::getenv("SHELL");
            const passwd *pw = ::getpwuid(::getuid());
            argv.push_back(shell && *shell                       ? shell
                           : pw && pw->pw_shell && *pw->pw_shell ? pw->pw_shell
                                                                 : "/bin/sh");
        }
        std::vector<std::pair<std::string, std::string>> set = {
            {"SLURM_JOB_ID", id},
            {"SLURM_JOBID", id},
            {"SLURM_JOB_NAME", a.name},
            {"SLURM_JOB_NODELIST", a.node_list},
            {"SLURM_NODELIST", a.node_list},
            {"SLURM_JOB_NUM_NODES", std::to_string(a.nodes.size())},
            {"SLURM_NNODES", std::to_string(a.nodes.size())},
            {"SLURM_JOB_CPUS_PER_NODE", compress_counts(a.node_cpus)},
            {"SLURM_JOB_PARTITION", a.partition},
            {"SLURM_CLUSTER_NAME", target_config().cluster_name},
            {"SLURM_SUBMIT_HOST", short_host()},
            {"SLURM_CONF", cli_config().path},
        };
        // An allocation on another cluster (-M): srun and the other commands inside go there.
        if (std::string w = working_cluster_value(); !w.empty())
            set.push_back({"SLURM_WORKING_CLUSTER", w});
        if (r.num_tasks) {
            set.push_back({"SLURM_NTASKS", std::to_string(r.num_tasks)});
            set.push_back({"SLURM_NPROCS", std::to_string(r.num_tasks)});
        }
        if (r.cpus_per_task)
            set.push_back({"SLURM_CPUS_PER_TASK", std::to_string(r.cpus_per_task)});
        if (r.mem_per_node_mb)
            set.push_back({"SLURM_MEM_PER_NODE", std::to_string(r.mem_per_node_mb)});
        if (r.mem_per_cpu_mb)
            set.push_back({"SLURM_MEM_PER_CPU", std::to_string(r.mem_per_cpu_mb)});
        pid_t pid = ::fork();
        if (pid == 0) {
            for (const auto &[k, v] : set) ::setenv(k.c_str(), v.c_str(), 1);
            std::vector<char *> av;
            for (auto &x : argv) av.push_back(x.data());
            av.push_back(nullptr);
            ::execvp(av[0], av.data());
            print_error(kProg, "Unable to exec command \"" + argv[0] + "\"");
            ::_exit(127);
        }
        g_child = pid;
        struct sigaction sa {};
        sa.sa_handler = forward;
        for (int sig : {SIGHUP, SIGTERM, SIGUSR1, SIGUSR2}) ::sigaction(sig, &sa, nullptr);
        ::signal(SIGINT, SIG_IGN); // Ctrl-C belongs to the command (the shell handles it)
        int status = 0;
        bool revoked = false;
        // Waits for the command; every two seconds checks that the allocation still stands
        // (scancel or the time limit can end it): if not, says so and ends the command.
        for (int tick = 0;; ++tick) {
            pid_t w = ::waitpid(pid, &status, WNOHANG);
            if (w == pid || (w < 0 && errno != EINTR)) break;
            ::usleep(100000);
            if (tick % 20 != 19 || revoked) continue;
            if (job_state(a.job_id) != DROVER_JOB_RUNNING) {
                revoked = true;
                write_err(std::string(kProg) + ": Job allocation " + id + " has been revoked.\n");
                ::kill(pid, SIGHUP);
                ::kill(pid, SIGTERM);
            }
        }
        if (!r.quiet) write_err(std::string(kProg) + ": Relinquishing job allocation " + id + "\n");
        if (!revoked) release(a.job_id, status);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    });
}

std::string_view salloc_help() {
    return kUsage;
}

} // namespace drover::cli
