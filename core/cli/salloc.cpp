// salloc.cpp - salloc: get an allocation, run a command (or the user's shell) with its
// environment here, and give the allocation back when the command exits.
#include <algorithm>
#include <cerrno>
#include <optional>
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

using Vars = std::vector<std::pair<std::string, std::string>>;

// The variables that describe one job of the allocation (a heterogeneous job's component has
// them again with the suffix _HET_GROUP_<offset>).
Vars allocation_vars(const Allocation &a, const SrunRequest &r) {
    const std::string id = std::to_string(a.job_id);
    Vars set = {
        {"SLURM_JOB_ID", id},
        {"SLURM_JOBID", id},
        {"SLURM_JOB_NAME", a.name},
        {"SLURM_JOB_NODELIST", a.node_list},
        {"SLURM_NODELIST", a.node_list},
        {"SLURM_JOB_NUM_NODES", std::to_string(a.nodes.size())},
        {"SLURM_NNODES", std::to_string(a.nodes.size())},
        {"SLURM_JOB_CPUS_PER_NODE", compress_counts(a.node_cpus)},
        {"SLURM_JOB_PARTITION", a.partition},
    };
    if (r.num_tasks) {
        set.push_back({"SLURM_NTASKS", std::to_string(r.num_tasks)});
        set.push_back({"SLURM_NPROCS", std::to_string(r.num_tasks)});
    }
    if (r.cpus_per_task) set.push_back({"SLURM_CPUS_PER_TASK", std::to_string(r.cpus_per_task)});
    if (r.mem_per_node_mb) set.push_back({"SLURM_MEM_PER_NODE", std::to_string(r.mem_per_node_mb)});
    if (r.mem_per_cpu_mb) set.push_back({"SLURM_MEM_PER_CPU", std::to_string(r.mem_per_cpu_mb)});
    return set;
}

// What a later component of a heterogeneous allocation takes from the first unless it gives its
// own (Slurm's propagated options that salloc has).
void carry_over(const SrunRequest &first, SrunRequest &c) {
    for (auto field :
         {&SrunRequest::job_name, &SrunRequest::account, &SrunRequest::qos, &SrunRequest::comment,
          &SrunRequest::exc_nodes, &SrunRequest::dependency, &SrunRequest::reservation})
        if ((c.*field).empty()) c.*field = first.*field;
    if (c.time_limit_min == 0xfffffffe) c.time_limit_min = first.time_limit_min;
    c.hold = c.hold || first.hold;
    c.quiet = c.quiet || first.quiet;
}

// args split at each ':' before the command (one after it is the command's own, as in
// "salloc -N2 srun a : b").
std::vector<std::span<const std::string>> component_args(std::span<const std::string> args) {
    std::vector<std::span<const std::string>> parts;
    std::size_t start = 0;
    for (;;) {
        auto colon = std::find(args.begin() + std::ptrdiff_t(start), args.end(), ":");
        if (colon == args.end()) break;
        const auto at = std::size_t(colon - args.begin());
        bool command = false;
        try {
            command =
                !parse_srun(args.subspan(start, at - start), process_env(), kProg).argv.empty();
        } catch (const std::exception &) {
            // a bad option: parse_srun_command reports it below
        }
        if (command) break;
        parts.push_back(args.subspan(start, at - start));
        start = at + 1;
    }
    parts.push_back(args.subspan(start));
    return parts;
}

// "salloc A : B [command]": each ':' starts a component of a heterogeneous job; the command
// follows the last one. The later components take the options Slurm carries over from the first
// unless they give their own. nullopt: parsed, go on.
std::optional<int> parse_components(std::span<const std::string> args, SrunRequest *r,
                                    std::vector<SrunRequest> *het) {
    auto parts = component_args(args);
    for (std::size_t k = 0; k < parts.size(); ++k) {
        SrunRequest &c = k == 0 ? *r : het->emplace_back();
        if (auto done = parse_srun_command(parts[k], kProg, kUsage, &c)) return done;
    }
    if (het->empty()) return std::nullopt;
    r->argv = std::move(het->back().argv);
    for (auto &c : *het) {
        c.argv.clear();
        carry_over(*r, c);
    }
    return std::nullopt;
}

} // namespace

int salloc_main(std::span<const std::string> args) {
    SrunRequest r;
    std::vector<SrunRequest> het;
    if (auto done = parse_components(args, &r, &het)) return *done;
    return guarded(kProg, [&] {
        Allocation a;
        std::vector<Allocation> parts;
        if (!allocate(r, kProg, &a, het, &parts)) return 1;
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
        Vars set = allocation_vars(a, r);
        set.push_back({"SLURM_CLUSTER_NAME", target_config().cluster_name});
        set.push_back({"SLURM_SUBMIT_HOST", short_host()});
        set.push_back({"SLURM_CONF", cli_config().path});
        // An allocation on another cluster (-M): srun and the other commands inside go there.
        if (std::string w = working_cluster_value(); !w.empty())
            set.push_back({"SLURM_WORKING_CLUSTER", w});
        if (!het.empty()) { // each component's own, as Slurm names them
            set.push_back({"SLURM_HET_SIZE", std::to_string(het.size() + 1)});
            for (std::size_t k = 0; k <= het.size(); ++k)
                for (auto &[key, value] :
                     k == 0 ? allocation_vars(a, r) : allocation_vars(parts[k - 1], het[k - 1]))
                    set.push_back({key + "_HET_GROUP_" + std::to_string(k), std::move(value)});
        }
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
