// reboot.cpp - RebootProgram, started on its own.
#include "noded/reboot.hpp"

#include <csignal>
#include <unistd.h>

#include "noded/fork_child.hpp"

namespace drover::noded {

pid_t start_reboot_program(const std::string &command, const std::string &node) {
    pid_t pid = fork_child();
    if (pid != 0) return pid;
    ::setsid(); // droverd's end (the program may stop it) must not end the program
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::setenv("SLURMD_NODENAME", node.c_str(), 1);
    ::close_range(3, ~0u, 0);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char *>(nullptr));
    ::_exit(127);
}

} // namespace drover::noded
