// prolog.cpp - fork, set the job's variables, exec, wait.
#include "noded/prolog.hpp"

#include "noded/fork_child.hpp"

#include <csignal>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

namespace drover::noded {

int run_script(const std::string &path, uint32_t job_id, uint32_t uid, const std::string &user,
               const std::string &nodes, const std::string &node) {
    // Everything the child needs is made here: it is forked from a daemon with other threads
    // (the epilog pool), so between fork and exec it may not allocate (a lock another thread
    // held at the fork would never be released, and the script never run).
    std::vector<std::string> vars{"SLURM_JOB_ID=" + std::to_string(job_id),
                                  "SLURM_JOBID=" + std::to_string(job_id),
                                  "SLURM_JOB_UID=" + std::to_string(uid), "SLURM_JOB_USER=" + user,
                                  "SLURM_JOB_NODELIST=" + nodes};
    if (!node.empty()) vars.push_back("SLURMD_NODENAME=" + node);
    auto ours = [&vars](std::string_view entry) {
        for (const auto &v : vars)
            if (entry.substr(0, entry.find('=') + 1) == v.substr(0, v.find('=') + 1)) return true;
        return false;
    };
    std::vector<char *> envp;
    for (char **e = environ; e && *e; ++e)
        if (!ours(*e)) envp.push_back(*e);
    for (auto &v : vars) envp.push_back(v.data());
    envp.push_back(nullptr);
    std::string file = path;
    char *argv[] = {file.data(), nullptr};
    pid_t pid = fork_child();
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        // Nothing of droverd's (its listening sockets above all): a Prolog or Epilog that
        // outlives a killed droverd must not keep the next one from binding its port.
        ::close_range(3, ~0u, 0);
        ::execve(file.c_str(), argv, envp.data());
        ::_exit(127);
    }
    int status = 0;
    if (pid > 0) ::waitpid(pid, &status, 0);
    return status;
}

} // namespace drover::noded
