// prolog.cpp - fork, set the job's variables, exec, wait.
#include "noded/prolog.hpp"

#include "noded/fork_child.hpp"

#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

namespace drover::noded {

int run_script(const std::string &path, uint32_t job_id, uint32_t uid, const std::string &user,
               const std::string &nodes, const std::string &node) {
    pid_t pid = fork_child();
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (!node.empty()) ::setenv("SLURMD_NODENAME", node.c_str(), 1);
        ::setenv("SLURM_JOB_ID", std::to_string(job_id).c_str(), 1);
        ::setenv("SLURM_JOBID", std::to_string(job_id).c_str(), 1);
        ::setenv("SLURM_JOB_UID", std::to_string(uid).c_str(), 1);
        ::setenv("SLURM_JOB_USER", user.c_str(), 1);
        ::setenv("SLURM_JOB_NODELIST", nodes.c_str(), 1);
        // Nothing of droverd's (its listening sockets above all): a Prolog or Epilog that
        // outlives a killed droverd must not keep the next one from binding its port.
        ::close_range(3, ~0u, 0);
        ::execl(path.c_str(), path.c_str(), static_cast<char *>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    if (pid > 0) ::waitpid(pid, &status, 0);
    return status;
}

} // namespace drover::noded
