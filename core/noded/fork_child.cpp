// fork_child.cpp - fork with signals held off until the child has dropped the daemon's handlers.
#include "noded/fork_child.hpp"

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace drover::noded {

pid_t fork_child() {
    sigset_t all, old;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = ::fork();
    if (pid == 0) {
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        for (int s = 1; s < NSIG; ++s) ::sigaction(s, &dfl, nullptr);
        return 0;
    }
    int saved = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = saved;
    return pid;
}

}  // namespace drover::noded
